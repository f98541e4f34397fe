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
  quoteDocument,
} from "../document.ts";
import {
  billingDealByToken,
  type DealBillingRow,
  depositInvoice,
  issuedDocumentById,
  latestIssuedDocument,
} from "../store.ts";
import {
  customerParty,
  deduction,
  fileName,
  isoDay,
  notes,
  platformParty,
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
  /** An issued invoice or credit note (rendered as Factur-X). */
  issued: boolean;
}

/** Who may read a deal's documents: the deal as the actor sees it (RLS) — its customer, its partner
 * or an admin; commission documents not its customer. */
async function visibleDeal(
  tx: Tx,
  actor: Actor,
  token: string,
  commission: boolean,
): Promise<DealBillingRow> {
  requireRole(actor, commission ? ["Admin", "Company"] : ["Admin", "Company", "Customer"], {
    loginMessage: LOGIN_TO_DOWNLOAD,
  });
  if (!DEAL_TOKEN.test(token)) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  const deal = await billingDealByToken(tx, token);
  if (!deal) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  return deal;
}

export async function dealDocument(
  deps: Deps,
  actor: Actor,
  token: string,
  request: DownloadRequest,
): Promise<Download> {
  const commission = request.what.startsWith("commission");
  // One transaction at a time (never nested: the embedded database has one connection).
  const deal = await transactionAs(deps.db, actor, (tx) => visibleDeal(tx, actor, token, commission));
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
    return { document, fileName: fileName(document), issued: true };
  }
  // Quotes and proformas are built from the deal as it is now, as the system: the seller's and the
  // buyer's identities are not all readable by every party.
  const built = await transactionAs(
    deps.db,
    BILLING,
    (sys) => buildUnissued(sys, deps.config, deal, request),
  );
  return { document: built, fileName: fileName(built), issued: false };
}

async function buildUnissued(
  sys: Tx,
  config: Pick<Config, "platform">,
  deal: DealBillingRow,
  request: DownloadRequest,
): Promise<BillingDocument> {
  const seller = (await userParty(sys, deal.companyId, true)) ?? platformParty(config);
  const platform = platformParty(config);
  const buyer = await customerParty(sys, deal);
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

/** An invoice or credit note by its id (GET /quote/invoice/{id} and the payments list): RLS decides. */
export async function invoiceById(deps: Deps, actor: Actor, id: string): Promise<Download> {
  const user = requireSignedIn(actor);
  return await transactionAs(deps.db, user, async (tx) => {
    const document = await issuedDocumentById(tx, id);
    if (!document) throw new AppError("not_found", DOCUMENT_NOT_AVAILABLE);
    return { document, fileName: fileName(document), issued: true };
  });
}
