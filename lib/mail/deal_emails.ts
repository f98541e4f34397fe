// The emails about a deal, rendered by the worker as the system from what the deal holds now: the
// notifications queued by actions and triggers (lib/deals/notifications.ts), the admin's manual
// templates and the reminder policy's scheduled emails (lib/mail/scheduled_queue.ts). The recipient's
// address is read here, never by the partner who caused the email, and an email to a partner names the
// deal, its amounts and the customer's name at most: never the customer's email, phone or address.
import type { Tx } from "../db/database.ts";
import type { Config } from "../config.ts";
import type { OutgoingEmail } from "./outbox.ts";
import { dealDocumentLinks } from "../billing/links.ts";
import { findReason } from "../deals/rules.ts";
import type { DealStatus } from "../deals/rules.ts";
import type { PaymentKindName } from "./rules.ts";
import {
  availabilityValidatedEmail,
  customerInvoiceEmail,
  customerReminderEmail,
  dealRefusedCustomerEmail,
  dealRefusedPartnerEmail,
  partnerNewDealEmail,
  partnerReminderEmail,
  partnerRemovedEmail,
  paymentReceivedEmail,
  paymentReceivedPartnerEmail,
  quoteReadyEmail,
  quoteUpdatedEmail,
} from "./templates.ts";

export type DealEmailKind =
  | "new_deal_partner"
  | "quote_ready"
  | "quote_updated"
  | "availability_validated"
  | "payment_received"
  | "refused"
  | "deal-reminder-manual-partner"
  | "deal-reminder-manual-customer"
  | "deal-invoice-customer"
  | "partner_removed";

interface DealFacts {
  id: number;
  token: string;
  name: string;
  status: DealStatus;
  contactEmail: string | null;
  contactFirstname: string | null;
  partnerEmail: string | null;
  partnerName: string | null;
  due: number;
}

/** What the deal's emails need, read as the system (null: the deal is gone). */
async function dealFacts(tx: Tx, dealId: number): Promise<DealFacts | null> {
  const [deal] = await tx<DealFacts>`
    select d.id, d.token, d.name, d.status, nullif(c.email, '') as "contactEmail",
           c.firstname as "contactFirstname", p.email as "partnerEmail", p.name as "partnerName",
           public.deal_amount_due(d.id) as due
    from public.deals d
    left join public.deal_contacts c on c.deal_id = d.id
    left join public.users p on p.id = d.company_id and p.anonymized_at is null
    where d.id = ${dealId}`;
  return deal ?? null;
}

/** Statuses in which the customer holds a quote (a refusal then deserves a word to them). */
const CUSTOMER_HOLDS_QUOTE = new Set(["send", "edited", "accepted", "pay_partial"]);

/** The emails `kind` gives for the deal now; [] when it has no recipient (or no longer applies). */
export async function dealEmails(
  tx: Tx,
  config: Pick<Config, "appUrl" | "supportEmail">,
  kind: DealEmailKind,
  dealId: number,
  data: Record<string, unknown> = {},
): Promise<OutgoingEmail[]> {
  const deal = await dealFacts(tx, dealId);
  if (!deal) return [];
  const publicLink = `${config.appUrl}/deal/show/${deal.token}`;
  const editLink = `${config.appUrl}/dashboard/espace-partenaire/deal/${deal.id}`;
  const firstname = deal.contactFirstname ?? "";
  const toCustomer = (make: (to: string) => OutgoingEmail) =>
    deal.contactEmail ? [make(deal.contactEmail)] : [];
  const toPartner = (make: (to: string) => OutgoingEmail) =>
    deal.partnerEmail ? [make(deal.partnerEmail)] : [];
  const ref = { id: deal.id, name: deal.name };

  switch (kind) {
    case "new_deal_partner":
      return toPartner((to) => partnerNewDealEmail(to, deal.name, editLink));
    case "quote_ready":
      return toCustomer((to) => quoteReadyEmail(to, firstname, deal.name, publicLink));
    case "quote_updated":
      return toCustomer((to) => quoteUpdatedEmail(to, firstname, deal.name, publicLink));
    case "availability_validated":
      return config.supportEmail
        ? [availabilityValidatedEmail(config.supportEmail, {
          ...ref,
          partnerName: deal.partnerName,
          revalidated: data.revalidated === true,
        }, editLink)]
        : [];
    case "payment_received": {
      const [payment] = await tx<{ kind: PaymentKindName; amount: number }>`
        select kind, amount from public.deal_payments
        where id = ${String(data.paymentId ?? "")}::uuid and deal_id = ${deal.id} and not overpayment`;
      if (!payment) return [];
      const facts = { dealName: deal.name, kind: payment.kind, amountCents: payment.amount };
      return [
        ...toCustomer((to) => paymentReceivedEmail(to, firstname, facts, publicLink)),
        ...toPartner((to) => paymentReceivedPartnerEmail(to, { ...facts, dealId: deal.id }, editLink)),
      ];
    }
    case "refused": {
      const reason = findReason(String(data.reason ?? ""));
      const from = String(data.from ?? "");
      if (data.status === "refused_client") {
        // The customer refused (or an admin did for them): the partner hears of it if it had the deal.
        if (from === "start") return [];
        return toPartner((to) => dealRefusedPartnerEmail(to, ref, reason?.label ?? null, editLink));
      }
      // The partner refused: the customer is told when they held a quote and the reason is the
      // partner's (an admin's internal reasons — duplicate, junk… — email nobody).
      if (!reason?.forPartner || !CUSTOMER_HOLDS_QUOTE.has(from)) return [];
      return toCustomer((to) => dealRefusedCustomerEmail(to, firstname, deal.name, null, publicLink));
    }
    case "partner_removed": {
      // The previous partner, named by the notification: the deal names the new one now.
      const companyId = String(data.companyId ?? "");
      if (!/^[0-9a-f-]{36}$/i.test(companyId)) return [];
      const [previous] = await tx<{ email: string }>`
        select email from public.users
        where id = ${companyId}::uuid and type = 'Company' and anonymized_at is null
          and coalesce(email, '') <> ''`;
      if (!previous) return [];
      return [partnerRemovedEmail(previous.email, ref, `${config.appUrl}/dashboard/partenaire/devis`)];
    }
    case "deal-reminder-manual-partner":
      return toPartner((to) => partnerReminderEmail(to, ref, editLink));
    case "deal-reminder-manual-customer":
      return toCustomer((to) => customerReminderEmail(to, firstname, deal.name, publicLink));
    case "deal-invoice-customer": {
      const paid = await tx<{ kind: string }>`
        select distinct kind from public.deal_payments where deal_id = ${deal.id} and not overpayment`;
      const invoices = dealDocumentLinks({
        token: deal.token,
        status: deal.status,
        paidKinds: paid.map((p) => p.kind),
        showProforma: false,
      }).filter((link) => link.group === "customer")
        .map((link) => ({ label: link.label, url: `${config.appUrl}${link.href}` }));
      return toCustomer((to) =>
        customerInvoiceEmail(to, firstname, { name: deal.name, dueCents: deal.due, invoices }, publicLink)
      );
    }
  }
}
