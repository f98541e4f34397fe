// SQL of payments read by the back office, taking the use case's transaction: RLS decides (admins read
// every payment, refund and invoice; refunds are readable by admins only).
import type { Tx } from "../db/database.ts";
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
  }>`
    select p.id, p.kind, p.method, p.amount, p.refunded_amount as refunded, p.paid_at as "paidAt"
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
    noteId: string | null;
    noteNumber: string | null;
    commissionNoteId: string | null;
    commissionNoteNumber: string | null;
  }>`
    select r.id, r.payment_id as "paymentId", r.amount, r.status, r.reason, r.created_at as "createdAt",
      r.succeeded_at as "succeededAt", n.id as "noteId", n.number as "noteNumber",
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
      refunds: own,
    };
  });
}
