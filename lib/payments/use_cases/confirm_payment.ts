// POST /api/payment/confirm: after the provider told the browser it succeeded, the server asks the
// provider itself and records the payment (exactly once, also if the webhook came first).
import { type Actor, requireRole, statementTx } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { parseInput } from "../../validation.ts";
import { z } from "zod";
import { PAYMENT_MESSAGES, type PaymentType } from "../rules.ts";
import { ownIntentKind } from "../store.ts";
import { PAYMENTS, recordProviderIntent, requireProvider } from "./record_card_payment.ts";
import { CHECKOUT_MESSAGES } from "../../orders/rules.ts";

/** A provider's PaymentIntent id as a request may name it (Stripe's "pi_" and letters, digits,
 * underscores; hyphens tolerated). */
const PAYMENT_INTENT_ID = /^pi_[A-Za-z0-9_-]{3,250}$/;

const confirmSchema = z.object({
  paymentIntentId: z.string().regex(PAYMENT_INTENT_ID, PAYMENT_MESSAGES.confirmError),
});

export interface ConfirmResult {
  paymentType: PaymentType;
  /** The PaymentIntent's status at the provider (succeeded, processing…), or "refunding" when it
   * succeeded for money the deal did not owe (recorded, refunded automatically). */
  paymentStatus: string;
  message: string;
}

export async function confirmPayment(deps: Deps, actor: Actor, body: unknown): Promise<ConfirmResult> {
  const customer = requireRole(actor, "Customer", { message: PAYMENT_MESSAGES.customersOnly });
  const { paymentIntentId } = parseInput(confirmSchema, body, PAYMENT_MESSAGES.confirmError);
  const provider = requireProvider(deps);
  const kind = await ownIntentKind(
    statementTx(deps.db, PAYMENTS),
    paymentIntentId,
    customer.user.id,
    provider.name,
  );
  if (!kind) throw new AppError("not_found", PAYMENT_MESSAGES.confirmError);
  const intent = await provider.retrieveIntent(paymentIntentId);
  const recorded = await recordProviderIntent(deps, provider.name, intent);
  const paymentType: PaymentType = kind === "deposit" ? "deposit" : kind === "balance" ? "remaining" : "full";
  // Never 'success' for money that is being given back.
  if (intent.status === "succeeded" && recorded.overpayment) {
    const message = recorded.orderId !== null ? CHECKOUT_MESSAGES.refunding : PAYMENT_MESSAGES.refunding;
    return { paymentType, paymentStatus: "refunding", message };
  }
  // An order's payment (workshop places): its own words.
  if (intent.status === "succeeded" && recorded.orderId !== null) {
    return { paymentType, paymentStatus: "succeeded", message: CHECKOUT_MESSAGES.paid };
  }
  const message = intent.status === "succeeded"
    ? (kind === "deposit" ? PAYMENT_MESSAGES.depositPaid : PAYMENT_MESSAGES.fullPaid)
    : intent.status === "processing"
    ? PAYMENT_MESSAGES.processing
    : PAYMENT_MESSAGES.requiresPaymentMethod;
  return { paymentType, paymentStatus: intent.status, message };
}
