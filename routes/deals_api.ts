// The deals API (spec 001 §7), mounted at /api/deal: the back office. The public quote request is
// registered before the guard on purpose; everything after it is for partners and admins (a customer
// has their own API, routes/customer_api.ts), and each use case checks the role again (RLS and the
// guard trigger a third time).
import { Hono } from "hono";
import { type AppEnv, clientOf, idParam, readBody, success } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { idempotent } from "../lib/http/idempotency.ts";
import { acceptDeal } from "../lib/deals/use_cases/accept_deal.ts";
import { checkCocktailList } from "../lib/deals/use_cases/check_cocktail_list.ts";
import { dealHistory } from "../lib/deals/use_cases/deal_history.ts";
import { getDeal } from "../lib/deals/use_cases/get_deal.ts";
import { listDealsForAdmin, listOwnDeals } from "../lib/deals/use_cases/list_deals.ts";
import { previewPartnerChange } from "../lib/deals/use_cases/partner_change.ts";
import { refuseDeal } from "../lib/deals/use_cases/refuse_deal.ts";
import { removeDeal } from "../lib/deals/use_cases/remove_deal.ts";
import { applyRepricing, proposeRepricing } from "../lib/deals/use_cases/reprice_deal.ts";
import { requestQuote } from "../lib/deals/use_cases/request_quote.ts";
import { resetChoices } from "../lib/deals/use_cases/reset_choices.ts";
import { sendToPartner } from "../lib/deals/use_cases/send_to_partner.ts";
import { updateDeal } from "../lib/deals/use_cases/update_deal.ts";
import { validateAvailability } from "../lib/deals/use_cases/validate_availability.ts";
import { DEAL_MESSAGES } from "../lib/deals/rules.ts";
import { dealListPayload } from "../lib/deals/payload.ts";
import { estimateToJson } from "../lib/deals/estimate.ts";
import { recordManualPayment } from "../lib/payments/use_cases/manual_payment.ts";

const NOT_FOUND = DEAL_MESSAGES.notFound;

export const dealsApiRoutes = new Hono<AppEnv>()
  .post("/request", idempotent(), async (c) => {
    const result = await requestQuote(c.var.deps, c.var.actor, clientOf(c), await readBody(c));
    return success(c, { ...result, estimate: estimateToJson(result.estimate) });
  })
  .use(requireUser("api", ["Admin", "Company"], DEAL_MESSAGES.notAllowed))
  .get("/index", async (c) => {
    const actor = c.var.actor;
    if (actor.kind === "user" && actor.user.type === "Admin") {
      // `results` is the list (spec 001 §7); the admin list's paging goes beside it.
      const { items, ...paging } = await listDealsForAdmin(c.var.deps, actor, c.req.query());
      return c.json({ status: "success", results: items.map(dealListPayload), ...paging });
    }
    // A partner's 'Mes devis': one page (?page=, 25 a page), the paging beside `results`.
    const { items, ...paging } = await listOwnDeals(c.var.deps, actor, c.req.query());
    return c.json({ status: "success", results: items.map(dealListPayload), ...paging });
  })
  .get(
    "/get/:id",
    async (c) => success(c, await getDeal(c.var.deps, c.var.actor, idParam(c, "id", NOT_FOUND))),
  )
  .get(
    "/:id/history",
    async (c) => success(c, await dealHistory(c.var.deps, c.var.actor, idParam(c, "id", NOT_FOUND))),
  )
  .get(
    "/:id/cocktail-validation",
    async (c) => success(c, await checkCocktailList(c.var.deps, c.var.actor, idParam(c, "id", NOT_FOUND))),
  )
  .get("/:id/partner-preview", async (c) => {
    const id = idParam(c, "id", NOT_FOUND);
    return success(c, await previewPartnerChange(c.var.deps, c.var.actor, id, c.req.query("company")));
  })
  .patch("/:id", async (c) => {
    const { deal, message } = await updateDeal(
      c.var.deps,
      c.var.actor,
      idParam(c, "id", NOT_FOUND),
      await readBody(c),
    );
    return success(c, deal, message);
  })
  .delete("/:id", async (c) => {
    await removeDeal(c.var.deps, c.var.actor, idParam(c, "id", NOT_FOUND));
    return success(c, null);
  })
  .post("/:id/send-to-partner", async (c) => {
    const { deal, message } = await sendToPartner(c.var.deps, c.var.actor, idParam(c, "id", NOT_FOUND));
    return success(c, deal, message);
  })
  .post("/:id/validate-availability", async (c) => {
    const { deal, message } = await validateAvailability(
      c.var.deps,
      c.var.actor,
      idParam(c, "id", NOT_FOUND),
    );
    return success(c, deal, message);
  })
  .post("/:id/accept", async (c) => {
    const { deal, message } = await acceptDeal(c.var.deps, c.var.actor, idParam(c, "id", NOT_FOUND));
    return success(c, deal, message);
  })
  .post("/:id/payments", idempotent(), async (c) => {
    const id = idParam(c, "id", NOT_FOUND);
    const { message } = await recordManualPayment(c.var.deps, c.var.actor, id, await readBody(c));
    return success(c, await getDeal(c.var.deps, c.var.actor, id), message);
  })
  .post("/:id/refuse", async (c) => {
    const { deal, message } = await refuseDeal(
      c.var.deps,
      c.var.actor,
      idParam(c, "id", NOT_FOUND),
      await readBody(c),
    );
    return success(c, deal, message);
  })
  .post("/:id/reset-choices", async (c) => {
    const { deal, message } = await resetChoices(c.var.deps, c.var.actor, idParam(c, "id", NOT_FOUND));
    return success(c, deal, message);
  })
  .get(
    "/:id/repricing",
    async (c) => success(c, await proposeRepricing(c.var.deps, c.var.actor, idParam(c, "id", NOT_FOUND))),
  )
  .post("/:id/repricing", async (c) => {
    const id = idParam(c, "id", NOT_FOUND);
    const { deal, message } = await applyRepricing(c.var.deps, c.var.actor, id, await readBody(c));
    return success(c, deal, message);
  });
