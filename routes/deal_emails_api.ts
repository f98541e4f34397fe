// The admin's emails about a deal (spec 001 §7), mounted at /api/deal after the deals API: the manual
// templates and sending one. Admins only (the guard, the use cases, RLS).
import { Hono } from "hono";
import { type AppEnv, idParam, readBody, success } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { AppError } from "../lib/errors.ts";
import { DEAL_MESSAGES } from "../lib/deals/rules.ts";
import { MAIL_MESSAGES } from "../lib/mail/rules.ts";
import { listDealEmailTemplates, listEmailTemplates } from "../lib/mail/use_cases/email_templates.ts";
import { sendDealEmail } from "../lib/mail/use_cases/send_deal_email.ts";

const adminOnly = requireUser("api", ["Admin"], MAIL_MESSAGES.notAllowed);

export const dealEmailApiRoutes = new Hono<AppEnv>()
  .use("/email-templates", adminOnly)
  .use("/send-mail/*", adminOnly)
  .get("/email-templates", async (c) => {
    // ?dealId=N: each template says whether it applies to that deal now, and why not.
    if (c.req.query("dealId") === undefined) return success(c, listEmailTemplates(c.var.actor));
    const id = Number(c.req.query("dealId"));
    if (!Number.isSafeInteger(id) || id <= 0) throw new AppError("not_found", DEAL_MESSAGES.notFound);
    return success(c, await listDealEmailTemplates(c.var.deps, c.var.actor, id));
  })
  .post("/send-mail/:id", async (c) => {
    const id = idParam(c, "id", DEAL_MESSAGES.notFound);
    const { template, message } = await sendDealEmail(c.var.deps, c.var.actor, id, await readBody(c));
    return success(c, template, message);
  });
