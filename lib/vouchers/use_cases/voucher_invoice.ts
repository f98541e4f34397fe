// GET /discount/invoice/{id} (spec 000 §7): the invoice of a voucher's sale, to its buyer and admins only
// (it names the buyer: a recipient or a customer who used the code does not get it). The voucher is read
// under the reader's RLS, then its invoice as the system (invoices' policies follow deals; this one has
// none), rendered as Factur-X.
import { type Actor, requireSignedIn, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import type { BillingDocument } from "../../billing/document.ts";
import { renderInvoicePdf } from "../../billing/facturx.ts";
import { VOUCHER_MESSAGES } from "../rules.ts";
import { invoiceDocument, voucherById } from "../store.ts";
import { type VoucherFile, VOUCHERS } from "./voucher_pdf.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function voucherInvoicePdf(deps: Deps, actor: Actor, id: string): Promise<VoucherFile> {
  const user = requireSignedIn(actor);
  if (!UUID.test(id)) throw new AppError("not_found", VOUCHER_MESSAGES.notFound);
  const voucher = await transactionAs(deps.db, user, (tx) => voucherById(tx, id));
  if (!voucher || (!voucher.bought && user.user.type !== "Admin")) {
    throw new AppError("not_found", VOUCHER_MESSAGES.notFound);
  }
  if (!voucher.invoiceId) throw new AppError("conflict", VOUCHER_MESSAGES.invoiceNotYet);
  const document = await transactionAs(deps.db, VOUCHERS, (tx) => invoiceDocument(tx, voucher.invoiceId!));
  if (!document) throw new AppError("conflict", VOUCHER_MESSAGES.invoiceNotYet);
  const doc = document as unknown as BillingDocument;
  return { fileName: `facture-bon-cadeau-${doc.number}.pdf`, bytes: await renderInvoicePdf(doc) };
}
