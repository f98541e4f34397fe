// What the customer side's use cases share (spec 000 §2, §4, §6, §7). The token is a shared secret: it
// shows the quote, but only the deal's own customer may pay, download, choose or refuse — a forwarded
// link never hands the deal to its reader.
import { type Actor, systemActor, transactionAs, type UserActor } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../db/database.ts";
import { AppError } from "../../errors.ts";
import { type CocktailListType, DEAL_MESSAGES, DEAL_TOKEN, VISIBLE_STATUSES } from "../rules.ts";
import { type DealRow, findDealByToken } from "../store.ts";
import type { Catalogue } from "../settings.ts";

/** The public page reads by token as the system, once the token matched a sent quote. */
export const PUBLIC_PAGE = systemActor("intake");

/** 404 'Devis non disponible' for anything that is not a token. */
export function checkToken(token: string): string {
  if (!DEAL_TOKEN.test(token)) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  return token;
}

/** The deal of a token, if it is a sent quote (start, new and pending are not shown). */
export async function visibleDeal(tx: Tx, token: string): Promise<DealRow> {
  const deal = await findDealByToken(tx, token);
  if (!deal || !VISIBLE_STATUSES.includes(deal.status)) {
    throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  }
  return deal;
}

/** Whether the token's quote was sent to the customer and is with a partner again ('new' after a change
 * of partner, 'pending' after an edit): its page says it is being updated instead of 'Devis non
 * disponible'. */
export async function quoteBeingUpdated(deps: Deps, token: string): Promise<boolean> {
  if (!DEAL_TOKEN.test(token)) return false;
  const deal = await transactionAs(deps.db, PUBLIC_PAGE, (tx) => findDealByToken(tx, token));
  return !!deal && (deal.status === "new" || deal.status === "pending") &&
    deal.properties.envoi_devis === "oui";
}

/** The cocktails the customer chooses from, by the deal's list type. */
export function proposed(
  listType: CocktailListType | null,
  catalogue: Catalogue,
  custom: { id: string; name: string; description: string }[],
) {
  if (listType === "creation") return custom.map((c) => ({ ...c, photo: "" }));
  return listType ? catalogue[listType] : [];
}

/** The signed-in customer, or null (the public page serves everyone). */
export function customerOf(actor: Actor): UserActor | null {
  return actor.kind === "user" && actor.user.type === "Customer" ? actor : null;
}

export async function logLink(deps: Deps, dealId: number, customer: UserActor) {
  await deps.logger.info("deals", "Devis rattaché à un compte client", { dealId, userId: customer.user.id });
}
