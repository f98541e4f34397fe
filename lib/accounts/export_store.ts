// SQL of the personal-data export (GET /api/user/export). Every query but `emailsSentTo` runs under the
// user's own claims, so RLS decides what is theirs; each one also names the user explicitly, so that
// an admin's export (who may read every row) still holds only their own data. Admin-only columns
// (admin comments, admin settings, custom fields, commissions) are never selected.
import type { Tx } from "../db/database.ts";

type Row = Record<string, unknown>;

/** The profile and the consent dates recorded on the account. */
export async function exportedProfile(tx: Tx, userId: string): Promise<Row | null> {
  const [row] = await tx`
    select id, type, email, emails, firstname, lastname, name, siren, vat_number as "vatNumber",
      vat_exemption as "vatExemption", address1, address2, zipcode, city, phone,
      to_char(birthdate, 'YYYY-MM-DD') as birthdate, optin, terms_accepted_at as "termsAcceptedAt",
      created_at as "createdAt", updated_at as "updatedAt", deleted_at as "deletionRequestedAt"
    from public.users where id = ${userId} and anonymized_at is null`;
  return row ?? null;
}

/** The deals the user asked for (customer) or was given (partner), without admin-only columns. */
export function exportedDeals(tx: Tx, userId: string): Promise<Row[]> {
  return tx`
    select d.id, d.token, d.name, d.status, d.event_type as "eventType",
      to_char(d.service_date, 'YYYY-MM-DD') as "serviceDate", d.guests, d.description,
      d.total_ht as "totalHtCents", d.deposit_amount as "depositAmountCents",
      d.total_amount_paid as "totalPaidCents", d.created_at as "createdAt",
      case when d.customer_id = ${userId} then 'Customer' else 'Company' end as "role",
      case when d.customer_id = ${userId} then (
        select jsonb_build_object('firstname', c.firstname, 'lastname', c.lastname, 'email', c.email,
          'phone', c.phone, 'serviceAddress', c.service_address)
        from public.deal_contacts c where c.deal_id = d.id) end as contact
    from public.deals d
    where d.customer_id = ${userId} or d.company_id = ${userId}
    order by d.created_at, d.id`;
}

/** The chat messages of the user's deals: the whole conversation of a customer's own deals, only the
 * messages they wrote on the others (a partner's, which also show the customer's words). */
export function exportedMessages(tx: Tx, userId: string): Promise<Row[]> {
  return tx`
    select m.deal_id as "dealId", m.created_at as "date", m.author_type as "authorType",
      m.author_name as "author", m.author_id = ${userId} as "mine", m.text
    from public.chat_messages m join public.deals d on d.id = m.deal_id
    where m.type = 'message'
      and (d.customer_id = ${userId} or (d.company_id = ${userId} and m.author_id = ${userId}))
    order by m.deal_id, m.id`;
}

export function exportedRegistrations(tx: Tx, userId: string): Promise<Row[]> {
  return tx`
    select r.id, s.title as "session", s.city, sd.dtstart as "date", r.quantity, r.amount as "amountCents",
      r.discount_amount as "discountCents", r.status, r.order_id as "orderId", r.created_at as "createdAt"
    from public.registrations r
    left join public.session_dates sd on sd.id = r.date_id
    left join public.workshop_sessions s on s.id = sd.session_id
    where r.user_id = ${userId}
    order by r.created_at`;
}

/** Vouchers bought (`bought`) and received at one of the user's addresses (never their code). */
export function exportedVouchers(tx: Tx, userId: string, emails: string[]): Promise<Row[]> {
  return tx`
    select v.id, case when v.buyer_id = ${userId} then 'bought' else 'received' end as "relation",
      v.amount as "amountCents", v.remaining as "remainingCents", v.sender_name as "senderName",
      v.recipient_name as "recipientName", v.recipient_email as "recipientEmail", v.message,
      to_char(v.send_on, 'YYYY-MM-DD') as "sendOn", v.status, v.valid_until as "validUntil",
      v.created_at as "createdAt"
    from public.vouchers v
    where v.buyer_id = ${userId} or v.recipient_email = any(${emails}::text[])
    order by v.created_at`;
}

export function exportedOrders(tx: Tx, userId: string): Promise<Row[]> {
  return tx`
    select o.id, o.kind, o.status, o.total_amount as "totalCents", o.discount_amount as "discountCents",
      o.created_at as "createdAt", o.paid_at as "paidAt", o.canceled_at as "canceledAt",
      coalesce((select jsonb_agg(jsonb_build_object('label', l.label) order by l.id)
                from public.order_lines l where l.order_id = o.id), '[]'::jsonb) as lines
    from public.orders o where o.user_id = ${userId}
    order by o.created_at`;
}

/** Payments of the user's deals and orders. */
export function exportedPayments(tx: Tx, userId: string): Promise<Row[]> {
  return tx`
    select p.id, p.deal_id as "dealId", p.order_id as "orderId", p.kind, p.method,
      p.amount as "amountCents", p.refunded_amount as "refundedCents", p.currency, p.paid_at as "paidAt"
    from public.deal_payments p
    where p.deal_id in (select d.id from public.deals d where d.customer_id = ${userId} or d.company_id = ${userId})
       or p.order_id in (select o.id from public.orders o where o.user_id = ${userId})
    order by p.paid_at`;
}

/** Issued documents addressed to the user: a customer's invoices, credit notes and receipts (series
 * FA, AV, RE of their deals and orders), a partner's commission documents (CO, CA). */
export function exportedInvoices(tx: Tx, userId: string): Promise<Row[]> {
  return tx`
    select i.id, i.number, i.kind, i.series, i.issued_at as "issuedAt", i.total_ttc as "totalTtcCents",
      i.deal_id as "dealId", i.order_id as "orderId"
    from public.invoices i
    where (i.series in ('FA', 'AV', 'RE') and (
             i.deal_id in (select d.id from public.deals d where d.customer_id = ${userId})
             or i.order_id in (select o.id from public.orders o where o.user_id = ${userId})))
       or (i.series in ('CO', 'CA') and i.deal_id in (select d.id from public.deals d where d.company_id = ${userId}))
    order by i.issued_at, i.number`;
}

export function exportedSeatAlerts(tx: Tx, userId: string): Promise<Row[]> {
  return tx`
    select a.email, a.optin, a.created_at as "createdAt", a.notified_at as "notifiedAt", s.title as "session",
      sd.dtstart as "date"
    from public.seat_alerts a
    left join public.session_dates sd on sd.id = a.date_id
    left join public.workshop_sessions s on s.id = sd.session_id
    where a.user_id = ${userId}
    order by a.created_at`;
}

/** The emails sent (or to be sent) to the user's addresses. Run as the system: RLS shows the email
 * outbox to admins only. The bodies are the stored ones, whose secrets (reset links, voucher codes)
 * are already masked; the sealed copy is never read. */
export function emailsSentTo(tx: Tx, emails: string[]): Promise<Row[]> {
  return tx`
    select o.template, o.subject, o.recipient, o.status, o.created_at as "createdAt", o.sent_at as "sentAt",
      o.text_body as "text"
    from public.email_outbox o
    where o.recipient = any(${emails}::text[])
    order by o.created_at`;
}
