// GET /api/customer/discounts (spec 000 §7, `results`) and the page 'Vos bons cadeaux' (§2): the
// vouchers a customer bought and those they received (sent to their account's email, once the send date
// has come) or used. RLS decides which; the codes are opened for display (codes.ts).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { centsToEuros } from "../../money.ts";
import { openCode } from "../codes.ts";
import {
  discountInvoicePath,
  discountPdfPath,
  formatCode,
  VOUCHER_MESSAGES,
  voucherStateKey,
  type VoucherStatus,
} from "../rules.ts";
import { visibleVouchers, type VoucherRow } from "../store.ts";

export interface VoucherView {
  id: string;
  /** XXXX-XXXX-XXXX-XXXX once paid; null before (nothing to use yet) or when it cannot be opened. */
  code: string | null;
  bought: boolean;
  buyerName: string;
  recipientName: string;
  recipientEmail: string;
  message: string;
  /** YYYY-MM-DD */
  sendOn: string;
  /** Cents. */
  amount: number;
  remaining: number;
  status: VoucherStatus;
  /** Unix seconds, null until paid. */
  validUntil: number | null;
  pdfUrl: string | null;
  invoiceUrl: string | null;
}

export async function toView(row: VoucherRow, secret: string): Promise<VoucherView> {
  const active = row.status === "active";
  const code = active ? await openCode(row.codeSealed, secret) : null;
  return {
    id: row.id,
    code: code ? formatCode(code) : null,
    bought: row.bought,
    buyerName: row.buyerName,
    recipientName: row.recipientName,
    recipientEmail: row.recipientEmail,
    message: row.message,
    sendOn: row.sendOn,
    amount: row.amount,
    remaining: row.remaining,
    status: row.status,
    validUntil: row.validUntil ? Math.floor(row.validUntil.getTime() / 1000) : null,
    pdfUrl: active ? discountPdfPath(row.id) : null,
    invoiceUrl: row.bought && row.invoiceId ? discountInvoicePath(row.id) : null,
  };
}

export async function customerVouchers(deps: Deps, actor: Actor): Promise<VoucherView[]> {
  const customer = requireRole(actor, "Customer", { message: VOUCHER_MESSAGES.customersOnly });
  const rows = await transactionAs(deps.db, customer, (tx) => visibleVouchers(tx));
  return await Promise.all(rows.map((row) => toView(row, deps.config.appSecret)));
}

/** The spec's payload (§3: id, code, targetEmail, targetDate, amount in euros), with what the page also
 * shows: remaining (euros), validUntil (unix seconds), status, bought, the PDF and invoice links. */
export function voucherPayload(v: VoucherView) {
  return {
    id: v.id,
    code: v.code,
    targetEmail: v.recipientEmail,
    targetName: v.recipientName,
    targetDate: v.sendOn,
    amount: centsToEuros(v.amount),
    remaining: centsToEuros(v.remaining),
    validUntil: v.validUntil,
    // What the page's chip says: 'used' once nothing is left, 'expired' past its validity.
    status: voucherStateKey(v, Math.floor(Date.now() / 1000)),
    bought: v.bought,
    message: v.message,
    pdf: v.pdfUrl,
    invoice: v.invoiceUrl,
  };
}
