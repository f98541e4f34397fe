// The download links of a deal's billing documents for the back office (spec 001 §2.1 header
// 'download-quote link', §2.9 the partner's invoices menu, §2.12 the admin list's 'download quote' and
// 'invoice downloads'), pure: server pages and islands build the same links from the same list data.
// An invoice is listed once it is due — a payment of its kind was received (deal_payments.kind):
// the customer's invoice issued in the partner's name and the platform's commission invoice to the
// partner. Proformas follow the rule of the customer's quote page (spec 000 §4 'Deal payment stage'):
// only while nothing is paid, when the admin setting showProformaInvoice is on and the deal is not
// refused — the deposit and balance proformas when the quote offers a deposit, the full one otherwise.
// Who may open each link is decided by the download use case (lib/billing/use_cases/download.ts), not here.
import { TITLES } from "./document.ts";
import { type DealStatus, REFUSED_STATUSES } from "../deals/rules.ts";

export type PaidKind = "deposit" | "balance" | "total";
export type DocumentStage = "deposit" | "final" | "full";

export interface DocumentLink {
  label: string;
  href: string;
  /** The customer's documents (issued in the partner's name) or the partner's commission invoices. */
  group: "customer" | "commission";
}

export interface DealDocumentsInput {
  token: string;
  status: DealStatus;
  /** The kinds of payment the deal received. */
  paidKinds: readonly string[];
  /** adminSettings.showProformaInvoice. */
  showProforma?: boolean;
  /** settings.hasDeposit as the server offers it (lib/deals/rules.ts depositOffered). */
  depositOffered?: boolean;
}

const STAGE_OF: Record<PaidKind, DocumentStage> = { deposit: "deposit", balance: "final", total: "full" };
const ORDER: PaidKind[] = ["deposit", "balance", "total"];

export const quoteDownloadPath = (dealId: number) => `/quote/download/${dealId}`;
export const QUOTE_DOWNLOAD_LABEL = "Télécharger le devis";
/** An issued invoice or credit note by its id (GET /quote/invoice/{id}). */
export const issuedDocumentPath = (invoiceId: string) => `/quote/invoice/${invoiceId}`;

const customerInvoicePath = (token: string, stage: DocumentStage) =>
  `/api/customer/deal/download/invoice/${token}/${stage}`;
const customerProformaPath = (token: string, stage: DocumentStage) =>
  `/api/customer/deal/download/proforma/${token}/${stage}`;
const commissionInvoicePath = (token: string, stage: DocumentStage) =>
  `/api/company/deal/download/invoice/${token}/${stage}`;

export interface ProformaInput {
  status: DealStatus;
  /** adminSettings.showProformaInvoice. */
  showProforma?: boolean;
  /** settings.hasDeposit as the server offers it. */
  depositOffered?: boolean;
  /** Whether any payment was received (a deposit, the balance or the total). */
  anythingPaid: boolean;
}

/** The proformas a deal shows — on its customer's page, in the back office — and the only ones its
 * customer and its partner may download (lib/billing/access.ts): while nothing is paid, when the admin
 * shows proformas and the deal is not refused; the deposit's and the balance's when the quote offers a
 * deposit, the full one otherwise (spec 000 §4 'Deal payment stage'). */
export function proformaStages(deal: ProformaInput): DocumentStage[] {
  if (deal.anythingPaid || !deal.showProforma || REFUSED_STATUSES.includes(deal.status)) return [];
  return deal.depositOffered === false ? ["full"] : ["deposit", "final"];
}

/** The invoices (and proformas) a deal has for its partner and the admins, customer documents first. */
export function dealDocumentLinks(deal: DealDocumentsInput): DocumentLink[] {
  const paid = ORDER.filter((kind) => deal.paidKinds.includes(kind));
  const links: DocumentLink[] = paid.map((kind) => ({
    label: TITLES[STAGE_OF[kind]],
    href: customerInvoicePath(deal.token, STAGE_OF[kind]),
    group: "customer",
  }));
  {
    for (const stage of proformaStages({ ...deal, anythingPaid: paid.length > 0 })) {
      links.push({
        label: TITLES[`proforma_${stage}` as const],
        href: customerProformaPath(deal.token, stage),
        group: "customer",
      });
    }
  }
  for (const kind of paid) {
    links.push({
      label: TITLES[`commission_${STAGE_OF[kind]}` as const],
      href: commissionInvoicePath(deal.token, STAGE_OF[kind]),
      group: "commission",
    });
  }
  return links;
}

export const INVOICES_MENU_LABEL = "Factures";
export const DOCUMENT_GROUP_LABELS: Record<DocumentLink["group"], string> = {
  customer: "Factures client",
  commission: "Factures de commission",
};
