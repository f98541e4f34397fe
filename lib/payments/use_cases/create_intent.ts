// POST /api/payment/intent (spec 000 §7): only the deal's customer; the amount is the server's,
// planned from the deal (lib/payments/rules.ts planPayment). The provider is called outside any
// transaction; the intent is then recorded in one transaction, the deal locked, which plans again (the
// deal may have been paid meanwhile) and supersedes the deal's other open intents: each is canceled at
// the provider by an outbox job, and the recorder refunds a superseded intent paid anyway.
import { type Actor, requireRole, statementTx, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { parseInput } from "../../validation.ts";
import { z } from "zod";
import { centsToEuros, formatEuros } from "../../money.ts";
import { DEAL_MESSAGES, DEAL_TOKEN } from "../../deals/rules.ts";
import {
  intentParameters,
  PAYMENT_MESSAGES,
  type PaymentKind,
  type PaymentType,
  planPayment,
} from "../rules.ts";
import {
  type DealForPayment,
  findDealForPayment,
  lockDealForIntent,
  saveIntent,
  supersededIntentCount,
  supersedeOpenIntents,
} from "../store.ts";
import { PAYMENTS, requireProvider } from "./record_card_payment.ts";

const intentSchema = z.object({
  dealToken: z.string().regex(DEAL_TOKEN, DEAL_MESSAGES.unavailable),
  paymentType: z.enum(["deposit", "full", "remaining"], { error: PAYMENT_MESSAGES.intentError }),
});

export interface IntentResult {
  clientSecret: string;
  paymentIntentId: string;
  amount: number;
  amountFormatted: string;
  paymentType: PaymentType;
  kind: PaymentKind;
}

export async function createPaymentIntent(deps: Deps, actor: Actor, body: unknown): Promise<IntentResult> {
  const customer = requireRole(actor, "Customer", { message: PAYMENT_MESSAGES.customersOnly });
  const input = parseInput(intentSchema, body, PAYMENT_MESSAGES.intentError);
  const provider = requireProvider(deps);
  const deal = await transactionAs(deps.db, customer, (tx) => findDealForPayment(tx, input.dealToken));
  if (!deal) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  if (deal.customerId !== customer.user.id) throw new AppError("forbidden", PAYMENT_MESSAGES.customersOnly);
  const plan = planPayment(payableOf(deal), input.paymentType);
  if (!plan.ok) throw new AppError("conflict", plan.error);
  // Read as the system: intents are not the customer's to read (RLS).
  const generation = await supersededIntentCount(
    statementTx(deps.db, PAYMENTS),
    deal.id,
    plan.kind,
    plan.amount,
  );
  const parameters = intentParameters(deal.id, plan.kind, plan.amount, customer.user.id, generation);
  // The provider is called outside any transaction; the intent is recorded right after.
  const intent = await provider.createIntent(parameters).catch(async (error) => {
    // The logs page names the provider (service 'stripe'); the customer sees the usual error.
    await deps.logger.error(provider.name, "Création du paiement impossible chez le prestataire", {
      dealId: deal.id,
      kind: plan.kind,
      error: String(error).slice(0, 1000),
    });
    throw error;
  });
  const replanned = await transactionAs(deps.db, PAYMENTS, async (tx) => {
    const locked = await lockDealForIntent(tx, deal.id);
    await saveIntent(tx, {
      id: intent.id,
      provider: provider.name,
      dealId: deal.id,
      customerId: customer.user.id,
      kind: plan.kind,
      amount: plan.amount,
      status: intent.status,
      idempotencyKey: parameters.idempotencyKey,
    });
    // Paid or refused while the provider answered: this intent asks for nothing any more.
    const again = locked ? planPayment(payableOf(locked), input.paymentType) : plan;
    const still = again.ok && again.kind === plan.kind && again.amount === plan.amount;
    await supersedeOpenIntents(tx, deal.id, still ? intent.id : null);
    return again;
  });
  if (!replanned.ok) throw new AppError("conflict", replanned.error);
  if (replanned.kind !== plan.kind || replanned.amount !== plan.amount) {
    throw new AppError("conflict", PAYMENT_MESSAGES.notDueAnyMore);
  }
  return {
    clientSecret: intent.clientSecret,
    paymentIntentId: intent.id,
    amount: centsToEuros(plan.amount),
    amountFormatted: formatEuros(plan.amount),
    paymentType: plan.kind === "deposit" ? "deposit" : plan.kind === "balance" ? "remaining" : "full",
    kind: plan.kind,
  };
}

function payableOf(deal: DealForPayment) {
  return {
    status: deal.status,
    settings: deal.settings,
    totalTTC: deal.totals.totalTTC ?? 0,
    depositAmount: deal.depositAmount,
    totalAmountPaid: deal.totalAmountPaid,
    depositPaidAt: deal.depositPaidAt !== null,
    paidAt: deal.paidAt !== null,
  };
}
