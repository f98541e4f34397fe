// Every SQL statement of the gift vouchers, each taking the use case's transaction. Amounts change only
// through the migration's functions (reserve_cart_voucher, consume_order_vouchers,
// release_order_vouchers, activate_order_voucher), which lock the voucher's row.
import type { Tx } from "../db/database.ts";
import type { VoucherStatus } from "./rules.ts";

export interface VoucherRow {
  id: string;
  buyerId: string;
  orderId: number | null;
  codeSealed: string;
  amount: number;
  remaining: number;
  recipientName: string;
  recipientEmail: string;
  message: string;
  /** YYYY-MM-DD */
  sendOn: string;
  status: VoucherStatus;
  activatedAt: Date | null;
  validUntil: Date | null;
  invoiceId: string | null;
  createdAt: Date;
  /** Bought by the reading user (false: received, or applied / redeemed by them). */
  bought: boolean;
  buyerName: string;
}

const COLUMNS = `v.id::text as id, v.buyer_id::text as "buyerId", v.order_id as "orderId",
  v.code_sealed as "codeSealed", v.amount, v.remaining, v.recipient_name as "recipientName",
  v.recipient_email as "recipientEmail", v.message, v.send_on as "sendOn", v.status,
  v.activated_at as "activatedAt", v.valid_until as "validUntil", v.invoice_id::text as "invoiceId",
  v.created_at as "createdAt", (v.buyer_id = (select auth.uid())) is true as bought,
  v.sender_name as "buyerName"`;

export interface NewVoucher {
  buyerId: string;
  orderId: number;
  codeHash: string;
  codeSealed: string;
  amount: number;
  senderName: string;
  recipientName: string;
  recipientEmail: string;
  message: string;
  sendOn: string;
}

/** As the system, after the use case's checks. */
export async function insertVoucher(tx: Tx, v: NewVoucher): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `insert into public.vouchers (buyer_id, order_id, code_hash, code_sealed, amount, remaining, sender_name,
       recipient_name, recipient_email, message, send_on)
     values ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $10) returning id::text as id`,
    [
      v.buyerId,
      v.orderId,
      v.codeHash,
      v.codeSealed,
      v.amount,
      v.senderName,
      v.recipientName,
      v.recipientEmail,
      v.message,
      v.sendOn,
    ],
  );
  return row.id;
}

/** The paid vouchers the reader may see (RLS): a customer's bought and received ones, newest first (an
 * unpaid purchase is not a voucher yet). */
export function visibleVouchers(tx: Tx): Promise<VoucherRow[]> {
  return tx.query<VoucherRow>(
    `select ${COLUMNS} from public.vouchers v
     where v.status = 'active'
     order by v.created_at desc limit 500`,
    [],
  );
}

export async function voucherById(tx: Tx, id: string): Promise<VoucherRow | null> {
  const [row] = await tx.query<VoucherRow>(`select ${COLUMNS} from public.vouchers v where v.id = $1`, [id]);
  return row ?? null;
}

/** As the system: the voucher `id` when `hash` is its code's (the recipient's PDF link). */
export async function voucherByIdAndHash(tx: Tx, id: string, hash: string): Promise<VoucherRow | null> {
  const [row] = await tx.query<VoucherRow>(
    `select ${COLUMNS} from public.vouchers v where v.id = $1 and v.code_hash = $2`,
    [id, hash],
  );
  return row ?? null;
}

export interface ApplyAnswer {
  ok: boolean;
  reason?: "unknown" | "pending" | "canceled" | "expired" | "empty";
  voucher_id?: string;
  remaining?: number;
  valid_until?: number;
}

export async function applyCartVoucher(tx: Tx, hash: string): Promise<ApplyAnswer> {
  const [row] = await tx.query<{ answer: ApplyAnswer }>(
    "select public.apply_cart_voucher($1) as answer",
    [hash],
  );
  return row.answer;
}

export async function removeCartVoucher(tx: Tx): Promise<boolean> {
  const [row] = await tx.query<{ removed: boolean }>("select public.remove_cart_voucher() as removed", []);
  return row.removed;
}

export interface CartVoucherRow {
  voucherId: string;
  remaining: number;
  validUntil: Date | null;
  status: VoucherStatus;
  codeSealed: string;
}

/** The voucher applied to the signed-in customer's cart (RLS: their own cart). */
export async function cartVoucher(tx: Tx): Promise<CartVoucherRow | null> {
  const [row] = await tx.query<CartVoucherRow>(
    `select v.id::text as "voucherId", v.remaining, v.valid_until as "validUntil", v.status,
       v.code_sealed as "codeSealed"
     from public.cart_vouchers cv
     join public.carts c on c.id = cv.cart_id
     join public.vouchers v on v.id = cv.voucher_id
     where c.user_id = (select auth.uid())`,
    [],
  );
  return row ?? null;
}

/** As the system, in the checkout's transaction: what the customer's cart voucher pays of the order
 * (reserved under the voucher's lock, written to the order's discount). */
export async function reserveCartVoucher(tx: Tx, userId: string, orderId: number): Promise<number> {
  const [row] = await tx.query<{ taken: number }>("select public.reserve_cart_voucher($1, $2) as taken", [
    userId,
    orderId,
  ]);
  return Number(row.taken);
}

/** As the system: pays an order its voucher covers whole, without a card (the checkout's
 * pay_order_without_card(): the same order_paid() dispatch). */
export async function payOrderWithVoucher(tx: Tx, orderId: number): Promise<boolean> {
  const [row] = await tx.query<{ paid: boolean }>("select public.pay_order_without_card($1) as paid", [
    orderId,
  ]);
  return row.paid;
}

/** As the system: the voucher an order buys, locked. */
export async function voucherOfOrder(tx: Tx, orderId: number): Promise<VoucherRow | null> {
  const [row] = await tx.query<VoucherRow>(
    `select ${COLUMNS} from public.vouchers v where v.order_id = $1 for update`,
    [orderId],
  );
  return row ?? null;
}

export async function setVoucherEmail(tx: Tx, id: string, emailId: string | null, invoiceId: string | null) {
  await tx.query(
    "update public.vouchers set email_id = $2, invoice_id = coalesce($3, invoice_id) where id = $1",
    [id, emailId, invoiceId],
  );
}

export interface RedemptionRow {
  voucherId: string;
  amount: number;
  status: "reserved" | "consumed" | "released";
  orderId: number;
  createdAt: Date;
}

/** A voucher's uses (RLS: its buyer, the customer who used it, admins). */
export function voucherRedemptions(tx: Tx, voucherId: string): Promise<RedemptionRow[]> {
  return tx.query<RedemptionRow>(
    `select voucher_id::text as "voucherId", amount, status, order_id as "orderId", created_at as "createdAt"
     from public.voucher_redemptions where voucher_id = $1 order by created_at`,
    [voucherId],
  );
}

/** As the system: the voucher of a paid order, locked for its activation's writes. */
export async function lockVoucher(tx: Tx, id: string): Promise<VoucherRow | null> {
  const [row] = await tx.query<VoucherRow>(
    `select ${COLUMNS} from public.vouchers v where v.id = $1 for update`,
    [
      id,
    ],
  );
  return row ?? null;
}

/** An email written to the outbox to leave at `sendAt` (the SMTP queue takes a row once its
 * next_attempt_at has come): the recipient's voucher email on the chosen day. */
export async function enqueueEmailAt(
  tx: Tx,
  email: { to: string; template: string; subject: string; text: string; html?: string; sealed?: string },
  sendAt: Date,
): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `insert into public.email_outbox (recipient, template, subject, text_body, html_body, next_attempt_at, sealed_body)
     values ($1, $2, $3, $4, $5, greatest(now(), $6), $7) returning id::text as id`,
    [email.to, email.template, email.subject, email.text, email.html ?? null, sendAt, email.sealed ?? null],
  );
  return row.id;
}

/** As the system after the use case's check: a voucher invoice's document by its id. */
export async function invoiceDocument(tx: Tx, id: string): Promise<Record<string, unknown> | null> {
  const [row] = await tx.query<{ document: Record<string, unknown> }>(
    "select document from public.invoices where id = $1 and kind = 'voucher'",
    [id],
  );
  return row?.document ?? null;
}

/** As the system: the voucher invoice issued for an order. */
export async function orderVoucherInvoiceId(tx: Tx, orderId: number): Promise<string | null> {
  const [row] = await tx.query<{ id: string }>(
    "select id::text as id from public.invoices where order_id = $1 and kind = 'voucher' order by issued_at limit 1",
    [orderId],
  );
  return row?.id ?? null;
}

/** As the system: the voucher order (kind 'voucher') and its one line, per the checkout's contract. The
 * line carries no VAT: a multi-purpose voucher's sale is outside VAT's scope. */
export async function insertVoucherOrder(
  tx: Tx,
  userId: string,
  amount: number,
  label: string,
): Promise<number> {
  const [order] = await tx.query<{ id: number }>(
    "insert into public.orders (kind, user_id, total_amount) values ('voucher', $1, $2) returning id",
    [userId, amount],
  );
  await tx.query(
    `insert into public.order_lines (order_id, label, quantity, unit_amount, amount, vat_rate)
     values ($1, $2, 1, $3, $3, 0)`,
    [order.id, label, amount],
  );
  return Number(order.id);
}

/** Whether an order buys a voucher (the confirm call's words differ from a workshop's). */
export async function isVoucherOrder(tx: Tx, orderId: number): Promise<boolean> {
  const [row] = await tx.query<{ kind: string }>("select kind from public.orders where id = $1", [orderId]);
  return row?.kind === "voucher";
}
