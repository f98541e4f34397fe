// The customer's deal API (spec 000 §7 'Customer deals'), mounted at /api/customer. Guard: a signed-in
// user; each use case checks that it is the deal's customer.
import { addFlash } from "../lib/http/cookies.ts";
import { Hono } from "hono";
import { type AppEnv, readBody, success } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { CUSTOMER_MESSAGES } from "../lib/deals/rules.ts";
import { customerDeal, customerDeals, customerPayments } from "../lib/deals/use_cases/customer_deals.ts";
import { linkDeal } from "../lib/deals/use_cases/link_deal.ts";
import { refuseAsCustomer } from "../lib/deals/use_cases/refuse_deal.ts";
import { saveChoices } from "../lib/deals/use_cases/save_choices.ts";

export const customerApiRoutes = new Hono<AppEnv>()
  .use("/deal/*", requireUser("api"))
  .use("/quotes-orders", requireUser("api"))
  .get("/deal/index", async (c) => {
    // `results` is the page's list (spec 000 §7); the paging goes beside it (?page=, 25 a page).
    const { items, ...paging } = await customerDeals(c.var.deps, c.var.actor, c.req.query());
    return c.json({ status: "success", results: items, ...paging });
  })
  .get("/quotes-orders", async (c) => success(c, await customerPayments(c.var.deps, c.var.actor)))
  .get(
    "/deal/get/:token",
    async (c) => success(c, await customerDeal(c.var.deps, c.var.actor, c.req.param("token"))),
  )
  .patch(
    "/deal/link/:token",
    async (c) => success(c, await linkDeal(c.var.deps, c.var.actor, c.req.param("token"))),
  )
  .patch("/deal/save/choices/:token", async (c) => {
    const saved = await saveChoices(c.var.deps, c.var.actor, c.req.param("token"), await readBody(c));
    return success(c, saved, CUSTOMER_MESSAGES.choicesSaved);
  })
  .patch("/deal/refuse/:token", async (c) => {
    const { deal, message } = await refuseAsCustomer(
      c.var.deps,
      c.var.actor,
      c.req.param("token"),
      await readBody(c),
    );
    // The page reloads with the refused banner: the message waits for it (a 5000 ms deal snackbar).
    if (message) await addFlash(c, "success", message);
    return success(c, deal, message);
  });
