// GET /api/customer/registration/receipt/{id}, /invoice/{id} and /credit-note/{id} (spec 000 §7
// 'Downloads'): the receipt (RE, a plain PDF), the invoice (FA, Factur-X) of the order a registration was
// paid by, or the credit note (AV, Factur-X) of its refund once an admin canceled it. Only the
// registration's customer and admins: partners 403; another customer reads no such registration (RLS:
// 404). The customer's row offers the invoice once invoiced and the receipt unless canceled
// (registrationActions, §4); admins read both whatever the status.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { renderPdf } from "../../billing/pdf.ts";
import { renderInvoicePdf } from "../../billing/facturx.ts";
import { fileName } from "../../billing/use_cases/document_inputs.ts";
import { registrationActions, type RegistrationStatus } from "../../sessions/rules.ts";
import { CHECKOUT_MESSAGES } from "../rules.ts";
import { registrationDocument } from "../store.ts";

const SERIES = { receipt: "RE", invoice: "FA", "credit-note": "AV" } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function registrationPdf(
  deps: Deps,
  actor: Actor,
  id: string,
  what: "receipt" | "invoice" | "credit-note",
): Promise<{ fileName: string; bytes: Uint8Array }> {
  const viewer = requireRole(actor, ["Customer", "Admin"]);
  if (!UUID.test(id)) throw new AppError("not_found", CHECKOUT_MESSAGES.registrationNotFound);
  const row = await transactionAs(
    deps.db,
    viewer,
    (tx) => registrationDocument(tx, id.toLowerCase(), SERIES[what]),
  );
  if (!row) throw new AppError("not_found", CHECKOUT_MESSAGES.registrationNotFound);
  const offered =
    registrationActions(row.status as RegistrationStatus)[what === "credit-note" ? "creditNote" : what];
  if (!row.document || (viewer.user.type === "Customer" && !offered)) {
    throw new AppError("not_found", CHECKOUT_MESSAGES.documentNotAvailable);
  }
  const bytes = what !== "receipt" ? await renderInvoicePdf(row.document) : await renderPdf(row.document);
  return { fileName: fileName(row.document), bytes };
}
