// POST /api/cart/checkout: a customer's live cart lines become an order with one pending registration
// each, priced on the server (lib/sessions/rules.ts through orderLineOf), their holds extended to
// cover the payment; the answer is the order's payment intent. A second checkout supersedes the first
// order and its intent (never two payable intents for one cart). One transaction as the system, after
// the customer is checked; the cart row and the dates are locked in the database function.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import { recordCreation } from "../../idempotency/context.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { PAYMENTS, requireProvider } from "../../payments/use_cases/record_card_payment.ts";
import { toUnix } from "../../sessions/offers.ts";
import { cartLimitMessage, MAX_PLACES_HELD } from "../../sessions/rules.ts";
import { CHECKOUT_MESSAGES } from "../rules.ts";
import { orderLineOf } from "../pricing.ts";
import { createCartOrder, lockCartForCheckout } from "../store.ts";
import { createOrderIntent, type OrderIntentResult } from "./create_order_intent.ts";
import { centsToEuros, formatEuros } from "../../money.ts";
import { PAID_BY_VOUCHER_MESSAGE, redeemAtCheckout } from "../../vouchers/use_cases/redeem_at_checkout.ts";

/** The answer when the cart's gift voucher paid the whole order: no card payment, nothing to confirm. */
export interface PaidByVoucherResult {
  paidByVoucher: true;
  orderId: number;
  amount: 0;
  amountFormatted: string;
  discount: number;
  discountCents: number;
  message: string;
}

export async function checkoutCart(
  deps: Deps,
  actor: Actor,
): Promise<OrderIntentResult | PaidByVoucherResult> {
  const customer = requireRole(actor, "Customer", {
    message: CHECKOUT_MESSAGES.customersOnly,
    loginMessage: CHECKOUT_MESSAGES.loginRequired,
  });
  requireProvider(deps);
  const checkout = await transactionAs(deps.db, PAYMENTS, async (tx) => {
    const rows = await lockCartForCheckout(tx, customer.user.id);
    if (rows.length === 0) throw new AppError("validation", CHECKOUT_MESSAGES.emptyCart);
    // Committed, not thrown: the expired holds given back stay given back.
    if (rows.every((r) => r.lineId === null)) return null;
    const now = Date.now();
    if (rows.some((r) => r.state !== "open" || r.dtstart.getTime() <= now)) {
      throw new AppError("conflict", CHECKOUT_MESSAGES.dateUnavailable);
    }
    // The holds respect the cart's limit; create_cart_order refuses it too (20261128004000_seat_limits).
    const held = rows.reduce((sum, r) => sum + (r.quantity ?? 0), 0);
    if (held > MAX_PLACES_HELD) throw new AppError("conflict", cartLimitMessage(MAX_PLACES_HELD, held));
    const lines = rows.map((r) =>
      orderLineOf({
        lineId: r.lineId!,
        title: r.sessionTitle,
        city: r.sessionCity,
        dtstart: toUnix(r.dtstart),
        quantity: r.quantity,
        price: {
          priceTTC: Number(r.priceTTC),
          travelCostTTC: Number(r.travelCostTTC),
          additionalCosts: r.additionalCosts,
        },
      })
    );
    const orderId = await createCartOrder(tx, customer.user.id, lines, deps.config.cartHoldMinutes);
    await recordCreation(tx);
    // The cart's gift voucher pays what it can (lib/vouchers), in this transaction.
    return { orderId, voucher: await redeemAtCheckout(tx, deps.config, customer.user.id, orderId) };
  });
  if (checkout === null) throw new AppError("conflict", CHECKOUT_MESSAGES.expired);
  if (checkout.voucher.paid) {
    return {
      paidByVoucher: true,
      orderId: checkout.orderId,
      amount: 0,
      amountFormatted: formatEuros(0),
      discount: centsToEuros(checkout.voucher.discount),
      discountCents: checkout.voucher.discount,
      message: PAID_BY_VOUCHER_MESSAGE,
    };
  }
  return await createOrderIntent(deps, customer, checkout.orderId);
}
