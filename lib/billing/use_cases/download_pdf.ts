// Billing documents as PDF files for the download routes (routes/billing_downloads.ts): each function
// reads the document through the download use case (./download.ts, which applies the access rule: the
// deal's customer, its partner, admins; commission documents not the customer) and renders it — an
// issued invoice or credit note as Factur-X (PDF/A-3 with its EN 16931 XML), a quote or a proforma as
// a plain PDF.
import { type Actor, requireSignedIn, statementTx } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { dealTokenById } from "../../deals/store.ts";
import { DEAL_MESSAGES, DEAL_TOKEN } from "../../deals/rules.ts";
import {
  dealDocument,
  DOCUMENT_NOT_AVAILABLE,
  type Download,
  type DownloadRequest,
  invoiceById,
  type Stage,
} from "./download.ts";
import { issueDealInvoices } from "./issue_invoices.ts";
import { paymentDealId } from "../store.ts";
import { renderPdf } from "../pdf.ts";
import { renderInvoicePdf } from "../facturx.ts";

export interface PdfFile {
  fileName: string;
  bytes: Uint8Array;
}

const STAGES: readonly Stage[] = ["deposit", "final", "full"];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DEAL_ID = /^[1-9]\d{0,14}$/;

async function toPdf(download: Download): Promise<PdfFile> {
  // A receipt (an order's RE) is numbered but no invoice: a plain PDF.
  const bytes = download.issued && download.document.kind !== "receipt"
    ? await renderInvoicePdf(download.document)
    : await renderPdf(download.document);
  return { fileName: download.fileName, bytes };
}

/** "invoice" | "proforma" of the customer side, or the partner's commission documents (company side). */
export function downloadRequest(
  side: "customer" | "company",
  what: string,
  stage: string,
): DownloadRequest {
  if (!STAGES.includes(stage as Stage)) throw new AppError("not_found", DOCUMENT_NOT_AVAILABLE);
  const s = stage as Stage;
  if (what === "invoice") {
    return side === "customer" ? { what, stage: s } : { what: "commission_invoice", stage: s };
  }
  if (what === "proforma") {
    return side === "customer" ? { what, stage: s } : { what: "commission_proforma", stage: s };
  }
  throw new AppError("not_found", DOCUMENT_NOT_AVAILABLE);
}

/** GET /api/customer/deal/download/… and /api/company/deal/download/…: a document of the deal `token`. */
export async function dealPdf(
  deps: Deps,
  actor: Actor,
  token: string,
  request: DownloadRequest,
): Promise<PdfFile> {
  return await toPdf(await dealDocument(deps, actor, token, request));
}

/** GET /quote/download/{id}: the quote of a deal by its numeric id (the deal as the actor may read it:
 * RLS) — or by its token, as the quote payment page links it. */
export async function quotePdf(deps: Deps, actor: Actor, idOrToken: string): Promise<PdfFile> {
  requireSignedIn(actor);
  let token: string | null = idOrToken.toLowerCase();
  if (DEAL_ID.test(idOrToken)) token = await dealTokenById(statementTx(deps.db, actor), Number(idOrToken));
  if (!token || !DEAL_TOKEN.test(token)) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  return await dealPdf(deps, actor, token, { what: "quote" });
}

/** GET /quote/invoice/{orderId}: an invoice by its id or by the id of the payment it acknowledges
 * (invoiceById; RLS decides who reads it). A payment the billing job has not invoiced yet is invoiced
 * first, as dealDocument does: the deal of the payment as the actor sees it (RLS), then the issuer. */
export async function invoicePdf(deps: Deps, actor: Actor, id: string): Promise<PdfFile> {
  requireSignedIn(actor);
  if (!UUID.test(id)) throw new AppError("not_found", DOCUMENT_NOT_AVAILABLE);
  const key = id.toLowerCase();
  try {
    return await toPdf(await invoiceById(deps, actor, key));
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "not_found") throw error;
    const dealId = await paymentDealId(statementTx(deps.db, actor), key);
    if (dealId === null || (await issueDealInvoices(deps, dealId)) === 0) throw error;
    return await toPdf(await invoiceById(deps, actor, key));
  }
}
