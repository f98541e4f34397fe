// PATCH /api/customer/deal/link/{token}: a signed-in customer becomes the deal's customer when it has
// none yet; a deal linked to someone else is never handed over (409).
import { type Actor, requireRole, transactionAs, type UserActor } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../db/database.ts";
import { AppError } from "../../errors.ts";
import { CUSTOMER_MESSAGES } from "../rules.ts";
import { findDeal, linkCustomerIfNone } from "../store.ts";
import { checkToken, logLink, PUBLIC_PAGE, visibleDeal } from "./customer_access.ts";

/** PATCH /api/customer/deal/link/{token}: a signed-in customer opening the page becomes the deal's
 * customer when it has none yet; a deal linked to someone else is never handed over. */
export async function linkDeal(deps: Deps, actor: Actor, token: string): Promise<{ linked: boolean }> {
  checkToken(token);
  const customer = requireRole(actor, "Customer", {
    message: "Seul un compte client peut être rattaché à un devis.",
  });
  const result = await transactionAs(
    deps.db,
    PUBLIC_PAGE,
    (tx) => linkInTransaction(tx, customer, token),
  );
  if (result.changed) await logLink(deps, result.id, customer);
  return { linked: true };
}

/** Links the deal of `token` to `customer` when it has none; a deal of another customer is refused
 * (409). */
async function linkInTransaction(
  tx: Tx,
  customer: UserActor,
  token: string,
): Promise<{ changed: boolean; id: number }> {
  const deal = await visibleDeal(tx, token);
  if (deal.customerId === null && await linkCustomerIfNone(tx, deal.id, customer.user.id)) {
    return { changed: true, id: deal.id };
  }
  const current = deal.customerId ?? (await findDeal(tx, deal.id)).customerId;
  if (current === customer.user.id) return { changed: false, id: deal.id };
  throw new AppError("conflict", CUSTOMER_MESSAGES.linkedElsewhere);
}
