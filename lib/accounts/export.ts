// GET /api/user/export: everything the platform holds about the signed-in user, as one JSON document
// (GDPR art. 15 access and art. 20 portability). Read in one transaction under the user's own claims
// (RLS); only the emails sent to their address are read as the system, since RLS shows the email
// outbox to admins only. See ARCHITECTURE.md "Personal data a customer controls".
import { type Actor, requireSignedIn, systemActor, transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import {
  emailsSentTo,
  exportedDeals,
  exportedInvoices,
  exportedMessages,
  exportedOrders,
  exportedPayments,
  exportedProfile,
  exportedRegistrations,
  exportedSeatAlerts,
  exportedVouchers,
} from "./export_store.ts";

type Row = Record<string, unknown>;

export interface PersonalDataExport {
  exportedAt: string;
  profile: Row;
  consents: Row[];
  deals: Row[];
  registrations: Row[];
  vouchers: { bought: Row[]; received: Row[] };
  orders: Row[];
  payments: Row[];
  documents: Row[];
  seatAlerts: Row[];
  emails: Row[];
}

/** The download link of an issued document (the customer and partner download route, RLS-checked). */
export function documentUrl(invoiceId: string): string {
  return `/quote/invoice/${invoiceId}`;
}

/** The download link of a deal's quote (customer side). */
export function quoteUrl(token: string): string {
  return `/api/customer/deal/download/quote/${token}`;
}

/** The file name of the download: mes-donnees-<YYYY-MM-DD>.json (UTC date). */
export function exportFileName(now = new Date()): string {
  return `mes-donnees-${now.toISOString().slice(0, 10)}.json`;
}

export async function exportPersonalData(deps: Deps, actor: Actor): Promise<PersonalDataExport> {
  const user = requireSignedIn(actor);
  const id = user.user.id;
  const mine = await transactionAs(deps.db, user, async (tx) => {
    const profile = await exportedProfile(tx, id);
    if (!profile) throw new AppError("not_found", "Utilisateur introuvable.");
    const addresses = [profile.email as string, ...(profile.emails as string[] ?? [])];
    return {
      profile,
      addresses,
      deals: await exportedDeals(tx, id),
      messages: await exportedMessages(tx, id),
      registrations: await exportedRegistrations(tx, id),
      vouchers: await exportedVouchers(tx, id, addresses),
      orders: await exportedOrders(tx, id),
      payments: await exportedPayments(tx, id),
      invoices: await exportedInvoices(tx, id),
      seatAlerts: await exportedSeatAlerts(tx, id),
    };
  });
  const emails = await transactionAs(
    deps.db,
    systemActor("export"),
    (tx) => emailsSentTo(tx, mine.addresses),
  );
  const { profile } = mine;
  const deals = mine.deals.map(({ token, ...deal }) => ({
    ...deal,
    quoteUrl: deal.role === "Customer" && deal.status !== "start" ? quoteUrl(token as string) : null,
    messages: mine.messages.filter((m) => m.dealId === deal.id).map(({ dealId: _, ...m }) => m),
  }));
  await deps.logger.info("accounts", "Export des données personnelles", { userId: id });
  return {
    exportedAt: new Date().toISOString(),
    profile: {
      ...profile,
      termsAcceptedAt: undefined,
      optin: undefined,
    },
    consents: [
      {
        kind: "cgu",
        label: "Conditions générales d'utilisation et politique de confidentialité",
        given: profile.termsAcceptedAt !== null,
        date: profile.termsAcceptedAt,
      },
      {
        kind: "newsletter",
        label: "Offres et actualités par email",
        given: profile.optin === true,
        // Chosen at registration; the profile has no switch to change it afterwards.
        date: profile.optin === true ? profile.termsAcceptedAt ?? profile.createdAt : null,
      },
      ...mine.seatAlerts.map((a) => ({
        kind: "seat-alert",
        label: `Alerte de places : ${a.session ?? "session"}`,
        given: a.optin === true,
        date: a.createdAt,
      })),
    ],
    deals,
    registrations: mine.registrations,
    vouchers: {
      bought: mine.vouchers.filter((v) => v.relation === "bought"),
      received: mine.vouchers.filter((v) => v.relation === "received"),
    },
    orders: mine.orders,
    payments: mine.payments,
    documents: mine.invoices.map((i) => ({ ...i, url: documentUrl(i.id as string) })),
    seatAlerts: mine.seatAlerts,
    emails,
  };
}
