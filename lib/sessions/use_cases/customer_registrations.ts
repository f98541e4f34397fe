// GET /api/customer/registrations and the page 'Vos sessions' (spec 000 §2, §3 'Session registration'):
// the customer's own registrations. Amounts in euros in the API (the spec's payload), cents for pages.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { centsToEuros } from "../../money.ts";
import { registrationActions, type RegistrationStatus } from "../rules.ts";
import { ownRegistrations } from "../store.ts";
import { toUnix } from "../offers.ts";

export interface CustomerRegistration {
  id: string;
  quantity: number;
  /** Cents paid (or to pay, while pending). */
  amountCents: number;
  discountCents: number;
  status: RegistrationStatus;
  dtstart: number;
  session: { title: string; slug: string };
  /** Download addresses, when the document exists and §4 offers it for the status. */
  receiptUrl: string | null;
  invoiceUrl: string | null;
  /** The credit note of a canceled paid registration's refund, once issued. */
  creditNoteUrl: string | null;
}

export async function customerRegistrations(deps: Deps, actor: Actor): Promise<CustomerRegistration[]> {
  const customer = requireRole(actor, "Customer");
  const rows = await transactionAs(deps.db, customer, (tx) => ownRegistrations(tx));
  return rows.map((row) => ({
    id: row.id,
    quantity: row.quantity,
    amountCents: row.amount,
    discountCents: row.discountAmount,
    status: row.status,
    dtstart: toUnix(row.dtstart),
    session: { title: row.sessionTitle, slug: row.sessionSlug },
    receiptUrl: row.hasReceipt && registrationActions(row.status).receipt
      ? `/api/customer/registration/receipt/${row.id}`
      : null,
    invoiceUrl: row.hasInvoice && registrationActions(row.status).invoice
      ? `/api/customer/registration/invoice/${row.id}`
      : null,
    creditNoteUrl: row.hasCreditNote && registrationActions(row.status).creditNote
      ? `/api/customer/registration/credit-note/${row.id}`
      : null,
  }));
}

/** The spec's payload: id, quantity, amount (euros), status, discount {amount?}, sessionDate {dtstart, session}. */
export function registrationPayload(r: CustomerRegistration) {
  return {
    id: r.id,
    quantity: r.quantity,
    amount: centsToEuros(r.amountCents),
    status: r.status,
    discount: r.discountCents > 0 ? { amount: centsToEuros(r.discountCents) } : {},
    sessionDate: { dtstart: r.dtstart, session: r.session },
  };
}
