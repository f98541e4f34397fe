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
  /** Cents the card paid (or is to pay, while pending): the price less what a gift voucher paid. */
  amountCents: number;
  /** Cents a gift voucher paid of it (shown beside the amount). */
  discountCents: number;
  /** 'Commande n° …', or null for a registration written without an order. */
  orderId: number | null;
  /** Where the workshop takes place (the session's city). */
  venue: string;
  /** The session's page at this date. */
  sessionUrl: string;
  /** A pending registration whose checkout was left unpaid, while its places are still held: until when
   * (unix seconds) the customer may finish paying (/panier) or release them. Null otherwise. */
  unpaidUntil: number | null;
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
    amountCents: Math.max(0, Number(row.amount) - Number(row.discountAmount)),
    discountCents: Number(row.discountAmount),
    orderId: row.orderId === null ? null : Number(row.orderId),
    venue: row.sessionCity,
    sessionUrl: sessionDateUrl(row.sessionSlug, toUnix(row.dtstart)),
    unpaidUntil: row.status === "pending" && row.holdUntil ? toUnix(row.holdUntil) : null,
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

/** The spec's payload: id, quantity, amount (euros the card paid), status, discount {amount?} (what a
 * voucher paid), sessionDate {dtstart, session}; plus the order's reference, the venue, the session's
 * address and, for an unpaid checkout, until when it can be paid (`unpaidUntil`, unix seconds). */
export function registrationPayload(r: CustomerRegistration) {
  return {
    id: r.id,
    quantity: r.quantity,
    amount: centsToEuros(r.amountCents),
    status: r.status,
    discount: r.discountCents > 0 ? { amount: centsToEuros(r.discountCents) } : {},
    sessionDate: { dtstart: r.dtstart, session: r.session },
    orderReference: r.orderId === null ? null : orderReference(r.orderId),
    venue: r.venue,
    url: r.sessionUrl,
    unpaidUntil: r.unpaidUntil,
  };
}

/** 'Commande n° 12': the order's reference, as its invoice, receipt and emails write it. */
export function orderReference(orderId: number): string {
  return `Commande n° ${orderId}`;
}

/** The session's page with the registration's date selected ('TON CHOIX'). */
export function sessionDateUrl(slug: string, dtstart: number): string {
  return `/session/${slug}?date=${dtstart}`;
}
