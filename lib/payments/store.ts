// SQL of payments, taking the use case's transaction (or, for a single statement, lib/actor.ts
// statementTx). As the user, RLS decides (admins read every payment, refund and invoice; refunds are
// readable by admins only); as the system ("payments"), payments are recorded only through
// record_payment() / record_card_payment(), after the use case's checks.
import type { Tx } from "../db/database.ts";
import type { DealStatus } from "../deals/rules.ts";
import type { LedgerPayment, LedgerRefund, PaymentKind, PaymentMethod, RefundStatus } from "./rules.ts";

const unix = (date: Date) => Math.floor(date.getTime() / 1000);

/** The deal's payments, oldest first, each with its refunds and their credit notes (cents, unix
 * seconds). Two statements on the deal's rows only. */
export async function paymentLedger(tx: Tx, dealId: number): Promise<LedgerPayment[]> {
  const payments = await tx<{
    id: string;
    kind: PaymentKind;
    method: PaymentMethod;
    amount: number;
    refunded: number;
    paidAt: Date;
    overpayment: boolean;
  }>`
    select p.id, p.kind, p.method, p.amount, p.refunded_amount as refunded, p.paid_at as "paidAt", p.overpayment
    from public.deal_payments p where p.deal_id = ${dealId} order by p.paid_at, p.created_at`;
  if (payments.length === 0) return [];
  const refunds = await tx<{
    id: string;
    paymentId: string;
    amount: number;
    status: RefundStatus;
    reason: string;
    createdAt: Date;
    succeededAt: Date | null;
    automatic: boolean;
    noteId: string | null;
    noteNumber: string | null;
    commissionNoteId: string | null;
    commissionNoteNumber: string | null;
  }>`
    select r.id, r.payment_id as "paymentId", r.amount, r.status, r.reason, r.created_at as "createdAt",
      r.succeeded_at as "succeededAt", r.automatic, n.id as "noteId", n.number as "noteNumber",
      ca.id as "commissionNoteId", ca.number as "commissionNoteNumber"
    from public.refunds r join public.deal_payments p on p.id = r.payment_id
    left join public.invoices n on n.refund_id = r.id and n.series = 'AV'
    left join public.invoices ca on ca.refund_id = r.id and ca.series = 'CA'
    where p.deal_id = ${dealId} order by r.created_at, r.id`;
  return payments.map((p) => {
    const own: LedgerRefund[] = refunds.filter((r) => r.paymentId === p.id).map((r) => ({
      id: r.id,
      amount: Number(r.amount),
      status: r.status,
      reason: r.reason,
      requestedAt: unix(r.createdAt),
      succeededAt: r.succeededAt ? unix(r.succeededAt) : null,
      automatic: r.automatic,
      creditNote: r.noteId && r.noteNumber ? { id: r.noteId, number: r.noteNumber } : null,
      commissionCreditNote: r.commissionNoteId && r.commissionNoteNumber
        ? { id: r.commissionNoteId, number: r.commissionNoteNumber }
        : null,
    }));
    return {
      id: p.id,
      kind: p.kind,
      method: p.method,
      amount: Number(p.amount),
      refunded: Number(p.refunded),
      pending: own.filter((r) => r.status === "pending").reduce((sum, r) => sum + r.amount, 0),
      paidAt: unix(p.paidAt),
      overpayment: p.overpayment,
      refunds: own,
    };
  });
}

/** Whether the caller may read deal `dealId` (RLS). */
export async function dealExists(tx: Tx, dealId: number): Promise<boolean> {
  const [deal] = await tx`select 1 from public.deals where id = ${dealId}`;
  return !!deal;
}

// ---------------------------------------------------------------------------------------------------
// Card payments.

export interface DealForPayment {
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

/** The deal behind a token, as the caller sees it (RLS: a customer, only a deal linked to them). */
export async function findDealForPayment(tx: Tx, token: string): Promise<DealForPayment | null> {
  const [deal] = await tx<DealForPayment>`
    select id, status, name, settings, totals, deposit_amount as "depositAmount",
      total_amount_paid as "totalAmountPaid", deposit_paid_at as "depositPaidAt", paid_at as "paidAt",
      customer_id as "customerId"
    from public.deals where token = ${token}`;
  return deal ?? null;
}

export interface IntentRow {
  id: string;
  provider: string;
  dealId: number;
  customerId: string;
  kind: PaymentKind;
  amount: number;
  status: string;
  idempotencyKey: string;
}

/** Records an intent the provider created (its status refreshed when the provider answered the same
 * intent again). */
export async function saveIntent(tx: Tx, intent: IntentRow): Promise<void> {
  await tx.query(
    `insert into public.payment_intents (id, provider, deal_id, customer_id, kind, amount, status, idempotency_key)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (id) do update set status = excluded.status, updated_at = now()`,
    [
      intent.id,
      intent.provider,
      intent.dealId,
      intent.customerId,
      intent.kind,
      intent.amount,
      intent.status,
      intent.idempotencyKey,
    ],
  );
}

/** The deal locked for recording a new intent: what it has paid, as the recorder counts it. */
export async function lockDealForIntent(tx: Tx, dealId: number): Promise<DealForPayment | null> {
  const [deal] = await tx<DealForPayment>`
    select id, status, name, settings, totals, deposit_amount as "depositAmount",
      total_amount_paid as "totalAmountPaid", deposit_paid_at as "depositPaidAt", paid_at as "paidAt",
      customer_id as "customerId"
    from public.deals where id = ${dealId} for update`;
  return deal ?? null;
}

/** Marks the deal's other open intents superseded and enqueues their cancel at the provider (outbox
 * 'payment-intent-cancel'), in the caller's transaction. `keep` stays open; null supersedes all. */
export async function supersedeOpenIntents(tx: Tx, dealId: number, keep: string | null): Promise<number> {
  const [row] = await tx<{ n: number }>`select public.supersede_open_intents(${dealId}, ${keep}) as n`;
  return Number(row?.n ?? 0);
}

/** How many of the deal's intents for this very payment (kind and amount) were superseded: part of the
 * next intent's idempotency key, so that a superseded (canceled) intent is never handed out again, while
 * asking twice for the same open payment still gives the same intent. */
export async function supersededIntentCount(
  tx: Tx,
  dealId: number,
  kind: PaymentKind,
  amount: number,
): Promise<number> {
  const [row] = await tx<{ n: number }>`
    select count(*)::int as n from public.payment_intents
    where deal_id = ${dealId} and kind = ${kind} and amount = ${amount} and superseded_at is not null`;
  return Number(row?.n ?? 0);
}

/** The intent's provider and status, to cancel it (the outbox job). */
export async function intentForCancel(
  tx: Tx,
  intentId: string,
): Promise<{ provider: string; status: string; superseded: boolean } | null> {
  const [row] = await tx<{ provider: string; status: string; superseded: boolean }>`
    select provider, status, superseded_at is not null as superseded from public.payment_intents where id = ${intentId}`;
  return row ?? null;
}

/** The kind of a customer's own intent at `provider`, or null. */
export async function ownIntentKind(
  tx: Tx,
  intentId: string,
  customerId: string,
  provider: string,
): Promise<PaymentKind | null> {
  const [own] = await tx.query<{ kind: PaymentKind }>(
    "select kind from public.payment_intents where id = $1 and customer_id = $2 and provider = $3",
    [intentId, customerId, provider],
  );
  return own?.kind ?? null;
}

/** Whether the intent is the customer's own (any provider). */
export async function ownsIntent(tx: Tx, intentId: string, customerId: string): Promise<boolean> {
  const [own] = await tx.query(
    "select 1 from public.payment_intents where id = $1 and customer_id = $2",
    [intentId, customerId],
  );
  return !!own;
}

/** record_card_payment(): the intent as the provider holds it, recorded once when it succeeded (a deal's
 * or an order's: `order_id` is set for an order's). */
export async function recordCardPayment(
  tx: Tx,
  provider: string,
  intent: { id: string; status: string; amount: number; currency: string },
): Promise<
  {
    recorded: boolean;
    deal_id: number | null;
    kind: PaymentKind;
    overpayment: boolean;
    order_id: number | null;
  } | null
> {
  const [row] = await tx.query<
    {
      recorded: boolean;
      deal_id: number | null;
      kind: PaymentKind;
      overpayment: boolean;
      order_id: number | null;
    }
  >(
    "select recorded, deal_id, kind, overpayment, order_id from public.record_card_payment($1, $2, $3, $4, $5)",
    [provider, intent.id, intent.status, intent.amount, intent.currency],
  );
  return row ? { ...row, order_id: row.order_id === null ? null : Number(row.order_id) } : null;
}

/** The provider's intents still open here, created since `since` (200 at most, oldest first). */
export async function openIntentIds(tx: Tx, provider: string, since: Date): Promise<string[]> {
  const open = await tx.query<{ id: string }>(
    `select id from public.payment_intents where provider = $1 and status not in ('succeeded', 'canceled')
       and created_at >= $2 order by created_at limit 200`,
    [provider, since],
  );
  return open.map((o) => o.id);
}

// ---------------------------------------------------------------------------------------------------
// Manual payments and refunds (admins; run as the system after the use case's checks).

/** Whether `userId` is an active admin, checked in the database, not only from the session. */
export async function isActiveAdminUser(tx: Tx, userId: string): Promise<boolean> {
  const [admin] =
    await tx`select 1 from public.users where id = ${userId} and type = 'Admin' and anonymized_at is null`;
  return !!admin;
}

/** The deal locked for a manual payment: its status, the admin's lock, and what the quote still asks. */
export async function lockDealForManualPayment(
  tx: Tx,
  dealId: number,
): Promise<{ status: DealStatus; locked: boolean; due: number; depositPaid: boolean; paid: boolean } | null> {
  const [deal] = await tx<{ status: DealStatus; locked: boolean; depositPaid: boolean; paid: boolean }>`
    select status, coalesce((admin_settings ->> 'disableQuoteEdits')::boolean, false) as locked,
      deposit_paid_at is not null as "depositPaid", paid_at is not null as paid
    from public.deals d where d.id = ${dealId} for update`;
  if (!deal) return null;
  // After the lock: the payments committed while this transaction waited count.
  const [due] = await tx<{ due: number }>`select public.deal_amount_due(${dealId}) as due`;
  return { ...deal, due: Number(due.due) };
}

/** record_payment() of a manual payment: recorded, the deal's amounts and status moved, in the
 * caller's transaction. */
export async function insertManualPayment(
  tx: Tx,
  payment: { dealId: number; kind: PaymentKind; amount: number; adminId: string },
): Promise<void> {
  await tx`select * from public.record_payment(${payment.dealId}, ${payment.kind}, ${payment.amount}, 'manual', null, null, ${payment.adminId})`;
}

export interface RefundablePayment {
  id: string;
  amount: number;
  method: string;
  /** Refunded so far plus the refunds still pending. */
  refunded: number;
}

/** The deal's payment, locked, with what is already refunded or on its way: two statements, so that
 * the pending refunds are read after the lock (READ COMMITTED gives each statement a new snapshot;
 * one statement would count the refunds of its own snapshot, from before the wait). */
export async function lockPaymentForRefund(
  tx: Tx,
  paymentId: string,
  dealId: number,
): Promise<RefundablePayment | null> {
  const [payment] = await tx<{ id: string; amount: number; method: string; refunded: number }>`
    select p.id, p.amount, p.method, p.refunded_amount as refunded
    from public.deal_payments p where p.id = ${paymentId} and p.deal_id = ${dealId} for update`;
  if (!payment) return null;
  const [pending] = await tx<{ pending: number }>`
    select coalesce(sum(r.amount), 0)::bigint as pending from public.refunds r
    where r.payment_id = ${paymentId} and r.status = 'pending'`;
  return {
    id: payment.id,
    amount: Number(payment.amount),
    method: payment.method,
    refunded: Number(payment.refunded) + Number(pending.pending),
  };
}

/** A refund row: a manual payment's is succeeded at once (and counted on the payment), a card
 * payment's pending until the refunds queue has the provider's answer. */
export async function insertRefund(
  tx: Tx,
  refund: { paymentId: string; amount: number; reason: string; requestedBy: string; manual: boolean },
): Promise<{ id: string } | null> {
  const [row] = await tx<{ id: string }>`
    insert into public.refunds (payment_id, amount, reason, requested_by, status, succeeded_at)
    values (${refund.paymentId}, ${refund.amount}, ${refund.reason}, ${refund.requestedBy},
            ${refund.manual ? "succeeded" : "pending"}, ${refund.manual ? new Date() : null})
    returning id`;
  if (refund.manual) {
    await tx`update public.deal_payments set refunded_amount = refunded_amount + ${refund.amount} where id = ${refund.paymentId}`;
  }
  return row ?? null;
}
