// Every SQL statement of the gift vouchers, each taking the use case's transaction. Amounts change only
// through the migration's functions (reserve_cart_voucher, consume_order_vouchers,
// release_order_vouchers, activate_order_voucher), which lock the voucher's row.
import type { Tx } from "../db/database.ts";
import type { VoucherStatus } from "./rules.ts";

export interface VoucherRow {
  id: string;
  buyerId: string;
  orderId: string | null;
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

const COLUMNS = `v.id::text as id, v.buyer_id::text as "buyerId", v.order_id::text as "orderId",
  v.code_sealed as "codeSealed", v.amount, v.remaining, v.recipient_name as "recipientName",
  v.recipient_email as "recipientEmail", v.message, v.send_on as "sendOn", v.status,
  v.activated_at as "activatedAt", v.valid_until as "validUntil", v.invoice_id::text as "invoiceId",
  v.created_at as "createdAt", (v.buyer_id = (select auth.uid())) is true as bought,
  v.sender_name as "buyerName"`;

export interface NewVoucher {
  buyerId: string;
  orderId: string | null;
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

/** The vouchers the reader may see (RLS): a customer's bought and received ones, newest first. */
export function visibleVouchers(tx: Tx): Promise<VoucherRow[]> {
  return tx.query<VoucherRow>(
    `select ${COLUMNS} from public.vouchers v
     where v.status <> 'canceled' or v.buyer_id = (select auth.uid())
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

/** As the system, in the order-paid transaction: activates the order's voucher (once). */
export async function activateOrderVoucher(tx: Tx, orderId: string): Promise<string | null> {
  const [row] = await tx.query<{ id: string | null }>(
    "select public.activate_order_voucher($1)::text as id",
    [orderId],
  );
  return row.id;
}

export async function setVoucherEmail(tx: Tx, id: string, emailId: string, invoiceId: string | null) {
  await tx.query(
    "update public.vouchers set email_id = $2, invoice_id = coalesce($3, invoice_id) where id = $1",
    [id, emailId, invoiceId],
  );
}

export interface RedemptionRow {
  voucherId: string;
  amount: number;
  status: "reserved" | "consumed" | "released";
  orderId: string;
  createdAt: Date;
}

/** A voucher's uses (RLS: its buyer, the customer who used it, admins). */
export function voucherRedemptions(tx: Tx, voucherId: string): Promise<RedemptionRow[]> {
  return tx.query<RedemptionRow>(
    `select voucher_id::text as "voucherId", amount, status, order_id::text as "orderId", created_at as "createdAt"
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

/** The voucher's invoice, in the platform's FA series (no deal: deal_id is null). */
export async function insertVoucherInvoice(
  tx: Tx,
  invoice: { year: number; sequence: number; number: string; document: BillingDocumentJson; total: number },
): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `insert into public.invoices (series, issuer, year, sequence, number, kind, deal_id, total_ht, total_vat,
       total_ttc, document)
     values ('FA', 'platform', $1, $2, $3, 'voucher', null, $4, 0, $4, $5::jsonb) returning id::text as id`,
    [invoice.year, invoice.sequence, invoice.number, invoice.total, JSON.stringify(invoice.document)],
  );
  return row.id;
}

type BillingDocumentJson = Record<string, unknown> | object;

/** An email written to the outbox to leave at `sendAt` (the SMTP queue takes a row once its
 * next_attempt_at has come): the recipient's voucher email on the chosen day. */
export async function enqueueEmailAt(
  tx: Tx,
  email: { to: string; template: string; subject: string; text: string; html?: string },
  sendAt: Date,
): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `insert into public.email_outbox (recipient, template, subject, text_body, html_body, next_attempt_at)
     values ($1, $2, $3, $4, $5, greatest(now(), $6)) returning id::text as id`,
    [email.to, email.template, email.subject, email.text, email.html ?? null, sendAt],
  );
  return row.id;
}

/** As the system after the use case's check: an issued invoice's document by its id. */
export async function invoiceDocument(tx: Tx, id: string): Promise<Record<string, unknown> | null> {
  const [row] = await tx.query<{ document: Record<string, unknown> }>(
    "select document from public.invoices where id = $1 and kind = 'voucher'",
    [id],
  );
  return row?.document ?? null;
}
