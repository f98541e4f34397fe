// POST /api/customer/discounts: buy a gift voucher (WIP: waiting for the order layer's contract).
import { type Actor, requireRole } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { parsePurchase } from "../input.ts";
import { VOUCHER_MESSAGES } from "../rules.ts";

export async function buyVoucher(
  deps: Deps,
  actor: Actor,
  body: Record<string, unknown>,
): Promise<{ voucherId: string }> {
  const customer = requireRole(actor, "Customer", {
    message: VOUCHER_MESSAGES.customersOnly,
    loginMessage: VOUCHER_MESSAGES.loginToBuy,
  });
  parsePurchase(body, `${customer.user.firstname} ${customer.user.lastname}`.trim());
  await Promise.resolve(deps);
  throw new AppError("conflict", VOUCHER_MESSAGES.paymentError);
}
