// The voucher applied to a customer's cart, for the cart page (/panier): what it has left, read under
// the customer's RLS (their own cart). Anonymous visitors, partners and admins have none.
import { type Actor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { cartVoucher } from "../store.ts";
import { voucherDiscount } from "../rules.ts";

export async function cartVoucherView(deps: Deps, actor: Actor): Promise<{ remaining: number } | null> {
  if (actor.kind !== "user" || actor.user.type !== "Customer") return null;
  const row = await transactionAs(deps.db, actor, (tx) => cartVoucher(tx));
  if (!row || row.status !== "active" || !row.validUntil || row.validUntil.getTime() <= Date.now()) {
    return null;
  }
  return row.remaining > 0 ? { remaining: row.remaining } : null;
}

/** GET /api/cart's voucher fields: the voucher (null without one), what it would pay, what is left to pay. */
export function cartWithVoucher(total: number, voucher: { remaining: number } | null) {
  const discount = voucher ? voucherDiscount(voucher.remaining, total) : 0;
  return { voucher, discount, toPay: total - discount };
}
