// 'Valider ma disponibilité et les cocktails' / '(Re)valider ma dispo' (admins and the deal's partner):
// the cocktail list must validate; the quote goes to the customer, who is emailed by the worker.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { DEAL_MESSAGES, transition } from "../rules.ts";
import { findDeal, nameAction, queueNotification, writeDeal } from "../store.ts";
import { readPayload } from "./read_payload.ts";
import { check, locked, requireCocktails, requireSellerVatNumber, type UpdateResult } from "./workflow.ts";

export async function validateAvailability(deps: Deps, actor: Actor, id: number): Promise<UpdateResult> {
  const user = requireRole(actor, ["Admin", "Company"], { message: DEAL_MESSAGES.notAllowed });
  const role = user.user.type;
  let revalidated = false;
  const deal = await transactionAs(deps.db, user, async (tx) => {
    const deal = await findDeal(tx, id, { lock: true });
    const to = check(transition("validate", { from: deal.status, role, locked: locked(deal) }));
    await requireCocktails(tx, deal);
    await requireSellerVatNumber(tx, deal, role); // issue 11: no quote sent without the seller's VAT number
    revalidated = to === "edited";
    await nameAction(tx, "validate");
    await writeDeal(tx, id, { status: to, properties: { ...deal.properties, envoi_devis: "oui" } });
    // The customer is emailed by the worker: a partner may not read the customer's address. A quote the
    // customer received before (a new partner took the deal over) is an updated one for them.
    const resent = revalidated || deal.properties.envoi_devis === "oui";
    await queueNotification(tx, id, resent ? "quote_updated" : "quote_ready");
    return await readPayload(deps, tx, role, id);
  });
  await deps.logger.info("deals", "Disponibilité validée", { dealId: id, userId: user.user.id });
  return { deal, message: revalidated ? DEAL_MESSAGES.revalidated : DEAL_MESSAGES.validated };
}
