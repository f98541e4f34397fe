// The admin's emails about a deal (spec 001 §7), mounted at /api/deal after the deals API: the manual
// templates and sending one. Admins only (the guard, the use cases, RLS).
import { Hono } from "hono";
import { type AppEnv, idParam, readBody, success } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { DEAL_MESSAGES } from "../lib/deals/rules.ts";
import { MAIL_MESSAGES } from "../lib/mail/rules.ts";
import { listEmailTemplates } from "../lib/mail/use_cases/email_templates.ts";
import { sendDealEmail } from "../lib/mail/use_cases/send_deal_email.ts";

const adminOnly = requireUser("api", ["Admin"], MAIL_MESSAGES.notAllowed);

export const dealEmailApiRoutes = new Hono<AppEnv>()
  .use("/email-templates", adminOnly)
  .use("/send-mail/*", adminOnly)
  .get("/email-templates", (c) => success(c, listEmailTemplates(c.var.actor)))
  .post("/send-mail/:id", async (c) => {
    const id = idParam(c, "id", DEAL_MESSAGES.notFound);
    const { template, message } = await sendDealEmail(c.var.deps, c.var.actor, id, await readBody(c));
    return success(c, template, message);
  });
