// The invoice of a gift voucher's sale, pure (issue 12). A voucher of this platform pays for any workshop
// (their VAT is not known when it is sold): a multi-purpose voucher (bon à usage multiple, CGI art. 256
// ter; directive 2006/112/CE art. 30 bis/ter). Its sale is no supply: no VAT is charged on it — VAT is
// due when it pays for a workshop, on the registration's own invoice. The document says so three ways:
// the line and the VAT breakdown are EN 16931 category O (outside the scope of VAT, exemption code
// VATEX-EU-O with the reason in words, no rate: BR-O-05/BR-O-10), the mention on the page, and the
// seller's VAT number is left out (BR-O-02 forbids it on an O invoice; the SIREN identifies the seller).
// Seller: the platform (it sells the workshops and the vouchers). Numbered in the platform's FA series.
import { type BillingDocument, MENTIONS, type Party, TITLES, vatBreakdown } from "../billing/document.ts";

export interface VoucherInvoiceInput {
  number: string;
  /** YYYY-MM-DD */
  issuedAt: string;
  paidAt: string;
  seller: Party;
  buyer: Party;
  voucherId: string;
  /** The voucher order it was paid by. */
  orderId: number;
  amount: number;
  /** YYYY-MM-DD */
  validUntil: string;
  recipientName: string;
}

export function voucherInvoiceDocument(v: VoucherInvoiceInput): BillingDocument {
  const lines = [{
    label: `Bon cadeau à usage multiple, valable jusqu'au ${v.validUntil.split("-").reverse().join("/")}`,
    qty: 1,
    unitPriceHT: v.amount,
    vatRate: 0,
    totalHT: v.amount,
  }];
  return {
    kind: "voucher",
    title: TITLES.voucher,
    number: v.number,
    issuedAt: v.issuedAt,
    // BR-O-02: no VAT number on an invoice outside VAT's scope.
    seller: { ...v.seller, vatNumber: null },
    buyer: { ...v.buyer, vatNumber: null },
    issuedBy: null,
    reference: {
      dealId: 0,
      orderId: v.orderId,
      dealName: "Bon cadeau",
      serviceDate: null,
      city: null,
      guests: null,
    },
    lines,
    vat: vatBreakdown(lines),
    totalHT: v.amount,
    totalVAT: 0,
    totalTTC: v.amount,
    rounding: 0,
    deductions: [],
    amountDue: 0,
    amountPaid: v.amount,
    paidAt: v.paidAt,
    paymentTerms: `Payé par carte le ${v.paidAt.split("-").reverse().join("/")}.`,
    mentions: [
      MENTIONS.multiPurposeVoucher,
      ...(v.buyer.professional ? [MENTIONS.latePenalty, MENTIONS.recoveryFee] : []),
      MENTIONS.noDiscount,
    ],
    notes: [],
    relatedNumber: null,
    voucher: { id: v.voucherId, validUntil: v.validUntil, recipient: v.recipientName },
  };
}
