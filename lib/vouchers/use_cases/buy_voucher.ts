// POST /api/customer/discounts (issue 12; spec 000 §2 'Offrir un bon cadeau', §9 price 50): a customer
// buys a gift voucher. One transaction as the system, after the checks: a voucher order (kind 'voucher',
// 50 €, the checkout's contract) and the voucher, pending, with a new code (hashed and sealed:
// codes.ts). Then the order's card payment, answered like /api/payment/intent; once paid, the checkout's
// order-paid hook activates the voucher and settleOrder issues its invoice and schedules the emails
// (settle_voucher.ts).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import { recordCreation } from "../../idempotency/context.ts";
import type { Deps } from "../../deps.ts";
import { createOrderIntent, type OrderIntentResult } from "../../orders/use_cases/create_order_intent.ts";
import { requireProvider } from "../../payments/use_cases/record_card_payment.ts";
import { codeHash, generateCode, sealCode } from "../codes.ts";
import { parsePurchase } from "../input.ts";
import { VOUCHER_MESSAGES, VOUCHER_PRICE_CENTS } from "../rules.ts";
import { insertVoucher, insertVoucherOrder } from "../store.ts";
import { VOUCHERS } from "./voucher_pdf.ts";

export type VoucherIntent = OrderIntentResult & { voucherId: string };

export async function buyVoucher(
  deps: Deps,
  actor: Actor,
  body: Record<string, unknown>,
): Promise<VoucherIntent> {
  const customer = requireRole(actor, "Customer", {
    message: VOUCHER_MESSAGES.customersOnly,
    loginMessage: VOUCHER_MESSAGES.loginToBuy,
  });
  const input = parsePurchase(body, `${customer.user.firstname} ${customer.user.lastname}`.trim());
  requireProvider(deps);
  const code = generateCode();
  const [hash, sealed] = await Promise.all([codeHash(code), sealCode(code, deps.config.appSecret)]);
  const { orderId, voucherId } = await transactionAs(deps.db, VOUCHERS, async (tx) => {
    const orderId = await insertVoucherOrder(
      tx,
      customer.user.id,
      VOUCHER_PRICE_CENTS,
      `Bon cadeau pour ${input.recipientName}`,
    );
    const voucherId = await insertVoucher(tx, {
      buyerId: customer.user.id,
      orderId,
      codeHash: hash,
      codeSealed: sealed,
      amount: VOUCHER_PRICE_CENTS,
      ...input,
    });
    await recordCreation(tx);
    return { orderId, voucherId };
  });
  await deps.logger.info("vouchers", "Bon cadeau commandé", { voucherId, orderId, userId: customer.user.id });
  return { ...(await createOrderIntent(deps, customer, orderId)), voucherId };
}
