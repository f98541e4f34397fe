// Use cases of card payments: the provider's public configuration, creating an intent for a deal
// (the amount computed here, from the deal), the customer's confirm call, the simulated provider's
// card form, recording what the provider reports (exactly once, through record_card_payment), the
// reconciliation job, manual payments by an admin, and refunds.
import { type Actor, statementAs, systemActor, transactionAs, type UserActor } from "../actor.ts";
import type { Deps } from "../deps.ts";
import type { Tx } from "../db/database.ts";
import { AppError } from "../errors.ts";
import { parseInput } from "../validation.ts";
import { centsToEuros, eurosToCents, formatEuros } from "../money.ts";
import { DEAL_MESSAGES, type DealStatus, STATUS_LABELS, statusChanged, transition } from "../deals/rules.ts";
import {
  intentParameters,
  type LedgerPayment,
  PAYMENT_MESSAGES,
  type PaymentKind,
  type PaymentType,
  planPayment,
  REFUND_MESSAGES,
} from "./rules.ts";
import { paymentLedger } from "./store.ts";
import { type PaymentProvider, ProviderError, type ProviderIntent } from "./provider.ts";
import type { SimulatedProvider } from "./simulated.ts";
import { z } from "zod";

const PAYMENTS = systemActor("payments");

function requireProvider(deps: Deps): PaymentProvider {
  if (!deps.payments) throw new AppError("conflict", PAYMENT_MESSAGES.setupError);
  return deps.payments;
}

function requireCustomer(actor: Actor): UserActor {
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  if (actor.user.type !== "Customer") throw new AppError("forbidden", PAYMENT_MESSAGES.customersOnly);
  return actor;
}

export interface PaymentConfig {
  publicKey: string;
  provider: "stripe" | "simulated" | null;
  /** The simulated provider: the dialog says 'Mode démo'. */
  demo: boolean;
}

export function paymentConfig(deps: Deps): PaymentConfig {
  return {
    publicKey: deps.payments?.publishableKey ?? "",
    provider: deps.payments?.name ?? null,
    demo: deps.payments?.name === "simulated",
  };
}

interface DealForPayment {
  id: number;
  status: DealStatus;
  name: string;
  settings: Record<string, unknown>;
  totals: { totalTTC?: number };
  depositAmount: number | null;
  totalAmountPaid: number | null;
  depositPaidAt: Date | null;
  paidAt: Date | null;
  customerId: string | null;
}

/** The deal behind a token, as its customer sees it (RLS: only a deal linked to them). */
async function customerDeal(tx: Tx, token: string): Promise<DealForPayment> {
  const [deal] = await tx<DealForPayment>`
    select id, status, name, settings, totals, deposit_amount as "depositAmount",
      total_amount_paid as "totalAmountPaid", deposit_paid_at as "depositPaidAt", paid_at as "paidAt",
      customer_id as "customerId"
    from public.deals where token = ${token}`;
  if (!deal) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  return deal;
}

const intentSchema = z.object({
  dealToken: z.string().regex(/^[a-f0-9]{32,128}$/, DEAL_MESSAGES.unavailable),
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

/** POST /api/payment/intent: only the deal's customer; the amount is the server's (spec 000 §7). */
export async function createPaymentIntent(deps: Deps, actor: Actor, body: unknown): Promise<IntentResult> {
  const customer = requireCustomer(actor);
  const input = parseInput(intentSchema, body, PAYMENT_MESSAGES.intentError);
  const provider = requireProvider(deps);
  const deal = await transactionAs(deps.db, customer, (tx) => customerDeal(tx, input.dealToken));
  if (deal.customerId !== customer.user.id) throw new AppError("forbidden", PAYMENT_MESSAGES.customersOnly);
  const plan = planPayment({
    status: deal.status,
    settings: deal.settings,
    totalTTC: deal.totals.totalTTC ?? 0,
    depositAmount: deal.depositAmount,
    totalAmountPaid: deal.totalAmountPaid,
    depositPaidAt: deal.depositPaidAt !== null,
    paidAt: deal.paidAt !== null,
  }, input.paymentType);
  if (!plan.ok) throw new AppError("conflict", plan.error);
  const parameters = intentParameters(deal.id, plan.kind, plan.amount, customer.user.id);
  // The provider is called outside any transaction; the intent is recorded right after.
  const intent = await provider.createIntent(parameters);
  await statementAs(
    deps.db,
    PAYMENTS,
    `insert into public.payment_intents (id, provider, deal_id, customer_id, kind, amount, status, idempotency_key)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (id) do update set status = excluded.status, updated_at = now()`,
    [
      intent.id,
      provider.name,
      deal.id,
      customer.user.id,
      plan.kind,
      plan.amount,
      intent.status,
      parameters.idempotencyKey,
    ],
  );
  return {
    clientSecret: intent.clientSecret,
    paymentIntentId: intent.id,
    amount: centsToEuros(plan.amount),
    amountFormatted: formatEuros(plan.amount),
    paymentType: plan.kind === "deposit" ? "deposit" : plan.kind === "balance" ? "remaining" : "full",
    kind: plan.kind,
  };
}

export interface RecordResult {
  recorded: boolean;
  dealId: number | null;
  kind: PaymentKind | null;
}

/** Records what the provider holds for this intent (re-fetched by the caller); exactly once. */
export async function recordProviderIntent(
  deps: Deps,
  provider: string,
  intent: ProviderIntent,
): Promise<RecordResult> {
  const [row] = await statementAs<{ recorded: boolean; deal_id: number; kind: PaymentKind }>(
    deps.db,
    PAYMENTS,
    "select recorded, deal_id, kind from public.record_card_payment($1, $2, $3, $4, $5)",
    [provider, intent.id, intent.status, intent.amount, intent.currency],
  );
  if (row?.recorded) {
    await deps.logger.info("payments", "Paiement par carte enregistré", {
      dealId: row.deal_id,
      kind: row.kind,
      amount: intent.amount,
      intent: intent.id,
    });
  }
  return { recorded: row?.recorded ?? false, dealId: row?.deal_id ?? null, kind: row?.kind ?? null };
}

/** A provider's PaymentIntent id as a request may name it (Stripe's "pi_" and letters, digits,
 * underscores; hyphens tolerated). */
export const PAYMENT_INTENT_ID = /^pi_[A-Za-z0-9_-]{3,250}$/;

const confirmSchema = z.object({
  paymentIntentId: z.string().regex(PAYMENT_INTENT_ID, PAYMENT_MESSAGES.confirmError),
});

export interface ConfirmResult {
  paymentType: PaymentType;
  /** The PaymentIntent's status at the provider (succeeded, processing…). */
  paymentStatus: string;
  message: string;
}

/** POST /api/payment/confirm: after the provider told the browser it succeeded, the server asks the
 * provider itself and records the payment (exactly once, also if the webhook came first). */
export async function confirmPayment(deps: Deps, actor: Actor, body: unknown): Promise<ConfirmResult> {
  const customer = requireCustomer(actor);
  const { paymentIntentId } = parseInput(confirmSchema, body, PAYMENT_MESSAGES.confirmError);
  const provider = requireProvider(deps);
  const [own] = await statementAs<{ kind: PaymentKind }>(
    deps.db,
    PAYMENTS,
    "select kind from public.payment_intents where id = $1 and customer_id = $2 and provider = $3",
    [paymentIntentId, customer.user.id, provider.name],
  );
  if (!own) throw new AppError("not_found", PAYMENT_MESSAGES.confirmError);
  const intent = await provider.retrieveIntent(paymentIntentId);
  await recordProviderIntent(deps, provider.name, intent);
  const paymentType: PaymentType = own.kind === "deposit"
    ? "deposit"
    : own.kind === "balance"
    ? "remaining"
    : "full";
  const message = intent.status === "succeeded"
    ? (own.kind === "deposit" ? PAYMENT_MESSAGES.depositPaid : PAYMENT_MESSAGES.fullPaid)
    : intent.status === "processing"
    ? PAYMENT_MESSAGES.processing
    : PAYMENT_MESSAGES.requiresPaymentMethod;
  return { paymentType, paymentStatus: intent.status, message };
}

const simulatedSchema = z.object({
  paymentIntentId: z.string().regex(/^pi_sim_[A-Za-z0-9_-]{3,100}$/, PAYMENT_MESSAGES.confirmError),
  cardNumber: z.string().max(30),
});

/** The simulated provider's card form (what Stripe.js does with the card in the browser). */
export async function confirmSimulatedCard(
  deps: Deps,
  actor: Actor,
  body: unknown,
): Promise<{ status: string }> {
  const customer = requireCustomer(actor);
  if (deps.payments?.name !== "simulated" || deps.config.appEnv === "production") {
    throw new AppError("not_found");
  }
  const { paymentIntentId, cardNumber } = parseInput(simulatedSchema, body, PAYMENT_MESSAGES.confirmError);
  const [own] = await statementAs(
    deps.db,
    PAYMENTS,
    "select 1 from public.payment_intents where id = $1 and customer_id = $2",
    [paymentIntentId, customer.user.id],
  );
  if (!own) throw new AppError("not_found", PAYMENT_MESSAGES.confirmError);
  try {
    const intent = await (deps.payments as SimulatedProvider).confirm(paymentIntentId, cardNumber);
    return { status: intent.status };
  } catch (error) {
    if (error instanceof ProviderError) {
      throw new AppError("validation", error.message, { card: error.message });
    }
    throw error;
  }
}

/** The reconciliation job: succeeded intents of the last days that a lost webhook (and a missing
 * confirm call) left unrecorded are recorded now. Returns how many it recorded. */
export async function reconcilePayments(deps: Deps, days = 3): Promise<number> {
  if (!deps.payments) return 0;
  const since = new Date(Date.now() - days * 24 * 3600 * 1000);
  let recorded = 0;
  for (const intent of await deps.payments.listSucceededSince(since)) {
    if ((await recordProviderIntent(deps, deps.payments.name, intent)).recorded) recorded++;
  }
  // Intents still open here whose state the provider may have changed (processing → succeeded…).
  const open = await statementAs<{ id: string }>(
    deps.db,
    PAYMENTS,
    `select id from public.payment_intents where provider = $1 and status not in ('succeeded', 'canceled')
       and created_at >= $2 order by created_at limit 200`,
    [deps.payments.name, since],
  );
  for (const { id } of open) {
    try {
      if (
        (await recordProviderIntent(deps, deps.payments.name, await deps.payments.retrieveIntent(id)))
          .recorded
      ) {
        recorded++;
      }
    } catch (error) {
      await deps.logger.warning("payments", "Rapprochement impossible pour un paiement", {
        intent: id,
        error: String(error),
      });
    }
  }
  if (recorded) {
    await deps.logger.warning("payments", "Paiements rattrapés par le rapprochement", { recorded });
  }
  return recorded;
}

// ---------------------------------------------------------------------------------------------------
// Manual payments and refunds (admins).

const manualSchema = z.object({
  kind: z.enum(["deposit", "balance", "total"], { error: "Type de paiement inconnu." }),
  amount: z.unknown(),
});

/** 'Marquer l'acompte payé', 'Marquer le solde payé', 'Marquer le paiement intégral' (spec 001 §4). */
export async function recordManualPayment(
  deps: Deps,
  actor: Actor,
  dealId: number,
  body: unknown,
): Promise<{ status: DealStatus; message: string }> {
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  if (actor.user.type !== "Admin") throw new AppError("forbidden", DEAL_MESSAGES.notAllowed);
  const { kind, amount: sent } = parseInput(manualSchema, body, DEAL_MESSAGES.amountPositive);
  const amount = eurosToCents(sent);
  if (amount === null || amount <= 0 || amount > 100_000_000) {
    throw new AppError("validation", DEAL_MESSAGES.amountPositive, { amount: DEAL_MESSAGES.amountPositive });
  }
  const status = await transactionAs(deps.db, PAYMENTS, async (tx) => {
    const [deal] = await tx<{ status: DealStatus; locked: boolean; due: number }>`
      select status, coalesce((admin_settings ->> 'disableQuoteEdits')::boolean, false) as locked,
        coalesce((totals ->> 'totalTTC')::bigint, 0)
          - (select coalesce(sum(p.amount), 0) from public.deal_payments p where p.deal_id = d.id)::bigint as due
      from public.deals d where d.id = ${dealId} for update`;
    if (!deal) throw new AppError("not_found", DEAL_MESSAGES.notFound);
    // Never more than what the quote still asks: a typing slip would otherwise mark a deal overpaid.
    if (amount > deal.due) {
      const message = PAYMENT_MESSAGES.moreThanDue(formatEuros(Math.max(0, deal.due)));
      throw new AppError("validation", message, { amount: message });
    }
    // The admin is checked in the database too, not only from the session.
    const [admin] =
      await tx`select 1 from public.users where id = ${actor.user.id} and type = 'Admin' and anonymized_at is null`;
    if (!admin || actor.impersonatorId) throw new AppError("forbidden", DEAL_MESSAGES.notAllowed);
    const action = kind === "deposit" ? "pay_deposit" : kind === "balance" ? "pay_balance" : "pay_total";
    const moved = transition(action, { from: deal.status, role: "Admin", locked: deal.locked });
    if (!moved.ok) throw new AppError("conflict", moved.error);
    await tx`select * from public.record_payment(${dealId}, ${kind}, ${amount}, 'manual', null, null, ${actor.user.id})`;
    return moved.to;
  });
  await deps.logger.info("payments", "Paiement enregistré à la main", {
    dealId,
    adminId: actor.user.id,
    kind,
    amount,
  });
  return { status, message: statusChanged(STATUS_LABELS[status]) };
}

const refundSchema = z.object({
  paymentId: z.string().uuid("Paiement introuvable."),
  amount: z.unknown(),
  reason: z.string().max(500).optional(),
});

export { REFUND_MESSAGES };

/** An admin refunds a payment, fully or partly. A card payment is refunded through its provider by
 * the refunds job (never inside this transaction); a manual one is recorded at once. The credit note
 * follows from the billing job. */
export async function requestRefund(
  deps: Deps,
  actor: Actor,
  dealId: number,
  body: unknown,
): Promise<{ message: string }> {
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  if (actor.user.type !== "Admin" || actor.impersonatorId) {
    throw new AppError("forbidden", DEAL_MESSAGES.notAllowed);
  }
  const input = parseInput(refundSchema, body, DEAL_MESSAGES.amountPositive);
  const amount = eurosToCents(input.amount);
  if (amount === null || amount <= 0) {
    throw new AppError("validation", DEAL_MESSAGES.amountPositive, { amount: DEAL_MESSAGES.amountPositive });
  }
  const manual = await transactionAs(deps.db, PAYMENTS, async (tx) => {
    const [admin] =
      await tx`select 1 from public.users where id = ${actor.user.id} and type = 'Admin' and anonymized_at is null`;
    if (!admin) throw new AppError("forbidden", DEAL_MESSAGES.notAllowed);
    const [payment] = await tx<{ id: string; amount: number; method: string; refunded: number }>`
      select p.id, p.amount, p.method,
        p.refunded_amount + coalesce((select sum(r.amount) from public.refunds r where r.payment_id = p.id and r.status = 'pending'), 0)::bigint as refunded
      from public.deal_payments p where p.id = ${input.paymentId} and p.deal_id = ${dealId} for update`;
    if (!payment) throw new AppError("not_found", "Paiement introuvable.");
    if (payment.refunded + amount > payment.amount) {
      throw new AppError("validation", REFUND_MESSAGES.tooMuch, { amount: REFUND_MESSAGES.tooMuch });
    }
    const [refund] = await tx<{ id: string }>`
      insert into public.refunds (payment_id, amount, reason, requested_by, status, succeeded_at)
      values (${payment.id}, ${amount}, ${input.reason ?? ""}, ${actor.user.id},
              ${payment.method === "manual" ? "succeeded" : "pending"}, ${
      payment.method === "manual" ? new Date() : null
    })
      returning id`;
    if (payment.method === "manual") {
      await tx`update public.deal_payments set refunded_amount = refunded_amount + ${amount} where id = ${payment.id}`;
    }
    return refund && payment.method === "manual";
  });
  await deps.logger.info("payments", "Remboursement demandé", { dealId, adminId: actor.user.id, amount });
  return { message: manual ? REFUND_MESSAGES.recorded : REFUND_MESSAGES.requested };
}

/** The admin's requirement of the back-office payment views and refunds (not while impersonating). */
function requireRefundingAdmin(actor: Actor): UserActor {
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  if (actor.user.type !== "Admin" || actor.impersonatorId) {
    throw new AppError("forbidden", DEAL_MESSAGES.notAllowed);
  }
  return actor;
}

/** GET /api/deal/{id}/payments: the deal's payments, refunds and credit notes ('État des paiements'),
 * for admins; read as the admin (RLS decides again). */
export async function dealPaymentLedger(deps: Deps, actor: Actor, dealId: number): Promise<LedgerPayment[]> {
  const admin = requireRefundingAdmin(actor);
  return await transactionAs(deps.db, admin, async (tx) => {
    const [deal] = await tx`select 1 from public.deals where id = ${dealId}`;
    if (!deal) throw new AppError("not_found", DEAL_MESSAGES.notFound);
    return await paymentLedger(tx, dealId);
  });
}

const MAX_REFUND_ATTEMPTS = 6;

/** The refunds job: pending card refunds are sent to the provider (its idempotency key is the refund's
 * id, so a retry never refunds twice) and recorded through record_refund. */
export const refundsQueue = {
  name: "refunds",
  async drain(deps: Deps): Promise<number> {
    if (!deps.payments) return 0;
    const provider = deps.payments;
    const due = await transactionAs(
      deps.db,
      PAYMENTS,
      (tx) =>
        tx<{ id: string; amount: number; intent: string; attempts: number }>`
        update public.refunds r set attempts = r.attempts + 1, next_attempt_at = now() + interval '5 minutes'
        from (select r2.id from public.refunds r2 join public.deal_payments p on p.id = r2.payment_id
              where r2.status = 'pending' and r2.next_attempt_at <= now() and p.provider = ${provider.name}
              order by r2.next_attempt_at limit 10 for update of r2 skip locked) d
        where r.id = d.id
        returning r.id, r.amount, r.attempts,
          (select provider_payment_id from public.deal_payments where id = r.payment_id) as intent`,
    );
    for (const refund of due) {
      try {
        const result = await provider.refund({
          paymentIntentId: refund.intent,
          amount: refund.amount,
          refundId: refund.id,
        });
        await statementAs(deps.db, PAYMENTS, "select * from public.record_refund($1, $2, $3, $4, $5, $6)", [
          provider.name,
          result.id,
          refund.intent,
          refund.amount,
          result.status,
          refund.id,
        ]);
      } catch (error) {
        const permanent = error instanceof ProviderError || refund.attempts >= MAX_REFUND_ATTEMPTS;
        await statementAs(
          deps.db,
          PAYMENTS,
          `update public.refunds set last_error = $2, status = case when $3 then 'failed' else status end,
             next_attempt_at = now() + make_interval(mins => $4) where id = $1`,
          [refund.id, String(error).slice(0, 1000), permanent, 2 ** refund.attempts],
        );
        if (permanent) {
          await deps.logger.error("payments", "Remboursement impossible", {
            refundId: refund.id,
            error: String(error),
          });
        }
      }
    }
    return due.length;
  },
};

/** The simulated provider's bank: processing payments succeed after a few seconds and are reported
 * as a webhook would report them. */
export const simulatedSettlementQueue = {
  name: "simulated-settlement",
  async drain(deps: Deps): Promise<number> {
    if (deps.payments?.name !== "simulated") return 0;
    const settled = await (deps.payments as SimulatedProvider).settleProcessing();
    for (const intent of settled) await recordProviderIntent(deps, "simulated", intent);
    return settled.length;
  },
};
