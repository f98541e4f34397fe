// Any document of a deal for download, with its access rule: customer documents for the deal's
// customer, its partner and admins; commission documents for its partner and admins (RLS decides which
// deals). Issued invoices and credit notes are read as issued (issued first if the billing queue has
// not got to them yet); quotes and proformas are built from the deal as it is now.
import { type Actor, requireRole, requireSignedIn, systemActor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../db/database.ts";
import type { Config } from "../../config.ts";
import { AppError } from "../../errors.ts";
import { DEAL_MESSAGES, DEAL_TOKEN } from "../../deals/rules.ts";
import { depositAmountOf } from "../../payments/rules.ts";
import {
  balanceDocument,
  type BillingDocument,
  commissionDocument,
  type Deduction,
  depositDocument,
  type Party,
  quoteDocument,
} from "../document.ts";
import { checkDocumentAccess, type DocumentViewer } from "../access.ts";
import { contactFor, type ContactRow } from "../../deals/store.ts";
import {
  billingDealById,
  billingDealByToken,
  type DealBillingRow,
  depositInvoice,
  issuedDocumentById,
  latestIssuedDocument,
} from "../store.ts";
import {
  buyerAsPartnerSees,
  customerParty,
  deduction,
  fileName,
  isoDay,
  notes,
  partnerCopy,
  platformParty,
  sameParty,
  snapshot,
  userParty,
} from "./document_inputs.ts";
import { issueDealInvoices } from "./issue_invoices.ts";

const BILLING = systemActor("payments");

export const DOCUMENT_NOT_AVAILABLE = "Ce document n'est pas encore disponible pour ce devis.";
const LOGIN_TO_DOWNLOAD = "Veuillez-vous connecter pour télécharger ou accepter votre devis";

export type Stage = "deposit" | "final" | "full";
export type DownloadRequest =
  | { what: "quote" }
  | { what: "invoice"; stage: Stage }
  | { what: "proforma"; stage: Stage }
  | { what: "commission_invoice"; stage: Stage }
  | { what: "commission_proforma"; stage: Stage };

export interface Download {
  document: BillingDocument;
  fileName: string;
  /** An issued invoice or credit note, rendered as Factur-X (a partner's masked copy is not: it is not
   * the original e-invoice). */
  issued: boolean;
}

/** Who may read a deal's documents: the deal as the actor sees it (RLS) — its customer, its partner
 * or an admin; commission documents not its customer — and which documents (lib/billing/access.ts).
 * For a partner's customer documents, the contact as it may see it (contactFor). */
async function visibleDeal(
  tx: Tx,
  actor: Actor,
  token: string,
  request: DownloadRequest,
): Promise<{ deal: DealBillingRow; viewer: DocumentViewer; partnerContact: ContactRow | null }> {
  const commission = request.what.startsWith("commission");
  const user = requireRole(actor, commission ? ["Admin", "Company"] : ["Admin", "Company", "Customer"], {
    loginMessage: LOGIN_TO_DOWNLOAD,
  });
  if (!DEAL_TOKEN.test(token)) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  const deal = await billingDealByToken(tx, token);
  if (!deal) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  const viewer = user.user.type;
  checkDocumentAccess(viewer, deal, request);
  const partnerContact = viewer === "Company" && !commission
    ? await contactFor(tx, "Company", deal.id)
    : null;
  return { deal, viewer, partnerContact };
}

/** A partner's view of an issued customer document: the original when it may see every detail of the
 * buyer it carries, else its copy (the buyer as it sees them, no Factur-X XML). */
async function asPartnerSees(
  deps: Deps,
  deal: DealBillingRow,
  document: BillingDocument,
  contact: ContactRow | null,
): Promise<Download> {
  const full = await transactionAs(deps.db, BILLING, (sys) => customerParty(sys, deal));
  const seen = buyerAsPartnerSees(full, contact, deal.customerId !== null);
  if (sameParty(seen, full)) return { document, fileName: fileName(document), issued: true };
  return { document: partnerCopy(document, seen), fileName: fileName(document), issued: false };
}

export async function dealDocument(
  deps: Deps,
  actor: Actor,
  token: string,
  request: DownloadRequest,
): Promise<Download> {
  // One transaction at a time (never nested: the embedded database has one connection).
  const { deal, viewer, partnerContact } = await transactionAs(
    deps.db,
    actor,
    (tx) => visibleDeal(tx, actor, token, request),
  );
  const forPartner = viewer === "Company" && !request.what.startsWith("commission");
  if (request.what === "invoice" || request.what === "commission_invoice") {
    // An invoice a payment calls for is issued first if the billing job has not got to it yet.
    await issueDealInvoices(deps, deal.id);
    const stage = request.stage;
    const series = request.what === "invoice" ? "FA" : "CO";
    const document = await transactionAs(
      deps.db,
      actor,
      (tx) => latestIssuedDocument(tx, deal.id, series, stage),
    );
    if (!document) throw new AppError("not_found", DOCUMENT_NOT_AVAILABLE);
    if (forPartner) return await asPartnerSees(deps, deal, document, partnerContact);
    return { document, fileName: fileName(document), issued: true };
  }
  // Quotes and proformas are built from the deal as it is now, as the system: the seller's and the
  // buyer's identities are not all readable by every party. A partner's show the buyer as it sees them.
  const built = await transactionAs(deps.db, BILLING, async (sys) => {
    const full = await customerParty(sys, deal);
    const buyer = forPartner ? buyerAsPartnerSees(full, partnerContact, deal.customerId !== null) : full;
    return await buildUnissued(sys, deps.config, deal, request, buyer);
  });
  return { document: built, fileName: fileName(built), issued: false };
}

async function buildUnissued(
  sys: Tx,
  config: Pick<Config, "platform">,
  deal: DealBillingRow,
  request: DownloadRequest,
  buyer: Party,
): Promise<BillingDocument> {
  const seller = (await userParty(sys, deal.companyId, true)) ?? platformParty(config);
  const platform = platformParty(config);
  const quote = snapshot(deal);
  const issuedAt = isoDay(new Date());
  const issuedBy = deal.companyId ? platform : null;
  if (request.what === "quote") {
    return quoteDocument({
      number: null,
      issuedAt,
      seller,
      buyer,
      issuedBy,
      quote,
      notes: await notes(sys, "quote"),
    });
  }
  if (request.what === "invoice" || request.what === "commission_invoice") {
    throw new Error("issued documents are read, not built");
  }
  const invoiceNotes = await notes(sys, "invoice");
  const depositTTC = depositAmountOf({ settings: deal.settings, totalTTC: quote.totalTTC });
  const deposited = await depositInvoice(sys, deal.id, request.what === "proforma" ? "FA" : "CO");
  if (request.what === "proforma") {
    const depositDoc = depositDocument({
      number: null,
      issuedAt,
      seller,
      buyer,
      issuedBy,
      quote,
      notes: invoiceNotes,
      amountTTC: depositTTC,
      paidAt: null,
      proforma: true,
    });
    if (request.stage === "deposit") return depositDoc;
    const deposit: Deduction | null = request.stage !== "final"
      ? null
      : deposited
      ? deduction(deposited, "Acompte versé")
      : {
        label: "Acompte à verser",
        invoiceNumber: "—",
        totalHT: depositDoc.totalHT,
        totalVAT: depositDoc.totalVAT,
        totalTTC: depositDoc.totalTTC,
        settled: depositDoc.totalTTC + depositDoc.rounding,
      };
    return balanceDocument({
      number: null,
      issuedAt,
      seller,
      buyer,
      issuedBy,
      quote,
      notes: invoiceNotes,
      deposit,
      amountPaid: 0,
      paidAt: null,
      proforma: true,
    });
  }
  return commissionDocument({
    number: null,
    issuedAt,
    seller: platform,
    buyer: seller,
    quote,
    stage: request.stage,
    share: quote.totalTTC > 0 ? depositTTC / quote.totalTTC : 0,
    deposit: request.stage === "final" && deposited
      ? deduction(deposited, "Commission déjà facturée sur l'acompte")
      : null,
    proforma: true,
  });
}

/** An invoice or credit note by its id (GET /quote/invoice/{id} and the payments list): RLS decides
 * who reads it; a partner reads a customer document as it sees the buyer (asPartnerSees). */
export async function invoiceById(deps: Deps, actor: Actor, id: string): Promise<Download> {
  const user = requireSignedIn(actor);
  const found = await transactionAs(deps.db, user, async (tx) => {
    const document = await issuedDocumentById(tx, id);
    if (!document) throw new AppError("not_found", DOCUMENT_NOT_AVAILABLE);
    if (user.user.type !== "Company" || document.kind.startsWith("commission")) return { document };
    const deal = await billingDealById(tx, document.reference.dealId);
    if (!deal) throw new AppError("not_found", DOCUMENT_NOT_AVAILABLE);
    return { document, deal, contact: await contactFor(tx, "Company", deal.id) };
  });
  if (found.deal) return await asPartnerSees(deps, found.deal, found.document, found.contact);
  return { document: found.document, fileName: fileName(found.document), issued: true };
}
