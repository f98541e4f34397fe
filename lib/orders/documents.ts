// An order's documents, pure and in cents, in the shape every billing document has
// (lib/billing/document.ts), so the same PDF and Factur-X renderers serve them: the invoice of its
// payment (issued by the platform, which sells workshops itself), the receipt of that payment (not an
// invoice: no Factur-X), the advance invoice of a payment it could not keep (refunded), and the credit
// notes of its refunds.
import {
  type BillingDocument,
  type DocumentLine,
  MENTIONS,
  type Party,
  splitTTC,
  TITLES,
} from "../billing/document.ts";
import { formatEuros } from "../money.ts";
import { linesForTotal } from "./invoice_lines.ts";

export interface OrderReference {
  orderId: number;
  /** "Ateliers cocktails" */
  title: string;
  /** YYYY-MM-DD, the first workshop's date. */
  serviceDate: string | null;
  city: string | null;
  places: number | null;
}

interface Common {
  number: string;
  issuedAt: string;
  seller: Party;
  buyer: Party;
  order: OrderReference;
}

const frDate = (iso: string) => iso.split("-").reverse().join("/");

const reference = (o: OrderReference) => ({
  dealId: 0,
  orderId: o.orderId,
  dealName: o.title,
  serviceDate: o.serviceDate,
  city: o.city,
  guests: o.places,
});

function mentions(seller: Party, buyer: Party): string[] {
  const out: string[] = [MENTIONS.operationCategory];
  if (seller.vatExempt) out.push(MENTIONS.vatExempt);
  if (buyer.professional) out.push(MENTIONS.latePenalty, MENTIONS.recoveryFee);
  out.push(MENTIONS.noDiscount);
  return out;
}

function paidTerms(paidAt: string, card: number, voucher: number): string {
  if (voucher <= 0) return `Acquittée par carte bancaire le ${frDate(paidAt)}.`;
  return `Acquittée le ${frDate(paidAt)} : ${formatEuros(card)} par carte bancaire et ${
    formatEuros(voucher)
  } par bon cadeau.`;
}

/** The invoice of an order paid in full (type 380): its lines HT priced from what was paid
 * (invoice_lines.ts), VAT per rate; what was paid (card and voucher, BT-113) is its total TTC, exactly
 * (no rounding amount), due the day it was paid (BT-9). */
export function orderInvoiceDocument(
  c: Common & {
    lines: Omit<DocumentLine, "totalHT">[];
    total: number;
    card: number;
    voucher: number;
    paidAt: string;
  },
): BillingDocument {
  const { lines, vat } = linesForTotal(c.lines, c.total);
  const totalHT = lines.reduce((s, l) => s + l.totalHT, 0);
  const totalVAT = vat.reduce((s, v) => s + v.amount, 0);
  return {
    kind: "full",
    title: TITLES.full,
    number: c.number,
    issuedAt: c.issuedAt,
    seller: c.seller,
    buyer: c.buyer,
    issuedBy: null,
    reference: reference(c.order),
    lines,
    vat,
    totalHT,
    totalVAT,
    totalTTC: totalHT + totalVAT,
    rounding: c.total - (totalHT + totalVAT),
    deductions: [],
    amountDue: 0,
    amountPaid: c.total,
    paidAt: c.paidAt,
    dueDate: c.paidAt,
    paymentTerms: paidTerms(c.paidAt, c.card, c.voucher),
    mentions: mentions(c.seller, c.buyer),
    notes: [],
    relatedNumber: null,
  };
}

/** A payment the order could not keep (its places sold again, a second payment): invoiced as an advance
 * received (type 386), cancelled by the credit note of its automatic refund. */
export function orderAdvanceDocument(c: Common & { amount: number; paidAt: string }): BillingDocument {
  const { ht, vat, rounding } = splitTTC(c.amount, 20);
  return {
    kind: "deposit",
    title: TITLES.deposit,
    number: c.number,
    issuedAt: c.issuedAt,
    seller: c.seller,
    buyer: c.buyer,
    issuedBy: null,
    reference: reference(c.order),
    lines: [{
      label: `Versement reçu pour la commande n° ${c.order.orderId} (remboursé par avoir)`,
      qty: 1,
      unitPriceHT: ht,
      vatRate: 20,
      totalHT: ht,
    }],
    vat: [{ rate: 20, base: ht, amount: vat }],
    totalHT: ht,
    totalVAT: vat,
    totalTTC: ht + vat,
    rounding,
    deductions: [],
    amountDue: 0,
    amountPaid: c.amount,
    paidAt: c.paidAt,
    paymentTerms: `Acquittée par carte bancaire le ${frDate(c.paidAt)}.`,
    mentions: mentions(c.seller, c.buyer),
    notes: [],
    relatedNumber: null,
  };
}

/** The receipt of an order's payment: what was paid, when, for what; it names the invoice. */
export function orderReceiptDocument(
  c: Common & { invoice: BillingDocument & { number: string } },
): BillingDocument {
  return {
    ...c.invoice,
    kind: "receipt",
    title: TITLES.receipt,
    number: c.number,
    issuedAt: c.issuedAt,
    relatedNumber: c.invoice.number,
    relatedIssuedAt: c.invoice.issuedAt,
    notes: [`Paiement reçu : ${formatEuros(c.invoice.amountPaid)}, merci !`],
  };
}

/** A credit note of an order's refund, on its invoice `related`: split at the invoice's main VAT rate. */
export function orderCreditNoteDocument(
  c: Common & { amount: number; related: BillingDocument & { number: string }; reason: string },
): BillingDocument {
  const rate = c.related.vat[0]?.rate ?? 20;
  const { ht, vat, rounding } = splitTTC(c.amount, rate);
  return {
    kind: "credit_note",
    title: TITLES.credit_note,
    number: c.number,
    issuedAt: c.issuedAt,
    seller: c.seller,
    buyer: c.buyer,
    issuedBy: null,
    reference: reference(c.order),
    lines: [{
      label: `Remboursement sur la facture n° ${c.related.number}${c.reason ? ` — ${c.reason}` : ""}`,
      qty: 1,
      unitPriceHT: ht,
      vatRate: rate,
      totalHT: ht,
    }],
    vat: [{ rate, base: ht, amount: vat }],
    totalHT: ht,
    totalVAT: vat,
    totalTTC: ht + vat,
    rounding,
    deductions: [],
    amountDue: 0,
    amountPaid: 0,
    paidAt: null,
    paymentTerms: "Montant remboursé sur le moyen de paiement utilisé.",
    mentions: mentions(c.seller, c.buyer),
    notes: [],
    relatedNumber: c.related.number,
    relatedIssuedAt: c.related.issuedAt,
  };
}

/** The credit note of a canceled registration (type 381): it cancels the registration's whole price
 * — its lines and their VAT, as the invoice stated them — whatever paid it, and says where the money
 * went: `card` refunded to the card, `voucher` given back to the gift voucher (a voucher is a means of
 * payment, not a discount: the VAT of the part it paid is cancelled too, and is due again when the
 * voucher pays another booking). When less than the price is credited (part of it refunded before),
 * one line at the invoice's main rate. No rounding amount: HT and VAT add up to what is credited. */
export function registrationCreditNoteDocument(
  c: Common & {
    lines: Omit<DocumentLine, "totalHT">[];
    price: number;
    card: number;
    voucher: number;
    related: BillingDocument & { number: string };
    reason: string;
  },
): BillingDocument {
  const amount = c.card + c.voucher;
  const rate = c.related.vat[0]?.rate ?? 20;
  const source = amount === c.price && c.lines.length > 0 ? c.lines : [{
    label: `Remboursement sur la facture n° ${c.related.number}`,
    qty: 1,
    unitPriceHT: splitTTC(amount, rate).ht,
    vatRate: rate,
  }];
  const { lines, vat } = linesForTotal(source, amount);
  const totalHT = lines.reduce((s, l) => s + l.totalHT, 0);
  const totalVAT = vat.reduce((s, v) => s + v.amount, 0);
  const parts = [
    ...(c.card > 0 ? [`${formatEuros(c.card)} remboursés sur la carte bancaire`] : []),
    ...(c.voucher > 0 ? [`${formatEuros(c.voucher)} recrédités sur le bon cadeau`] : []),
  ];
  return {
    kind: "credit_note",
    title: TITLES.credit_note,
    number: c.number,
    issuedAt: c.issuedAt,
    seller: c.seller,
    buyer: c.buyer,
    issuedBy: null,
    reference: reference(c.order),
    lines,
    vat,
    totalHT,
    totalVAT,
    totalTTC: totalHT + totalVAT,
    rounding: 0,
    deductions: [],
    amountDue: 0,
    amountPaid: 0,
    paidAt: null,
    paymentTerms: `Annulation de l'inscription${c.reason ? ` (${c.reason})` : ""} : ${parts.join(" et ")}.`,
    creditedTo: { card: c.card, voucher: c.voucher },
    mentions: mentions(c.seller, c.buyer),
    notes: [],
    relatedNumber: c.related.number,
    relatedIssuedAt: c.related.issuedAt,
  };
}
