// What every billing document says, pure and in cents: the quote (devis), proformas, invoices
// (deposit, final, full), credit notes, and the platform's commission invoices to partners. The PDF and
// the Factur-X XML are both rendered from this one shape, so they cannot disagree.
//
// Who issues what (written out in ARCHITECTURE.md): customer documents are issued by the platform in
// the name and on behalf of the partner (billing mandate) — the partner is the seller, with its own
// numbering; commission documents are issued by the platform to the partner.
import { percentOf, percentToBasisPoints } from "../money.ts";

export interface Party {
  name: string;
  siren: string | null;
  vatNumber: string | null;
  address: string[];
  email: string | null;
  /** A business buyer: late-payment penalties and the €40 recovery fee are stated. */
  professional: boolean;
  /** A seller exempt from VAT (franchise en base). */
  vatExempt: boolean;
}

export interface DocumentLine {
  label: string;
  qty: number;
  /** Cents HT. */
  unitPriceHT: number;
  /** Percent. */
  vatRate: number;
  /** Cents HT. */
  totalHT: number;
}

export interface VatLine {
  rate: number;
  base: number;
  amount: number;
}

export interface Deduction {
  label: string;
  invoiceNumber: string;
  totalHT: number;
  totalVAT: number;
  totalTTC: number;
  /** What the deducted invoice settled: its TTC plus its rounding. */
  settled: number;
  /** YYYY-MM-DD, the deducted invoice's issue date (EN 16931 BT-26); absent from documents issued
   * before it was recorded. */
  invoiceIssuedAt?: string | null;
  /** Deducted as a line (its base and VAT taken off the document's, finalWithDeposit()); documents
   * issued before deducted it only from the TTC, below the totals. */
  inLines?: boolean;
}

export type DocumentKind =
  | "quote"
  | "proforma_deposit"
  | "proforma_final"
  | "proforma_full"
  | "deposit"
  | "final"
  | "full"
  | "credit_note"
  | "commission_credit_note"
  | "commission_deposit"
  | "commission_final"
  | "commission_full"
  | "commission_proforma_deposit"
  | "commission_proforma_final"
  | "commission_proforma_full"
  | "receipt"
  // The sale of a gift voucher (bon à usage multiple, lib/vouchers/invoice.ts): outside VAT's scope.
  | "voucher";

export interface BillingDocument {
  kind: DocumentKind;
  title: string;
  /** Null for quotes and proformas (not invoices). */
  number: string | null;
  /** YYYY-MM-DD */
  issuedAt: string;
  seller: Party;
  buyer: Party;
  /** The platform, when it issues on the seller's behalf. */
  issuedBy: Party | null;
  reference: {
    /** 0 on an order's documents (orderId is then set). */
    dealId: number;
    /** An order's documents (workshop places, vouchers): 'Commande n° …' instead of 'Devis n° …'. */
    orderId?: number;
    dealName: string;
    serviceDate: string | null;
    city: string | null;
    guests: number | null;
  };
  lines: DocumentLine[];
  vat: VatLine[];
  totalHT: number;
  totalVAT: number;
  totalTTC: number;
  /** BT-114: the cent that makes HT + VAT (VAT rounded on HT) meet an amount paid that no HT reaches
   * exactly; usually 0, at most one cent either way. */
  rounding: number;
  deductions: Deduction[];
  /** What the document asks to pay now (0 when already paid). */
  amountDue: number;
  /** What was paid with this document (a payment's amount), 0 for quotes and proformas. */
  amountPaid: number;
  /** YYYY-MM-DD of the payment this invoice acknowledges. */
  paidAt: string | null;
  /** YYYY-MM-DD, the payment due date (EN 16931 BT-9): an invoice already paid states its payment's day
   * (the reform's BR-FR-CO-09); absent, facturx.ts dueDate() derives it. */
  dueDate?: string | null;
  paymentTerms: string;
  mentions: string[];
  /** Free texts shown on quotes or invoices (deviseur settings), plain text. */
  notes: string[];
  /** A credit note's corrected invoice. */
  relatedNumber: string | null;
  /** YYYY-MM-DD, the corrected invoice's issue date (EN 16931 BT-26, BR-FR-CO-05); absent from credit
   * notes issued before it was recorded. */
  relatedIssuedAt?: string | null;
  /** A canceled registration's credit note: where the money credited went (cents TTC). */
  creditedTo?: { card: number; voucher: number };
  /** A gift voucher's invoice: the voucher sold (printed in place of the quote's reference). */
  voucher?: { id: string; validUntil: string; recipient: string };
}

export const TITLES: Record<DocumentKind, string> = {
  quote: "Devis",
  proforma_deposit: "Facture proforma d'acompte",
  proforma_final: "Facture proforma de solde",
  proforma_full: "Facture proforma",
  deposit: "Facture d'acompte",
  final: "Facture de solde",
  full: "Facture",
  credit_note: "Avoir",
  commission_credit_note: "Avoir de commission",
  commission_deposit: "Facture de commission (acompte)",
  commission_final: "Facture de commission (solde)",
  commission_full: "Facture de commission",
  commission_proforma_deposit: "Facture proforma de commission (acompte)",
  commission_proforma_final: "Facture proforma de commission (solde)",
  commission_proforma_full: "Facture proforma de commission",
  receipt: "Reçu de paiement",
  voucher: "Facture de bon cadeau",
};

/** "Commande n° 12" on an order's documents, "Devis n° 42" on a deal's. */
export function referenceLabel(reference: BillingDocument["reference"]): string {
  return reference.orderId ? `Commande n° ${reference.orderId}` : `Devis n° ${reference.dealId}`;
}

export const MENTIONS = {
  /** The operation's category, a mention French invoices carry from the e-invoicing reform on
   * (CGI art. 242 nonies A; Factur-X BT-23 says the same as a code): every document here is a service. */
  operationCategory: "Catégorie de l'opération : prestation de services",
  vatExempt: "TVA non applicable, art. 293 B du CGI",
  latePenalty:
    "En cas de retard de paiement, des pénalités égales à trois fois le taux d'intérêt légal sont exigibles (art. L441-10 du Code de commerce).",
  recoveryFee: "Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement : 40 €.",
  noDiscount: "Pas d'escompte pour paiement anticipé.",
  /** A multi-purpose voucher's sale is no supply: VAT is due when it pays for a service (CGI art. 256
   * ter, 266; directive 2006/112/CE art. 30 ter), so its invoice carries no VAT (EN 16931 category O). */
  multiPurposeVoucher:
    "Bon à usage multiple (art. 256 ter du CGI) : opération hors du champ de la TVA à l'émission ; la TVA est due lors de l'utilisation du bon.",
  mandate: (platform: string, seller: string) =>
    `Facture émise par ${platform}, au nom et pour le compte de ${seller} (mandat de facturation).`,
} as const;

/** The VAT of lines, per rate, rounded once per rate (as French invoices total it). */
export function vatBreakdown(lines: Pick<DocumentLine, "vatRate" | "totalHT">[]): VatLine[] {
  const byRate = new Map<number, number>();
  for (const line of lines) byRate.set(line.vatRate, (byRate.get(line.vatRate) ?? 0) + line.totalHT);
  return [...byRate.entries()].sort(([a], [b]) => b - a).map(([rate, base]) => ({
    rate,
    base,
    amount: percentOf(base, percentToBasisPoints(rate)),
  }));
}

/** A TTC amount split into HT and VAT at `rate`, the VAT being the HT's VAT rounded (as an invoice
 * must state it). Not every TTC amount has an HT whose rounded VAT adds up to it (at 20 %, HT + 1 cent
 * can add 2 cents TTC): then `rounding` carries the missing or extra cent. */
export function splitTTC(ttc: number, rate: number): { ht: number; vat: number; rounding: number } {
  const basisPoints = percentToBasisPoints(rate);
  const nearest = Math.round((ttc * 10000) / (10000 + basisPoints));
  for (const ht of [nearest, nearest - 1, nearest + 1, nearest - 2, nearest + 2]) {
    const vat = percentOf(ht, basisPoints);
    if (ht + vat === ttc) return { ht, vat, rounding: 0 };
  }
  const vat = percentOf(nearest, basisPoints);
  return { ht: nearest, vat, rounding: ttc - nearest - vat };
}

export interface QuoteSnapshot {
  dealId: number;
  dealName: string;
  serviceDate: string | null;
  city: string | null;
  guests: number | null;
  /** Cost lines in cents (the deal's lines). */
  lines: { label: string; qty: number; unitCost: number; totalCost: number }[];
  /** The 'Gestion de projet' half fee, cents HT. */
  projectManagement: number;
  managementFee: number;
  fixedCommission: number;
  vatRate: number;
  /** Total TTC of the quote, cents. */
  totalTTC: number;
  depositPercentage: number;
  hasDeposit: boolean;
  validityDays: number;
  commissionRate: number;
}

/** The quote's lines as billed to the customer: its cost lines plus 'Gestion de projet'. */
export function customerLines(quote: QuoteSnapshot): DocumentLine[] {
  const lines = quote.lines.map((l) => ({
    label: l.label,
    qty: l.qty,
    unitPriceHT: l.unitCost,
    vatRate: quote.vatRate,
    totalHT: l.totalCost,
  }));
  if (quote.projectManagement > 0) {
    lines.push({
      label: "Gestion de projet",
      qty: 1,
      unitPriceHT: quote.projectManagement,
      vatRate: quote.vatRate,
      totalHT: quote.projectManagement,
    });
  }
  return lines;
}

interface Common {
  number: string | null;
  issuedAt: string;
  seller: Party;
  buyer: Party;
  issuedBy: Party | null;
  quote: QuoteSnapshot;
  notes?: string[];
}

function totalsOf(lines: DocumentLine[]) {
  const vat = vatBreakdown(lines);
  const totalHT = lines.reduce((s, l) => s + l.totalHT, 0);
  const totalVAT = vat.reduce((s, v) => s + v.amount, 0);
  return { vat, totalHT, totalVAT, totalTTC: totalHT + totalVAT };
}

/** A final invoice after a deposit invoice (French practice, CGI art. 289-I-1-c and 269-2-c, and the reform's
 * framework S4/B4, XP Z12-012): the service's lines, then the deposit invoice deducted as a line of its
 * own — its base HT at the same rate, quantity −1, naming it by number and date (and BT-25/BT-26) — so
 * that the final invoice states only the VAT not already invoiced: its VAT per rate is the service's
 * VAT less the deposit invoice's, and across the two invoices the service's VAT is stated once, to the
 * cent. (That VAT may differ by one cent from its base × rate rounded, which EN 16931 BR-CO-17 allows in
 * CII.) `rounding` is the deposit invoice's own rounding, given back: total + rounding is what remains
 * to pay after the deposit. */
export function finalWithDeposit(
  lines: DocumentLine[],
  deposit: Deduction,
  rate: number,
): {
  lines: DocumentLine[];
  vat: VatLine[];
  totalHT: number;
  totalVAT: number;
  totalTTC: number;
  rounding: number;
} {
  const date = deposit.invoiceIssuedAt ? ` du ${frDate(deposit.invoiceIssuedAt)}` : "";
  const all: DocumentLine[] = [...lines, {
    label: `${deposit.label} — facture n° ${deposit.invoiceNumber}${date}`,
    qty: -1,
    unitPriceHT: deposit.totalHT,
    vatRate: rate,
    totalHT: -deposit.totalHT,
  }];
  const vat = vatBreakdown(lines).map((v) =>
    v.rate === rate ? { rate, base: v.base - deposit.totalHT, amount: v.amount - deposit.totalVAT } : v
  );
  if (!vat.some((v) => v.rate === rate)) {
    vat.push({ rate, base: -deposit.totalHT, amount: -deposit.totalVAT });
  }
  const totalHT = all.reduce((s, l) => s + l.totalHT, 0);
  const totalVAT = vat.reduce((s, v) => s + v.amount, 0);
  return {
    lines: all,
    vat,
    totalHT,
    totalVAT,
    totalTTC: totalHT + totalVAT,
    rounding: -(deposit.settled - deposit.totalTTC),
  };
}

/** The legal mentions, in this order: the billing mandate (customer documents), the operation's category,
 * the VAT exemption (art. 293 B), the late-payment penalty and the 40 € recovery fee (business buyers
 * only: Code de commerce L441-10 applies between professionals), and the early-payment discount. */
function mentionsFor(seller: Party, buyer: Party, issuedBy: Party | null, vatRate: number): string[] {
  const mentions: string[] = [];
  if (issuedBy) mentions.push(MENTIONS.mandate(issuedBy.name, seller.name));
  mentions.push(MENTIONS.operationCategory);
  // Never with VAT charged: a document states VAT or the exemption, not both (a quote's rate is frozen
  // when it is priced; a partner cannot change its VAT status while such quotes are open, see
  // ARCHITECTURE.md 'Invoices an accountant signs off').
  if (seller.vatExempt && vatRate === 0) mentions.push(MENTIONS.vatExempt);
  if (buyer.professional) mentions.push(MENTIONS.latePenalty, MENTIONS.recoveryFee);
  mentions.push(MENTIONS.noDiscount);
  return mentions;
}

const reference = (q: QuoteSnapshot) => ({
  dealId: q.dealId,
  dealName: q.dealName,
  serviceDate: q.serviceDate,
  city: q.city,
  guests: q.guests,
});

const frDate = (iso: string) => iso.split("-").reverse().join("/");

/** The quote (devis) of a deal. */
export function quoteDocument(c: Common): BillingDocument {
  const lines = customerLines(c.quote);
  const t = totalsOf(lines);
  const terms = c.quote.hasDeposit
    ? `Acompte de ${c.quote.depositPercentage} % à la commande, solde avant la prestation. Devis valable ${c.quote.validityDays} jours.`
    : `Règlement à la commande. Devis valable ${c.quote.validityDays} jours.`;
  return {
    kind: "quote",
    title: TITLES.quote,
    number: null,
    issuedAt: c.issuedAt,
    seller: c.seller,
    buyer: c.buyer,
    issuedBy: c.issuedBy,
    reference: reference(c.quote),
    lines,
    ...t,
    rounding: 0,
    deductions: [],
    amountDue: t.totalTTC,
    amountPaid: 0,
    paidAt: null,
    paymentTerms: terms,
    mentions: mentionsFor(c.seller, c.buyer, c.issuedBy, c.quote.vatRate),
    notes: c.notes ?? [],
    relatedNumber: null,
  };
}

/** A deposit invoice (or its proforma): one line, the deposit, whose HT and VAT are the deposit's
 * share of the quote's. `amountTTC` is what was (or is to be) paid. */
export function depositDocument(
  c: Common & { amountTTC: number; paidAt: string | null; proforma: boolean; overpayment?: boolean },
): BillingDocument {
  const { ht, vat, rounding } = splitTTC(c.amountTTC, c.quote.vatRate);
  const lines: DocumentLine[] = [{
    // An overpayment (money the deal did not owe) is an advance received, invoiced as such and
    // cancelled by the credit note of its automatic refund.
    label: c.overpayment
      ? `Versement reçu en trop sur le devis n° ${c.quote.dealId} — ${c.quote.dealName} (remboursé par avoir)`
      : `Acompte de ${c.quote.depositPercentage} % sur le devis n° ${c.quote.dealId} — ${c.quote.dealName}`,
    qty: 1,
    unitPriceHT: ht,
    vatRate: c.quote.vatRate,
    totalHT: ht,
  }];
  return {
    kind: c.proforma ? "proforma_deposit" : "deposit",
    title: c.proforma ? TITLES.proforma_deposit : TITLES.deposit,
    number: c.proforma ? null : c.number,
    issuedAt: c.issuedAt,
    seller: c.seller,
    buyer: c.buyer,
    issuedBy: c.issuedBy,
    reference: reference(c.quote),
    lines,
    vat: [{ rate: c.quote.vatRate, base: ht, amount: vat }],
    totalHT: ht,
    totalVAT: vat,
    totalTTC: ht + vat,
    rounding,
    deductions: [],
    amountDue: c.proforma ? c.amountTTC : 0,
    amountPaid: c.proforma ? 0 : c.amountTTC,
    paidAt: c.paidAt,
    paymentTerms: c.proforma
      ? "À régler par carte depuis votre devis en ligne."
      : `Acquittée par ${c.paidAt ? `paiement le ${frDate(c.paidAt)}` : "paiement"}.`,
    mentions: mentionsFor(c.seller, c.buyer, c.issuedBy, c.quote.vatRate),
    notes: c.notes ?? [],
    relatedNumber: null,
  };
}

/** The final invoice (after a deposit) or the full invoice (nothing before), or their proformas: the
 * quote's lines; a final invoice deducts the deposit invoice's base and VAT (finalWithDeposit). */
export function balanceDocument(
  c: Common & { deposit: Deduction | null; amountPaid: number; paidAt: string | null; proforma: boolean },
): BillingDocument {
  const deposit = c.deposit ? { ...c.deposit, inLines: true } : null;
  const t = deposit
    ? finalWithDeposit(customerLines(c.quote), deposit, c.quote.vatRate)
    : { ...totalsOf(customerLines(c.quote)), lines: customerLines(c.quote), rounding: 0 };
  const kind: DocumentKind = c.deposit
    ? (c.proforma ? "proforma_final" : "final")
    : (c.proforma ? "proforma_full" : "full");
  return {
    kind,
    title: TITLES[kind],
    number: c.proforma ? null : c.number,
    issuedAt: c.issuedAt,
    seller: c.seller,
    buyer: c.buyer,
    issuedBy: c.issuedBy,
    reference: reference(c.quote),
    ...t,
    deductions: deposit ? [deposit] : [],
    amountDue: c.proforma ? t.totalTTC + t.rounding : 0,
    amountPaid: c.proforma ? 0 : c.amountPaid,
    paidAt: c.paidAt,
    paymentTerms: c.proforma
      ? "À régler par carte depuis votre devis en ligne, avant la prestation."
      : `Acquittée par ${c.paidAt ? `paiement le ${frDate(c.paidAt)}` : "paiement"}.`,
    mentions: mentionsFor(c.seller, c.buyer, c.issuedBy, c.quote.vatRate),
    notes: c.notes ?? [],
    relatedNumber: null,
  };
}

/** A credit note: a refund of `amountTTC` on the invoice `related` (issued on `relatedIssuedAt`), split
 * at its VAT rate. */
export function creditNoteDocument(
  c: Omit<Common, "quote"> & {
    quote: QuoteSnapshot;
    amountTTC: number;
    related: string;
    relatedIssuedAt: string | null;
    reason: string;
  },
): BillingDocument {
  const { ht, vat, rounding } = splitTTC(c.amountTTC, c.quote.vatRate);
  return {
    kind: "credit_note",
    title: TITLES.credit_note,
    number: c.number,
    issuedAt: c.issuedAt,
    seller: c.seller,
    buyer: c.buyer,
    issuedBy: c.issuedBy,
    reference: reference(c.quote),
    lines: [{
      label: `Remboursement sur la facture n° ${c.related}${c.reason ? ` — ${c.reason}` : ""}`,
      qty: 1,
      unitPriceHT: ht,
      vatRate: c.quote.vatRate,
      totalHT: ht,
    }],
    vat: [{ rate: c.quote.vatRate, base: ht, amount: vat }],
    totalHT: ht,
    totalVAT: vat,
    totalTTC: ht + vat,
    rounding,
    deductions: [],
    amountDue: 0,
    amountPaid: 0,
    paidAt: null,
    paymentTerms: "Montant remboursé sur le moyen de paiement utilisé.",
    mentions: mentionsFor(c.seller, c.buyer, c.issuedBy, c.quote.vatRate),
    notes: [],
    relatedNumber: c.related,
    relatedIssuedAt: c.relatedIssuedAt,
  };
}

export const PLATFORM_VAT_RATE = 20;

/** The platform's commission on a deal: the full management fee and the fixed commission (HT). A
 * deposit stage carries the deposit's share of it; a final one the rest, deducting the deposit
 * commission invoice. */
export function commissionDocument(
  c: Omit<Common, "issuedBy"> & {
    stage: "deposit" | "final" | "full";
    /** Share of the commission for a deposit stage (the deposit's share of the quote), 0-1. */
    share: number;
    deposit: Deduction | null;
    proforma: boolean;
  },
): BillingDocument {
  const fullLines: DocumentLine[] = [
    {
      label: `Gestion de projet (${c.quote.commissionRate} % du montant de la prestation)`,
      qty: 1,
      unitPriceHT: c.quote.managementFee,
      vatRate: PLATFORM_VAT_RATE,
      totalHT: c.quote.managementFee,
    },
    ...(c.quote.fixedCommission > 0
      ? [{
        label: "Commission fixe",
        qty: 1,
        unitPriceHT: c.quote.fixedCommission,
        vatRate: PLATFORM_VAT_RATE,
        totalHT: c.quote.fixedCommission,
      }]
      : []),
  ];
  const lines = c.stage === "deposit"
    ? fullLines.map((l) => {
      const amount = Math.round(l.totalHT * c.share);
      return { ...l, label: `${l.label} — part de l'acompte`, unitPriceHT: amount, totalHT: amount };
    })
    : fullLines;
  const deposit = c.deposit ? { ...c.deposit, inLines: true } : null;
  const t = deposit
    ? finalWithDeposit(lines, deposit, PLATFORM_VAT_RATE)
    : { ...totalsOf(lines), lines, rounding: 0 };
  const kindKey = `commission_${c.proforma ? "proforma_" : ""}${c.stage}` as DocumentKind;
  return {
    kind: kindKey,
    title: TITLES[kindKey],
    number: c.proforma ? null : c.number,
    issuedAt: c.issuedAt,
    seller: c.seller,
    buyer: c.buyer,
    issuedBy: null,
    reference: reference(c.quote),
    ...t,
    deductions: deposit ? [deposit] : [],
    amountDue: t.totalTTC + t.rounding,
    amountPaid: 0,
    paidAt: null,
    paymentTerms:
      "Payable à réception, par compensation sur les sommes encaissées pour le compte du partenaire.",
    mentions: mentionsFor(c.seller, c.buyer, null, PLATFORM_VAT_RATE),
    notes: [],
    relatedNumber: null,
  };
}

/** The platform's credit note to a partner on a commission invoice (series CA): when a customer is
 * refunded, the commission invoiced on the refunded payment is credited in the same proportion
 * (`amountTTC`, at the platform's VAT rate), so the platform keeps no commission on money the partner
 * no longer keeps. Nothing is paid out: it is deducted from what the partner owes. */
export function commissionCreditNoteDocument(
  c: Omit<Common, "issuedBy" | "notes"> & {
    amountTTC: number;
    related: string;
    relatedIssuedAt: string | null;
    /** The customer's credit note that caused it. */
    customerCreditNote: string;
  },
): BillingDocument {
  const { ht, vat, rounding } = splitTTC(c.amountTTC, PLATFORM_VAT_RATE);
  return {
    kind: "commission_credit_note",
    title: TITLES.commission_credit_note,
    number: c.number,
    issuedAt: c.issuedAt,
    seller: c.seller,
    buyer: c.buyer,
    issuedBy: null,
    reference: reference(c.quote),
    lines: [{
      label:
        `Commission créditée sur la facture n° ${c.related} — remboursement client (avoir n° ${c.customerCreditNote})`,
      qty: 1,
      unitPriceHT: ht,
      vatRate: PLATFORM_VAT_RATE,
      totalHT: ht,
    }],
    vat: [{ rate: PLATFORM_VAT_RATE, base: ht, amount: vat }],
    totalHT: ht,
    totalVAT: vat,
    totalTTC: ht + vat,
    rounding,
    deductions: [],
    amountDue: ht + vat + rounding,
    amountPaid: 0,
    paidAt: null,
    paymentTerms:
      "Porté au crédit du partenaire, par compensation sur les sommes encaissées pour son compte.",
    mentions: mentionsFor(c.seller, c.buyer, null, PLATFORM_VAT_RATE),
    notes: [],
    relatedNumber: c.related,
    relatedIssuedAt: c.relatedIssuedAt,
  };
}

/** The share of a commission invoice to credit after refunds: the commission it asked (`commissionDue`,
 * cents TTC) times what was refunded of the payment, rounded once on the running total so that several
 * partial refunds never credit a cent more than one refund of their sum would (`alreadyCredited` is what
 * earlier commission credit notes of the same payment gave back). */
export function commissionCredit(
  commissionDue: number,
  paymentAmount: number,
  refundedSoFar: number,
  alreadyCredited: number,
): number {
  if (paymentAmount <= 0) return 0;
  const refunded = Math.min(refundedSoFar, paymentAmount);
  return Math.round((commissionDue * refunded) / paymentAmount) - alreadyCredited;
}

/** A one-line French address ("27 rue Sainte-Catherine 33000 Bordeaux", "5 place X, 69002 Lyon") as
 * address lines with the postcode and city on their own last line, as invoices print them and the
 * Factur-X address parts need them (BT-53, BT-52); text without a French postcode stays one line. */
export function addressLines(text: string): string[] {
  const trimmed = text.trim().replace(/\s+/g, " ");
  if (!trimmed) return [];
  const match = /^(.*?)[\s,]+(\d{5} [^\d,][^,]*)$/.exec(trimmed);
  if (!match || !match[1]) return [trimmed];
  return [match[1].replace(/,$/, ""), match[2]];
}

/** "FA-2026-3F2A9C-00012": series, year, the issuer's short code, a 5-digit sequence. */
export function invoiceNumber(series: string, year: number, issuer: string, sequence: number): string {
  const code = issuer === "platform" ? "CC" : issuer.replace(/-/g, "").slice(0, 6).toUpperCase();
  return `${series}-${year}-${code}-${String(sequence).padStart(5, "0")}`;
}
