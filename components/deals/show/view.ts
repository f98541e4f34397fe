// What the customer deal page (/deal/show/{token}) and the quote payment page (/devis/{slug}) show,
// worked out once from publicDeal()'s answer: who may do what (spec 000 §6), the payment options by
// payment stage (§4 'Deal payment stage', 'Quote payment type'), the documents to download and the key
// figures. Pure: the pages render it, tests read it. The server enforces every one of these rules
// again (lib/deals/use_cases/, lib/payments/use_cases/, lib/billing/use_cases/).
import type { PublicDeal, Relation } from "../../../lib/deals/use_cases/public_deal.ts";
import type { DealPayload } from "../../../lib/deals/payload.ts";
import {
  COMMITTED_STATUSES,
  depositOffered,
  depositPercentage,
  durationLabel,
  REFUSED_STATUSES,
} from "../../../lib/deals/rules.ts";
import { proformaStages } from "../../../lib/billing/links.ts";
import { euros, isoDateFr, numberFr } from "../../../lib/deals/format.ts";
import {
  type PayableDeal,
  PAYMENT_MESSAGES,
  paymentStage,
  type PaymentType,
  planPayment,
  type QuotePaymentType,
  quotePaymentType,
} from "../../../lib/payments/rules.ts";

export const LOGIN_PROMPT = "Veuillez-vous connecter pour télécharger ou accepter votre devis";

/** One payment the customer may make now. Amounts in cents (the server computes them again). */
export interface PaymentOption {
  type: PaymentType;
  label: string;
  amount: number;
  /** The login dialog's message when a visitor presses it (spec 000 §4 'Pay without login'). */
  loginMessage: string;
}

export interface DocumentLink {
  label: string;
  href: string;
}

export interface Fact {
  label: string;
  value: string;
  testId: string;
}

const num = (value: unknown): number => {
  const n = typeof value === "number" ? value : Number(String(value ?? "").replace(",", "."));
  return Number.isFinite(n) ? n : 0;
};

/** The date of the service: "12/06/2027", or 'Date à confirmer'. */
function serviceDateLabel(properties: Record<string, unknown>): string {
  const value = properties.deal_prestation_date;
  return isoDateFr(typeof value === "string" ? value.slice(0, 10) : null);
}

export function facts(deal: DealPayload): Fact[] {
  const p = deal.properties;
  const guests = num(p.nombre_de_participants);
  const duration = num(p.duree_2_service);
  const time = typeof p.horaire_souhaite === "string" && /^\d{2}:\d{2}$/.test(p.horaire_souhaite)
    ? p.horaire_souhaite.replace(":", "h")
    : "À confirmer";
  return [
    { label: "Date", value: serviceDateLabel(p), testId: "fact-date" },
    { label: "Participants", value: guests > 0 ? String(guests) : "—", testId: "fact-guests" },
    { label: "Horaire souhaité", value: time, testId: "fact-time" },
    {
      label: "Durée du service",
      value: duration > 0 ? durationLabel(duration) : "—",
      testId: "fact-duration",
    },
    {
      label: "Prix moyen par cocktail",
      value: deal.totals.averageCocktailPrice > 0 ? `${euros(deal.totals.averageCocktailPrice)} HT` : "—",
      testId: "fact-cocktail-price",
    },
    {
      label: "Prix par personne",
      value: deal.totals.pricePerPerson > 0 ? `${euros(deal.totals.pricePerPerson)} HT` : "—",
      testId: "fact-person-price",
    },
  ];
}

/** The deal's payment state with its amounts in cents, as the server read them: what the payment rules
 * (lib/payments/rules.ts) take. */
export function payableOf(page: Pick<PublicDeal, "deal" | "cents">): PayableDeal {
  const { deal, cents } = page;
  return {
    status: deal.status,
    settings: deal.settings,
    totalTTC: cents.totalTTC,
    depositAmount: cents.depositAmount,
    totalAmountPaid: cents.totalAmountPaid,
    depositPaidAt: deal.depositPaidAt !== null,
    paidAt: deal.paidAt !== null,
  };
}

/** The quote payment page's type (deposit, balance, total, paid), from the deal as shown. */
export function quoteTypeOf(page: Pick<PublicDeal, "deal" | "cents">): QuotePaymentType {
  return quotePaymentType(payableOf(page));
}

/** The payments open now, as the server will charge them (planPayment): deposit and total before
 * anything is paid (deposit unless the deal has none), the remaining balance after a deposit, nothing
 * once paid, refused or not payable. */
export function paymentOptions(deal: PayableDeal): PaymentOption[] {
  if (deal.depositPaidAt) {
    const balance = planPayment(deal, "remaining");
    return balance.ok
      ? [{
        type: "remaining",
        label: "Régler le solde",
        amount: balance.amount,
        loginMessage: PAYMENT_MESSAGES.loginForBalance,
      }]
      : [];
  }
  const options: PaymentOption[] = [];
  const deposit = planPayment(deal, "deposit");
  if (deposit.ok) {
    options.push({
      type: "deposit",
      label: `Régler l'acompte (${depositPercentage(deal.settings)} %)`,
      amount: deposit.amount,
      loginMessage: PAYMENT_MESSAGES.loginForDeposit,
    });
  }
  const full = planPayment(deal, "full");
  if (full.ok) {
    options.push({
      type: "full",
      label: "Régler la totalité",
      amount: full.amount,
      loginMessage: PAYMENT_MESSAGES.loginForTotal,
    });
  }
  return options;
}

const DOWNLOAD = "/api/customer/deal/download";

/** The quote and the invoices of its payment stage (spec 000 §4 'Deal payment stage'). */
const PROFORMA_LABELS = {
  deposit: "Facture proforma d'acompte",
  final: "Facture proforma de solde",
  full: "Facture proforma",
} as const;

export function documentLinks(deal: DealPayload): DocumentLink[] {
  const token = deal.token;
  const links: DocumentLink[] = [{ label: "Télécharger le devis (PDF)", href: `${DOWNLOAD}/quote/${token}` }];
  const stage = paymentStage({ depositPaidAt: deal.depositPaidAt !== null, paidAt: deal.paidAt !== null });
  const invoice = (label: string, kind: string) =>
    links.push({ label, href: `${DOWNLOAD}/invoice/${token}/${kind}` });
  const proforma = (label: string, kind: string) =>
    links.push({ label, href: `${DOWNLOAD}/proforma/${token}/${kind}` });
  if (stage === "deposit") invoice("Facture d'acompte", "deposit");
  if (stage === "paid_after_deposit") {
    invoice("Facture d'acompte", "deposit");
    invoice("Facture de solde", "final");
  }
  if (stage === "paid") invoice("Facture", "full");
  // The same rule as the downloads and the back office (lib/billing/links.ts proformaStages).
  const proformas = proformaStages({
    status: deal.status,
    showProforma: deal.adminSettings.showProformaInvoice,
    depositOffered: depositOffered(deal.settings),
    anythingPaid: stage !== "none",
  });
  for (const kind of proformas) proforma(PROFORMA_LABELS[kind], kind);
  return links;
}

/** The invoice of the latest payment (deposit, balance or full), or null while nothing is paid: what the
 * payment card and the success message after a payment link to. */
export function latestInvoice(deal: DealPayload): DocumentLink | null {
  const stage = paymentStage({ depositPaidAt: deal.depositPaidAt !== null, paidAt: deal.paidAt !== null });
  const href = (kind: string) => `${DOWNLOAD}/invoice/${deal.token}/${kind}`;
  if (stage === "deposit") return { label: "Télécharger la facture d'acompte", href: href("deposit") };
  if (stage === "paid_after_deposit") {
    return { label: "Télécharger la facture de solde", href: href("final") };
  }
  if (stage === "paid") return { label: "Télécharger la facture", href: href("full") };
  return null;
}

/** The success messages of a card payment (spec 000 §8), as the server flashes them after one. */
export function isPaymentSuccess(message: string): boolean {
  return message === PAYMENT_MESSAGES.depositPaid || message === PAYMENT_MESSAGES.fullPaid;
}

export interface DealShowView {
  relation: Relation;
  /** Its own customer: pays, downloads, chooses, refuses. */
  isCustomer: boolean;
  /** The deal's customer, its partner and admins download its documents (lib/billing/use_cases/download.ts). */
  canDownload: boolean;
  canRefuse: boolean;
  /** Saving choices is open until the deal is refused or won (saveChoices). */
  canChoose: boolean;
  /** Admins and the deal's partner: 'Modifier le devis'. */
  canEdit: boolean;
  refused: boolean;
  options: PaymentOption[];
  documents: DocumentLink[];
  /** What a visitor's login prompt tells them after login. */
  loginMessage: string | undefined;
}

export function dealShowView(page: PublicDeal): DealShowView {
  const { relation, deal } = page;
  const isCustomer = relation === "customer";
  const refused = REFUSED_STATUSES.includes(deal.status);
  const options = refused ? [] : paymentOptions(payableOf(page));
  return {
    relation,
    isCustomer,
    canDownload: isCustomer || relation === "partner" || relation === "admin",
    canRefuse: isCustomer && !refused && !COMMITTED_STATUSES.includes(deal.status),
    canChoose: isCustomer && !refused && deal.status !== "win",
    canEdit: relation === "partner" || relation === "admin",
    refused,
    options,
    documents: documentLinks(deal),
    loginMessage: options[0]?.loginMessage,
  };
}

/** The VAT line's label: the rate the totals were computed with (20 % unless the partner is exempt,
 * in which case the quote carries none). */
export function vatLabel(deal: DealPayload, exempt: boolean): string {
  if (deal.parameters.vat === 0) return exempt ? "TVA non applicable (art. 293 B du CGI)" : "TVA 0 %";
  return `TVA ${numberFr(deal.parameters.vat)} %`;
}

export function editPath(id: number): string {
  return `/dashboard#/espace-partenaire/deal/${id}`;
}
