// What follows an order's payment, in the caller's transaction: the documents (the platform's invoice
// FA and receipt RE of a payment the order kept; an advance invoice FA of one it could not keep; a
// credit note AV for each succeeded refund) and the customer's email (confirmation, or the refund of a
// payment it could not keep). Idempotent and exactly once: the order is locked and only what is missing
// is issued or sent. Run in the payment's own transaction when the app records it
// (lib/payments/use_cases/record_card_payment.ts), and by the outbox job 'order-settle' that the
// database enqueues with every order payment and refund (the webhook edge function records alone).
import type { Tx } from "../../db/database.ts";
import type { Config } from "../../config.ts";
import { enqueueEmail } from "../../mail/outbox.ts";
import { registrationConfirmationEmail } from "../../mail/templates/registration-confirmation.ts";
import { orderPaymentRefundedEmail } from "../../mail/templates/order-payment-refunded.ts";
import { type BillingDocument, invoiceNumber } from "../../billing/document.ts";
import { isoDay, platformParty, userParty } from "../../billing/use_cases/document_inputs.ts";
import { nextInvoiceSequence } from "../../billing/store.ts";
import {
  orderAdvanceDocument,
  orderCreditNoteDocument,
  orderInvoiceDocument,
  orderReceiptDocument,
  type OrderReference,
  registrationCreditNoteDocument,
} from "../documents.ts";
import { splitTTC } from "../../billing/document.ts";
import {
  canceledRegistrations,
  findOrder,
  insertOrderDocument,
  markPaymentNotified,
  orderCustomer,
  type OrderDocumentRow,
  orderDocuments,
  orderLines,
  orderPayments,
  orderSucceededRefunds,
} from "../store.ts";
import {
  settleVoucherOrder,
  voucherForOrder,
  voucherInvoice,
} from "../../vouchers/use_cases/settle_voucher.ts";

const ORDER_TITLES = { cart: "Ateliers cocktails", voucher: "Bon cadeau" } as const;

/** Returns how many documents it issued and emails it wrote. */
export async function settleOrder(
  tx: Tx,
  config: Pick<Config, "platform" | "appUrl"> & { appSecret?: string },
  orderId: number,
): Promise<number> {
  const order = await findOrder(tx, orderId, true);
  if (!order) return 0;
  const payments = await orderPayments(tx, orderId);
  const documents = await orderDocuments(tx, orderId);
  const refunds = await orderSucceededRefunds(tx, orderId);
  const lines = await orderLines(tx, orderId);
  // A voucher order's invoice is the voucher's (no VAT: a multi-purpose voucher, lib/vouchers/invoice.ts).
  const voucher = order.kind === "voucher" ? await voucherForOrder(tx, orderId) : null;
  const seller = platformParty(config);
  const buyer = (await userParty(tx, order.userId, false)) ??
    { ...seller, name: "Client", professional: false };
  const now = new Date();
  const year = now.getUTCFullYear();
  const issuedAt = isoDay(now);
  const dates = lines.map((l) => l.dtstart).filter((d): d is Date => d !== null).sort((a, b) =>
    a.getTime() - b.getTime()
  );
  const reference: OrderReference = {
    orderId,
    title: ORDER_TITLES[order.kind] ?? "Commande",
    serviceDate: dates[0] ? parisDay(dates[0]) : null,
    city: lines.find((l) => l.city)?.city ?? null,
    places: order.kind === "cart" ? lines.reduce((s, l) => s + l.quantity, 0) : null,
  };
  let done = 0;
  const issue = async (
    series: "FA" | "RE" | "AV",
    kind: string,
    paymentId: string | null,
    refundId: string | null,
    relatedId: string | null,
    build: (number: string) => BillingDocument,
    registrationId: string | null = null,
  ) => {
    const sequence = await nextInvoiceSequence(tx, series, "platform", year);
    const number = invoiceNumber(series, year, "platform", sequence);
    const row = await insertOrderDocument(tx, {
      series,
      year,
      sequence,
      number,
      kind,
      orderId,
      paymentId,
      refundId,
      relatedId,
      registrationId,
      document: build(number),
    });
    documents.push(row);
    done++;
    return row;
  };
  const invoiceLines = lines.flatMap((l) =>
    l.detail.length > 0 ? l.detail : [{
      label: l.label,
      qty: l.quantity,
      unitPriceHT: splitTTC(l.unitAmount, l.vatRate).ht,
      vatRate: l.vatRate,
    }]
  );
  const issueInvoiceAndReceipt = async (paymentId: string | null, card: number, paidAt: Date) => {
    const invoice = await issue(
      "FA",
      voucher ? "voucher" : "full",
      paymentId,
      null,
      null,
      (number) =>
        voucher
          ? voucherInvoice(voucher, { number, issuedAt, paidAt: isoDay(paidAt), seller, buyer, orderId })
          : orderInvoiceDocument({
            number,
            issuedAt,
            seller,
            buyer,
            order: reference,
            lines: invoiceLines,
            total: order.totalAmount,
            card,
            voucher: order.discountAmount,
            paidAt: isoDay(paidAt),
          }),
    );
    await issue("RE", "receipt", paymentId, null, invoice.id, (number) =>
      orderReceiptDocument({
        number,
        issuedAt,
        seller,
        buyer,
        order: reference,
        invoice: invoice.document as BillingDocument & { number: string },
      }));
    return invoice;
  };
  const customer = await orderCustomer(tx, order.userId);

  for (const payment of payments) {
    let invoice = documents.find((d) => d.series === "FA" && d.paymentId === payment.id);
    if (!invoice) {
      invoice = payment.overpayment
        ? await issue("FA", "deposit", payment.id, null, null, (number) =>
          orderAdvanceDocument({
            number,
            issuedAt,
            seller,
            buyer,
            order: reference,
            amount: payment.amount,
            paidAt: isoDay(payment.paidAt),
          }))
        : await issueInvoiceAndReceipt(payment.id, payment.amount, payment.paidAt);
    }
    if (payment.notifiedAt === null) {
      if (customer && payment.overpayment) {
        const [refund] = await tx<{ reason: string }>`
          select reason from public.refunds where payment_id = ${payment.id}::uuid and automatic order by created_at limit 1`;
        await enqueueEmail(
          tx,
          orderPaymentRefundedEmail({
            to: customer.email,
            firstname: customer.firstname,
            orderId,
            amount: payment.amount,
            soldOut: (refund?.reason ?? "").includes("places revendues"),
            cartUrl: `${config.appUrl}/sessions`,
          }),
        );
        done++;
      } else if (customer && order.kind === "cart") {
        await enqueueEmail(
          tx,
          confirmation(customer, orderId, lines, payment.amount, invoice.number, config),
        );
        done++;
      }
      await markPaymentNotified(tx, payment.id);
    }
  }
  // An order a voucher paid whole: no card payment; its invoice and receipt once paid.
  if (
    order.status === "paid" && !payments.some((p) => !p.overpayment) &&
    !documents.some((d) => d.series === "FA" && d.paymentId === null)
  ) {
    const invoice = await issueInvoiceAndReceipt(null, 0, order.paidAt ?? now);
    if (customer && order.kind === "cart") {
      await enqueueEmail(tx, confirmation(customer, orderId, lines, 0, invoice.number, config));
    }
  }
  if (voucher && order.status === "paid") {
    done += await settleVoucherOrder(tx, config, orderId, customer?.email ?? null);
  }
  // A canceled registration's credit note cancels its whole price (card refund and voucher give-back
  // together), once its card refund succeeded (at once when a voucher paid it whole).
  const canceled = order.kind === "cart" ? await canceledRegistrations(tx, orderId) : [];
  for (const reg of canceled) {
    if (documents.some((d) => d.series === "AV" && d.registrationId === reg.id)) continue;
    if (reg.refundId && reg.refundStatus !== "succeeded") continue;
    const related = documents.find((d) =>
      d.series === "FA" && d.kind === "full" &&
      (reg.refundId ? refunds.find((r) => r.id === reg.refundId)?.paymentId === d.paymentId : true)
    );
    if (!related) continue;
    await issue(
      "AV",
      "credit_note",
      related.paymentId,
      reg.refundId,
      related.id,
      (number) =>
        registrationCreditNoteDocument({
          number,
          issuedAt,
          seller,
          buyer,
          order: reference,
          lines: lines.filter((l) => l.registrationId === reg.id).flatMap((l) => l.detail),
          price: reg.price,
          card: reg.card,
          voucher: reg.voucher,
          related: related.document as BillingDocument & { number: string },
          reason: reg.reason,
        }),
      reg.id,
    );
  }
  for (const refund of refunds) {
    if (documents.some((d) => d.series === "AV" && d.refundId === refund.id)) continue;
    const related = documents.find((d) => d.series === "FA" && d.paymentId === refund.paymentId);
    if (!related) continue;
    await issue(
      "AV",
      "credit_note",
      refund.paymentId,
      refund.id,
      related.id,
      (number) =>
        orderCreditNoteDocument({
          number,
          issuedAt,
          seller,
          buyer,
          order: reference,
          amount: refund.amount,
          related: related.document as BillingDocument & { number: string },
          reason: refund.reason,
        }),
    );
  }
  return done;
}

function confirmation(
  customer: { email: string; firstname: string },
  orderId: number,
  lines: { label: string; quantity: number }[],
  amount: number,
  invoiceNumber: string,
  config: Pick<Config, "appUrl">,
) {
  return registrationConfirmationEmail({
    to: customer.email,
    firstname: customer.firstname,
    orderId,
    lines: lines.map((l) => ({ label: l.label, quantity: l.quantity })),
    amount,
    invoiceNumber,
    sessionsUrl: `${config.appUrl}/dashboard/client/sessions`,
  });
}

const PARIS_DAY = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" });
/** YYYY-MM-DD in Paris time. */
const parisDay = (date: Date) => PARIS_DAY.format(date);

export type { OrderDocumentRow };
