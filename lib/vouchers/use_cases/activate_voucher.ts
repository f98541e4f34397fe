// The voucher order is paid (the order-paid hook, inside the payment's transaction, as the system): the
// voucher becomes active for a year, its invoice is issued in the platform's FA series (a multi-purpose
// voucher: no VAT, lib/vouchers/invoice.ts), and the recipient's email is written to the outbox to leave
// on the chosen day (09:00 Paris; at once when that day is today) with the code and the PDF link. All in
// the caller's transaction: a payment recorded twice activates, invoices and mails once.
import type { Tx } from "../../db/database.ts";
import type { Config } from "../../config.ts";
import { invoiceNumber } from "../../billing/document.ts";
import { nextInvoiceSequence } from "../../billing/store.ts";
import { platformParty, userParty } from "../../billing/use_cases/document_inputs.ts";
import { giftVoucherEmail } from "../../mail/templates/gift-voucher.ts";
import { formatEuros } from "../../money.ts";
import { openCode } from "../codes.ts";
import { voucherInvoiceDocument } from "../invoice.ts";
import { discountPdfPath, formatCode, formatDay, parisToday } from "../rules.ts";
import {
  activateOrderVoucher,
  enqueueEmailAt,
  insertVoucherInvoice,
  lockVoucher,
  setVoucherEmail,
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

export async function activateVoucherOfOrder(
  tx: Tx,
  config: Pick<Config, "platform" | "appUrl" | "appSecret">,
  orderId: string,
): Promise<string | null> {
  const id = await activateOrderVoucher(tx, orderId);
  if (!id) return null;
  const voucher = await lockVoucher(tx, id);
  if (!voucher?.validUntil) return null;
  const today = parisToday();
  const year = Number(today.slice(0, 4));
  const sequence = await nextInvoiceSequence(tx, "FA", "platform", year);
  const number = invoiceNumber("FA", year, "platform", sequence);
  const validUntil = parisToday(voucher.validUntil);
  const buyer = await userParty(tx, voucher.buyerId, false);
  const document = voucherInvoiceDocument({
    number,
    issuedAt: today,
    paidAt: today,
    seller: platformParty(config),
    buyer: buyer ?? {
      name: voucher.buyerName,
      siren: null,
      vatNumber: null,
      address: [],
      email: null,
      professional: false,
      vatExempt: false,
    },
    voucherId: voucher.id,
    amount: voucher.amount,
    validUntil,
    recipientName: voucher.recipientName,
  });
  const invoiceId = await insertVoucherInvoice(tx, {
    year,
    sequence,
    number,
    document,
    total: voucher.amount,
  });
  const code = await openCode(voucher.codeSealed, config.appSecret);
  const formatted = code ? formatCode(code) : "";
  const email = giftVoucherEmail({
    to: voucher.recipientEmail,
    recipientName: voucher.recipientName,
    buyerName: voucher.buyerName,
    message: voucher.message,
    code: formatted,
    amount: formatEuros(voucher.amount),
    validUntil: formatDay(Math.floor(voucher.validUntil.getTime() / 1000)),
    pdfLink: `${config.appUrl}${discountPdfPath(voucher.id)}?code=${encodeURIComponent(formatted)}`,
    sessionsLink: `${config.appUrl}/sessions`,
  });
  const emailId = await enqueueEmailAt(tx, email, sendInstant(voucher.sendOn));
  await setVoucherEmail(tx, voucher.id, emailId, invoiceId);
  return voucher.id;
}
