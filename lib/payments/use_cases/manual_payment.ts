// 'Marquer l'acompte payé', 'Marquer le solde payé', 'Marquer le paiement intégral' (spec 001 §4):
// an admin in person (never while impersonating, checked in the database too) records a payment
// received outside the card flow, never above what the quote still asks; a balance or a total is
// exactly what is due (it marks the deal paid: below, it would issue an invoice reading 'Reste à payer
// 0,00' while money is due — record a deposit instead).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import { recordCreation } from "../../idempotency/context.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { parseInput } from "../../validation.ts";
import { z } from "zod";
import { eurosToCents, formatEuros } from "../../money.ts";
import { DEAL_MESSAGES, type DealStatus, STATUS_LABELS, transition } from "../../deals/rules.ts";
import { PAYMENT_MESSAGES, paymentFits } from "../rules.ts";
import { insertManualPayment, isActiveAdminUser, lockDealForManualPayment } from "../store.ts";
import { PAYMENTS } from "./record_card_payment.ts";

const manualSchema = z.object({
  kind: z.enum(["deposit", "balance", "total"], { error: "Type de paiement inconnu." }),
  amount: z.unknown(),
});

export async function recordManualPayment(
  deps: Deps,
  actor: Actor,
  dealId: number,
  body: unknown,
): Promise<{ status: DealStatus; message: string }> {
  const admin = requireRole(actor, "Admin", { message: DEAL_MESSAGES.notAllowed, notImpersonating: true });
  const { kind, amount: sent } = parseInput(manualSchema, body, DEAL_MESSAGES.amountPositive);
  const amount = eurosToCents(sent);
  if (amount === null || amount <= 0 || amount > 100_000_000) {
    throw new AppError("validation", DEAL_MESSAGES.amountPositive, { amount: DEAL_MESSAGES.amountPositive });
  }
  const status = await transactionAs(deps.db, PAYMENTS, async (tx) => {
    const deal = await lockDealForManualPayment(tx, dealId);
    if (!deal) throw new AppError("not_found", DEAL_MESSAGES.notFound);
    // The admin is checked in the database too, not only from the session.
    if (!(await isActiveAdminUser(tx, admin.user.id))) {
      throw new AppError("forbidden", DEAL_MESSAGES.notAllowed);
    }
    const action = kind === "deposit" ? "pay_deposit" : kind === "balance" ? "pay_balance" : "pay_total";
    const moved = transition(action, { from: deal.status, role: "Admin", locked: deal.locked });
    if (!moved.ok) throw new AppError("conflict", moved.error);
    // Never more than what the quote still asks: a typing slip would otherwise mark a deal overpaid.
    if (amount > deal.due) {
      const message = PAYMENT_MESSAGES.moreThanDue(formatEuros(Math.max(0, deal.due)));
      throw new AppError("validation", message, { amount: message });
    }
    if (kind === "deposit" && amount >= deal.due) {
      const message = PAYMENT_MESSAGES.depositBelowDue(formatEuros(deal.due));
      throw new AppError("validation", message, { amount: message });
    }
    if (kind !== "deposit" && amount !== deal.due) {
      const message = PAYMENT_MESSAGES.notTheDue(formatEuros(deal.due));
      throw new AppError("validation", message, { amount: message });
    }
    // The recorder's rule (record_payment refuses it too): a deposit before any payment, a balance
    // after the deposit, a total before anything.
    if (!paymentFits(deal, kind, amount)) throw new AppError("conflict", PAYMENT_MESSAGES.notDueAnyMore);
    await insertManualPayment(tx, { dealId, kind, amount, adminId: admin.user.id });
    await recordCreation(tx);
    return moved.to;
  });
  await deps.logger.info("payments", "Paiement enregistré à la main", {
    dealId,
    adminId: admin.user.id,
    kind,
    amount,
  });
  return {
    status,
    message: PAYMENT_MESSAGES.manualRecorded(kind, formatEuros(amount), STATUS_LABELS[status]),
  };
}
