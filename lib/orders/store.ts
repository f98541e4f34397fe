// SQL of orders, each taking the use case's transaction. Orders, their registrations and their
// payments are written only by the migration's functions (create_cart_order, record_order_payment,
// order_paid, cancel_registration), called as the system after the use case's checks.
import type { Tx } from "../db/database.ts";
import type { AdditionalCost } from "../sessions/rules.ts";
import type { BillingDocument, DocumentLine } from "../billing/document.ts";
import type { OrderKind, OrderStatus } from "./rules.ts";

export interface CheckoutLineRow {
  lineId: string | null;
  dateId: number;
  quantity: number;
  dtstart: Date;
  state: string;
  priceTTC: number;
  travelCostTTC: number;
  additionalCosts: AdditionalCost[];
  sessionTitle: string;
  sessionCity: string;
  expiredLines: number;
}

/** The customer's cart locked (cart row, then its dates in id order), expired holds given back, and its
 * live lines; a single row with a null lineId when every line had expired. */
export function lockCartForCheckout(tx: Tx, userId: string): Promise<CheckoutLineRow[]> {
  return tx<CheckoutLineRow>`
    select line_id::text as "lineId", date_id as "dateId", quantity, dtstart, state, price_ttc as "priceTTC",
      travel_cost_ttc as "travelCostTTC", additional_costs as "additionalCosts", session_title as "sessionTitle",
      session_city as "sessionCity", expired_lines as "expiredLines"
    from public.lock_cart_for_checkout(${userId}::uuid)`;
}

export async function createCartOrder(
  tx: Tx,
  userId: string,
  lines: { lineId: string; label: string; unitAmount: number; amount: number; detail: unknown[] }[],
  holdMinutes: number,
): Promise<number> {
  const [row] = await tx<{ id: number }>`
    select public.create_cart_order(${userId}::uuid, ${JSON.stringify(lines)}::jsonb, ${holdMinutes}) as id`;
  return Number(row.id);
}

export interface OrderRow {
  id: number;
  kind: OrderKind;
  userId: string;
  status: OrderStatus;
  totalAmount: number;
  discountAmount: number;
  due: number;
  createdAt: Date;
  paidAt: Date | null;
}

const ORDER_COLUMNS = `o.id, o.kind, o.user_id::text as "userId", o.status, o.total_amount as "totalAmount",
  o.discount_amount as "discountAmount", greatest(0, o.total_amount - o.discount_amount) as due,
  o.created_at as "createdAt", o.paid_at as "paidAt"`;

export async function findOrder(tx: Tx, id: number, lock = false): Promise<OrderRow | null> {
  const [row] = await tx.query<OrderRow>(
    `select ${ORDER_COLUMNS} from public.orders o where o.id = $1${lock ? " for update" : ""}`,
    [id],
  );
  return row
    ? {
      ...row,
      totalAmount: Number(row.totalAmount),
      discountAmount: Number(row.discountAmount),
      due: Number(row.due),
    }
    : null;
}

/** How many of the order's intents were superseded (part of the next intent's idempotency key). */
export async function supersededOrderIntents(tx: Tx, orderId: number): Promise<number> {
  const [row] = await tx<{ n: number }>`
    select count(*)::int as n from public.payment_intents where order_id = ${orderId} and superseded_at is not null`;
  return Number(row?.n ?? 0);
}

export async function saveOrderIntent(
  tx: Tx,
  intent: {
    id: string;
    provider: string;
    orderId: number;
    customerId: string;
    amount: number;
    status: string;
    idempotencyKey: string;
  },
): Promise<void> {
  await tx.query(
    `insert into public.payment_intents (id, provider, order_id, customer_id, kind, amount, status, idempotency_key)
     values ($1, $2, $3, $4, 'total', $5, $6, $7)
     on conflict (id) do update set status = excluded.status, updated_at = now()`,
    [
      intent.id,
      intent.provider,
      intent.orderId,
      intent.customerId,
      intent.amount,
      intent.status,
      intent.idempotencyKey,
    ],
  );
}

export async function supersedeOrderIntents(tx: Tx, orderId: number, keep: string | null): Promise<number> {
  const [row] = await tx<{ n: number }>`select public.supersede_order_intents(${orderId}, ${keep}) as n`;
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------------
// Settling: what an order's documents and emails are made of.

export interface OrderPaymentRow {
  id: string;
  amount: number;
  overpayment: boolean;
  paidAt: Date;
  notifiedAt: Date | null;
}

export async function orderPayments(tx: Tx, orderId: number): Promise<OrderPaymentRow[]> {
  const rows = await tx<OrderPaymentRow>`
    select id::text, amount, overpayment, paid_at as "paidAt", notified_at as "notifiedAt"
    from public.deal_payments where order_id = ${orderId} order by paid_at, created_at`;
  return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
}

export interface OrderRefundRow {
  id: string;
  paymentId: string;
  amount: number;
  reason: string;
}

export async function orderSucceededRefunds(tx: Tx, orderId: number): Promise<OrderRefundRow[]> {
  const rows = await tx<OrderRefundRow>`
    select r.id::text, r.payment_id::text as "paymentId", r.amount, r.reason
    from public.refunds r join public.deal_payments p on p.id = r.payment_id
    where p.order_id = ${orderId} and r.status = 'succeeded' and r.reversed_at is null
    order by r.succeeded_at, r.id`;
  return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
}

export interface OrderDocumentRow {
  id: string;
  series: string;
  kind: string;
  number: string;
  paymentId: string | null;
  refundId: string | null;
  registrationId: string | null;
  document: BillingDocument;
}

const DOCUMENT_COLUMNS = `id::text, series, kind, number, payment_id::text as "paymentId",
  refund_id::text as "refundId", registration_id::text as "registrationId", document`;

export function orderDocuments(tx: Tx, orderId: number): Promise<OrderDocumentRow[]> {
  return tx.query<OrderDocumentRow>(
    `select ${DOCUMENT_COLUMNS} from public.invoices where order_id = $1 order by issued_at, number`,
    [orderId],
  );
}

export interface OrderLineRow {
  label: string;
  quantity: number;
  unitAmount: number;
  amount: number;
  vatRate: number;
  detail: Omit<DocumentLine, "totalHT">[];
  dtstart: Date | null;
  city: string | null;
  registrationId: string | null;
}

export async function orderLines(tx: Tx, orderId: number): Promise<OrderLineRow[]> {
  const rows = await tx<OrderLineRow>`
    select l.label, l.quantity, l.unit_amount as "unitAmount", l.amount, l.vat_rate::float8 as "vatRate",
      l.detail, d.dtstart, s.city, l.registration_id::text as "registrationId"
    from public.order_lines l
    left join public.registrations g on g.id = l.registration_id
    left join public.session_dates d on d.id = g.date_id
    left join public.workshop_sessions s on s.id = d.session_id
    where l.order_id = ${orderId} order by l.id`;
  return rows.map((r) => ({
    ...r,
    unitAmount: Number(r.unitAmount),
    amount: Number(r.amount),
    vatRate: Number(r.vatRate),
  }));
}

/** An order's canceled paid registrations: their price, and what their cancellation refunded to the
 * card (the refund, once it succeeded) and gave back to vouchers. */
export interface CanceledRegistrationRow {
  id: string;
  price: number;
  refundId: string | null;
  refundStatus: string | null;
  card: number;
  voucher: number;
  reason: string;
}

export async function canceledRegistrations(tx: Tx, orderId: number): Promise<CanceledRegistrationRow[]> {
  const rows = await tx<CanceledRegistrationRow>`
    select g.id::text, g.amount as price, g.cancel_refund_id::text as "refundId", case when r.reversed_at is null then r.status else 'reversed' end as "refundStatus",
      coalesce(r.amount, 0) as card, g.voucher_returned as voucher, coalesce(r.reason, '') as reason
    from public.registrations g left join public.refunds r on r.id = g.cancel_refund_id
    where g.order_id = ${orderId} and g.status = 'canceled'
      and (g.cancel_refund_id is not null or g.voucher_returned > 0)
    order by g.updated_at, g.id`;
  return rows.map((r) => ({
    ...r,
    price: Number(r.price),
    card: Number(r.card),
    voucher: Number(r.voucher),
  }));
}

export async function insertOrderDocument(
  tx: Tx,
  row: {
    series: string;
    year: number;
    sequence: number;
    number: string;
    kind: string;
    orderId: number;
    paymentId: string | null;
    refundId: string | null;
    relatedId: string | null;
    registrationId?: string | null;
    document: BillingDocument;
  },
): Promise<OrderDocumentRow> {
  const doc = row.document;
  const [created] = await tx.query<OrderDocumentRow>(
    `insert into public.invoices (series, issuer, year, sequence, number, kind, order_id, payment_id, refund_id,
       related_invoice_id, total_ht, total_vat, total_ttc, document, registration_id)
     values ($1, 'platform', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14::uuid)
     returning ${DOCUMENT_COLUMNS}`,
    [
      row.series,
      row.year,
      row.sequence,
      row.number,
      row.kind,
      row.orderId,
      row.paymentId,
      row.refundId,
      row.relatedId,
      doc.totalHT,
      doc.totalVAT,
      doc.totalTTC,
      JSON.stringify(doc),
      row.registrationId ?? null,
    ],
  );
  return created;
}

export async function markPaymentNotified(tx: Tx, paymentId: string): Promise<void> {
  await tx`update public.deal_payments set notified_at = now() where id = ${paymentId}::uuid`;
}

export interface OrderCustomerRow {
  email: string;
  firstname: string;
}

export async function orderCustomer(tx: Tx, userId: string): Promise<OrderCustomerRow | null> {
  const [row] = await tx<OrderCustomerRow>`
    select email, firstname from public.users where id = ${userId}::uuid`;
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------------
// A registration's documents, as the caller may read them (RLS: its customer, admins).

export async function registrationDocument(
  tx: Tx,
  registrationId: string,
  series: "FA" | "RE" | "AV",
): Promise<{ status: string; document: BillingDocument | null } | null> {
  // Credit notes are per refund, not per registration: of an order's credit notes, the one for this
  // registration's amount comes first (an order with several canceled dates has several).
  const [row] = await tx<{ status: string; document: BillingDocument | null }>`
    select g.status,
      (select i.document from public.invoices i left join public.deal_payments p on p.id = i.payment_id
       where i.order_id = g.order_id and i.series = ${series} and coalesce(not p.overpayment, true)
       order by (i.registration_id = g.id) desc nulls last, (${series} = 'AV' and abs(i.total_ttc) = g.amount) desc,
         i.issued_at desc limit 1) as document
    from public.registrations g where g.id = ${registrationId}::uuid`;
  return row ?? null;
}

/** cancel_registration(): {ok, refundId, refunded, wasStatus} or {ok: false, reason}. */
export async function cancelRegistrationRow(
  tx: Tx,
  registrationId: string,
  reason: string,
  by: string | null,
): Promise<
  {
    ok: boolean;
    reason?: string;
    refundId?: string | null;
    refunded?: number;
    wasStatus?: string;
    voucherReturned?: number;
    voucherValidUntil?: number | null;
  }
> {
  const [row] = await tx<
    {
      result: {
        ok: boolean;
        reason?: string;
        refundId?: string | null;
        refunded?: number;
        wasStatus?: string;
        voucherReturned?: number;
        voucherValidUntil?: number | null;
      };
    }
  >`
    select public.cancel_registration(${registrationId}::uuid, ${reason}, ${by}::uuid) as result`;
  return row.result;
}

// ---------------------------------------------------------------------------------------------------
// The admin's view of a date's orders: payments, refunds and documents (RLS: admins read them all).

export interface DateOrderLedger {
  orderId: number;
  status: OrderStatus;
  customer: string | null;
  total: number;
  discount: number;
  payments: { id: string; amount: number; refunded: number; overpayment: boolean; paidAt: Date }[];
  documents: { id: string; series: string; kind: string; number: string }[];
}

export async function orderLedgerOfDate(tx: Tx, dateId: number): Promise<DateOrderLedger[]> {
  const rows = await tx<DateOrderLedger>`
    select o.id as "orderId", o.status, (select u.email from public.users u where u.id = o.user_id) as customer,
      o.total_amount as total, o.discount_amount as discount,
      coalesce((select jsonb_agg(jsonb_build_object('id', p.id, 'amount', p.amount, 'refunded', p.refunded_amount,
                 'overpayment', p.overpayment, 'paidAt', p.paid_at) order by p.paid_at)
                from public.deal_payments p where p.order_id = o.id), '[]') as payments,
      coalesce((select jsonb_agg(jsonb_build_object('id', i.id, 'series', i.series, 'kind', i.kind, 'number', i.number)
                 order by i.issued_at, i.number)
                from public.invoices i where i.order_id = o.id), '[]') as documents
    from public.orders o
    where o.id in (select g.order_id from public.registrations g where g.date_id = ${dateId})
      and (o.status = 'paid' or exists (select from public.deal_payments p where p.order_id = o.id))
    order by o.id`;
  return rows.map((r) => ({
    ...r,
    orderId: Number(r.orderId),
    total: Number(r.total),
    discount: Number(r.discount),
    payments: r.payments.map((p) => ({
      ...p,
      amount: Number(p.amount),
      refunded: Number(p.refunded),
      paidAt: new Date(p.paidAt),
    })),
  }));
}

/** A customer's own registration and its order, the order locked (the payment recorder locks it first
 * too, so a payment and a release run one after the other). Null when it is not theirs or has no order. */
export async function lockOwnRegistrationOrder(
  tx: Tx,
  registrationId: string,
  userId: string,
): Promise<{ status: string; orderStatus: string } | null> {
  const [row] = await tx<{ status: string; orderStatus: string }>`
    select g.status, o.status as "orderStatus"
    from public.registrations g join public.orders o on o.id = g.order_id
    where g.id = ${registrationId}::uuid and g.user_id = ${userId}::uuid
    for update of o`;
  return row ?? null;
}
