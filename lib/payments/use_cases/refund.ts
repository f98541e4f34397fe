// POST /api/deal/{id}/refunds: an admin in person (never while impersonating, checked in the database
// too) refunds a payment, fully or partly, never beyond what is refundable. A card payment is refunded
// through its provider by the refunds queue (lib/payments/queues.ts, never inside this transaction); a
// manual one is recorded at once. The credit note follows from the billing queue. The payment row is
// locked and the pending refunds read after the lock (two instances at once never both pass); the
// database checks it again (refunds_within_refundable).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { parseInput } from "../../validation.ts";
import { z } from "zod";
import { eurosToCents } from "../../money.ts";
import { DEAL_MESSAGES } from "../../deals/rules.ts";
import { REFUND_MESSAGES } from "../rules.ts";
import { insertRefund, isActiveAdminUser, lockPaymentForRefund } from "../store.ts";
import { PAYMENTS } from "./record_card_payment.ts";

const refundSchema = z.object({
  paymentId: z.string().uuid("Paiement introuvable."),
  amount: z.unknown(),
  reason: z.string().max(500).optional(),
});

export async function requestRefund(
  deps: Deps,
  actor: Actor,
  dealId: number,
  body: unknown,
): Promise<{ message: string }> {
  const admin = requireRole(actor, "Admin", { message: DEAL_MESSAGES.notAllowed, notImpersonating: true });
  const input = parseInput(refundSchema, body, DEAL_MESSAGES.amountPositive, { multiLine: ["reason"] });
  const amount = eurosToCents(input.amount);
  if (amount === null || amount <= 0) {
    throw new AppError("validation", DEAL_MESSAGES.amountPositive, { amount: DEAL_MESSAGES.amountPositive });
  }
  const manual = await transactionAs(deps.db, PAYMENTS, async (tx) => {
    if (!(await isActiveAdminUser(tx, admin.user.id))) {
      throw new AppError("forbidden", DEAL_MESSAGES.notAllowed);
    }
    const payment = await lockPaymentForRefund(tx, input.paymentId, dealId);
    if (!payment) throw new AppError("not_found", "Paiement introuvable.");
    if (payment.refunded + amount > payment.amount) {
      throw new AppError("validation", REFUND_MESSAGES.tooMuch, { amount: REFUND_MESSAGES.tooMuch });
    }
    const refund = await insertRefund(tx, {
      paymentId: payment.id,
      amount,
      reason: input.reason ?? "",
      requestedBy: admin.user.id,
      manual: payment.method === "manual",
    });
    return !!refund && payment.method === "manual";
  });
  await deps.logger.info("payments", "Remboursement demandé", { dealId, adminId: admin.user.id, amount });
  return { message: manual ? REFUND_MESSAGES.recorded : REFUND_MESSAGES.requested };
}
