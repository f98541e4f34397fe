// A voucher order paid (issue 12). The checkout's order_paid() already ran order_paid_voucher() in the
// payment's transaction: the voucher is active for a year. What follows is settled by the checkout's
// settleOrder() (lib/orders/use_cases/settle_order.ts), in that same transaction (or the 'order-settle'
// job when the webhook recorded the payment alone), which calls these two:
// - voucherInvoice: the invoice of the sale, in the platform's FA series — a multi-purpose voucher, so
//   no VAT (lib/vouchers/invoice.ts) — instead of a workshop invoice;
// - settleVoucherOrder: the recipient's email, written to the outbox to leave on the chosen day (09:00
//   Paris; at once when that day is today) with the code and the PDF link, and the buyer's confirmation.
//   Exactly once: the voucher row is locked and remembers its email.
import type { Tx } from "../../db/database.ts";
import type { Config } from "../../config.ts";
import type { BillingDocument, Party } from "../../billing/document.ts";
import { enqueueEmail } from "../../mail/outbox.ts";
import { giftVoucherEmail } from "../../mail/templates/gift-voucher.ts";
import { sealSecrets } from "../../mail/secrets.ts";
import { giftVoucherBoughtEmail } from "../../mail/templates/gift-voucher-bought.ts";
import { formatEuros } from "../../money.ts";
import { openCode } from "../codes.ts";
import { voucherInvoiceDocument } from "../invoice.ts";
import { discountPdfPath, formatCode, formatDay, formatIsoDay, parisToday } from "../rules.ts";
import {
  enqueueEmailAt,
  orderVoucherInvoiceId,
  setVoucherEmail,
  voucherOfOrder,
  type VoucherRow,
} from "../store.ts";

/** 09:00 in Paris on `day` (YYYY-MM-DD), as an instant. */
export function sendInstant(day: string): Date {
  const noonUtc = new Date(`${day}T12:00:00Z`);
  const parisNoon = Number(
    new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", hour: "2-digit", hourCycle: "h23" })
      .format(noonUtc),
  );
  return new Date(Date.parse(`${day}T09:00:00Z`) - (parisNoon - 12) * 3600_000);
}

/** The voucher an order buys (locked), for settleOrder. */
export const voucherForOrder = (tx: Tx, orderId: number): Promise<VoucherRow | null> =>
  voucherOfOrder(tx, orderId);

/** The invoice of the voucher's sale (pure once the voucher is read). */
export function voucherInvoice(
  voucher: VoucherRow,
  c: { number: string; issuedAt: string; paidAt: string; seller: Party; buyer: Party; orderId: number },
): BillingDocument {
  return voucherInvoiceDocument({
    number: c.number,
    issuedAt: c.issuedAt,
    paidAt: c.paidAt,
    seller: c.seller,
    buyer: c.buyer,
    voucherId: voucher.id,
    orderId: c.orderId,
    amount: voucher.amount,
    validUntil: parisToday(voucher.validUntil ?? new Date(Date.now() + 365 * 86400_000)),
    recipientName: voucher.recipientName,
  });
}

export async function settleVoucherOrder(
  tx: Tx,
  config: Pick<Config, "appUrl"> & { appSecret?: string },
  orderId: number,
  buyerEmail: string | null,
): Promise<number> {
  const voucher = await voucherOfOrder(tx, orderId);
  if (!voucher || voucher.status !== "active" || !voucher.validUntil || voucher.invoiceId) return 0;
  const invoiceId = await orderVoucherInvoiceId(tx, orderId);
  // The emails carry the code, opened with the app's secret: a caller without it (the demo seeding,
  // which sends no email) only links the invoice.
  if (config.appSecret === undefined) {
    await setVoucherEmail(tx, voucher.id, null, invoiceId);
    return 0;
  }
  const code = await openCode(voucher.codeSealed, config.appSecret);
  const formatted = code ? formatCode(code) : "";
  const validUntil = formatDay(Math.floor(voucher.validUntil.getTime() / 1000));
  const pdfLink = `${config.appUrl}${discountPdfPath(voucher.id)}?code=${encodeURIComponent(formatted)}`;
  // The code and the PDF link open the voucher: sealed in the outbox, masked for its readers.
  const email = await sealSecrets(
    giftVoucherEmail({
      to: voucher.recipientEmail,
      recipientName: voucher.recipientName,
      buyerName: voucher.buyerName,
      message: voucher.message,
      code: formatted,
      amount: formatEuros(voucher.amount),
      validUntil,
      pdfLink,
      sessionsLink: `${config.appUrl}/sessions`,
    }),
    [pdfLink, formatted],
    config.appSecret,
  );
  const emailId = await enqueueEmailAt(tx, email, sendInstant(voucher.sendOn));
  if (buyerEmail) {
    await enqueueEmail(
      tx,
      giftVoucherBoughtEmail({
        to: buyerEmail,
        recipientName: voucher.recipientName,
        recipientEmail: voucher.recipientEmail,
        sendOn: formatIsoDay(voucher.sendOn),
        amount: formatEuros(voucher.amount),
        validUntil,
        listLink: `${config.appUrl}/dashboard/client/bons-cadeaux`,
      }),
    );
  }
  await setVoucherEmail(tx, voucher.id, emailId, invoiceId);
  return buyerEmail ? 2 : 1;
}
