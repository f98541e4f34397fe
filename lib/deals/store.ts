// SQL of the deals capability. Every function takes the use case's transaction: RLS decides which
// deals are visible, the guard trigger which columns a role may change, partner_deal_contact() which
// customer details a partner receives.
import type { Tx } from "../db/database.ts";
import { AppError } from "../errors.ts";
import type { AdminSettings, DealSettings, DealStatus } from "./rules.ts";
import { DEAL_MESSAGES } from "./rules.ts";
import type { QuoteTotals } from "./pricing.ts";

/** A stored line: amounts in cents. */
export interface StoredLine {
  label: string;
  qty: number;
  unitCost: number;
  totalCost: number;
}

export interface DealRow {
  id: number;
  token: string;
  name: string;
  status: DealStatus;
  hubspotId: string | null;
  refusalReason: string | null;
  adminComments: string;
  lines: StoredLine[];
  settings: Partial<DealSettings>;
  adminSettings: Partial<AdminSettings>;
  choices: { cocktails?: string[] };
  adminDescription: string;
  description: string;
  mapUrl: string | null;
  customField1: string;
  customField2: string;
  parameters: { vat?: number; commissionRate?: number };
  properties: Record<string, unknown>;
  calculations: { nbCocktails?: number; officialStaffCount?: number };
  totals: Partial<QuoteTotals>;
  totalHt: number;
  serviceDate: string | null;
  guests: number | null;
  eventType: string | null;
  depositPaidAt: Date | null;
  depositAmount: number | null;
  paidAt: Date | null;
  totalAmountPaid: number | null;
  customerId: string | null;
  companyId: string | null;
  createdAt: Date;
  editedAt: Date | null;
}

export const DEAL_COLUMNS =
  `d.id, d.token, d.name, d.status, d.hubspot_id as "hubspotId", d.refusal_reason as "refusalReason",
  d.admin_comments as "adminComments", d.lines, d.settings, d.admin_settings as "adminSettings", d.choices,
  d.admin_description as "adminDescription", d.description, d.map_url as "mapUrl",
  d.custom_field_1 as "customField1", d.custom_field_2 as "customField2", d.parameters, d.properties,
  d.calculations, d.totals, d.total_ht as "totalHt", d.service_date as "serviceDate", d.guests,
  d.event_type as "eventType", d.deposit_paid_at as "depositPaidAt", d.deposit_amount as "depositAmount",
  d.paid_at as "paidAt", d.total_amount_paid as "totalAmountPaid", d.customer_id as "customerId",
  d.company_id as "companyId", d.created_at as "createdAt", d.edited_at as "editedAt"`;

/** The deal as the caller may see it (RLS), optionally locked for the rest of the transaction. */
export async function findDeal(tx: Tx, id: number, options: { lock?: boolean } = {}): Promise<DealRow> {
  const [row] = await tx.query<DealRow>(
    `select ${DEAL_COLUMNS} from public.deals d where d.id = $1${options.lock ? " for update" : ""}`,
    [id],
  );
  if (!row) throw new AppError("not_found", DEAL_MESSAGES.notFound);
  return row;
}

/** The deal of a public token, or null. */
export async function findDealByToken(tx: Tx, token: string): Promise<DealRow | null> {
  const [row] = await tx.query<DealRow>(`select ${DEAL_COLUMNS} from public.deals d where d.token = $1`, [
    token,
  ]);
  return row ?? null;
}

/** Links `customerId` to the deal if it has no customer yet, without locking the row for every reader:
 * true when this call linked it. */
/** The id of the deal of `token` as the caller may read it (RLS), or null. */
export async function dealIdByToken(tx: Tx, token: string): Promise<number | null> {
  const [row] = await tx<{ id: number }>`select id from public.deals where token = ${token}`;
  return row?.id ?? null;
}

/** The token of deal `id` as the caller may read it (RLS), or null. */
export async function dealTokenById(tx: Tx, id: number): Promise<string | null> {
  const [row] = await tx<{ token: string }>`select token from public.deals where id = ${id}`;
  return row?.token ?? null;
}

export interface ChoiceDeal {
  id: number;
  status: DealStatus;
  companyId: string | null;
  settings: Record<string, unknown>;
}

/** What choosing cocktails needs of the deal of `token` (RLS: the customer's own). */
export async function findChoiceDeal(tx: Tx, token: string): Promise<ChoiceDeal | null> {
  const [deal] = await tx<ChoiceDeal>`
    select id, status, company_id as "companyId", settings from public.deals where token = ${token}`;
  return deal ?? null;
}

export async function linkCustomerIfNone(tx: Tx, id: number, customerId: string): Promise<boolean> {
  const rows = await tx`update public.deals set customer_id = ${customerId}
                        where id = ${id} and customer_id is null returning id`;
  return rows.length === 1;
}

export interface NewDeal {
  name: string;
  properties: Record<string, unknown>;
  settings: DealSettings;
  lines: StoredLine[];
  parameters: { vat: number; commissionRate: number };
  calculations: { nbCocktails: number; officialStaffCount: number };
  totals: QuoteTotals;
  totalHt: number;
  serviceDate: string | null;
  guests: number;
  eventType: string;
  customerId: string | null;
}

/** A new deal in 'start'; its token is the database's. */
export async function insertDeal(tx: Tx, deal: NewDeal): Promise<{ id: number; token: string }> {
  const [row] = await tx<{ id: number; token: string }>`
    insert into public.deals (name, status, properties, settings, lines, parameters, calculations, totals, total_ht,
                              service_date, guests, event_type, customer_id)
    values (${deal.name}, 'start', ${JSON.stringify(deal.properties)}::jsonb, ${
    JSON.stringify(deal.settings)
  }::jsonb,
            ${JSON.stringify(deal.lines)}::jsonb, ${JSON.stringify(deal.parameters)}::jsonb,
            ${JSON.stringify(deal.calculations)}::jsonb, ${
    JSON.stringify(deal.totals)
  }::jsonb, ${deal.totalHt},
            ${deal.serviceDate}::date, ${deal.guests}, ${deal.eventType}, ${deal.customerId})
    returning id, token`;
  return row;
}

export async function insertContact(
  tx: Tx,
  dealId: number,
  contact: { firstname: string; lastname: string; email: string; phone: string; serviceAddress: string },
): Promise<void> {
  await tx`insert into public.deal_contacts (deal_id, firstname, lastname, email, phone, service_address)
           values (${dealId}, ${contact.firstname}, ${contact.lastname}, ${contact.email}, ${contact.phone},
                   ${contact.serviceAddress})`;
}

export interface ContactRow {
  firstname: string;
  lastname: string;
  email: string | null;
  phone: string | null;
  serviceAddress: string | null;
  customerFirstname: string | null;
  customerLastname: string | null;
  customerEmail: string | null;
  customerPhone: string | null;
  customerCompany: string | null;
  customerSiren: string | null;
  customerAddress1: string | null;
  customerAddress2: string | null;
  customerZipcode: string | null;
  customerCity: string | null;
}

const CONTACT_COLUMNS = `firstname, lastname, email, phone, service_address as "serviceAddress",
  customer_firstname as "customerFirstname", customer_lastname as "customerLastname",
  customer_email as "customerEmail", customer_phone as "customerPhone", customer_company as "customerCompany",
  customer_siren as "customerSiren", customer_address1 as "customerAddress1", customer_address2 as "customerAddress2",
  customer_zipcode as "customerZipcode", customer_city as "customerCity"`;

/** For admins and the deal's partner: the contact, masked by the deal's flags for a partner. */
export async function partnerContact(tx: Tx, id: number): Promise<ContactRow | null> {
  const [row] = await tx.query<ContactRow>(`select ${CONTACT_COLUMNS} from public.partner_deal_contact($1)`, [
    id,
  ]);
  return row ?? null;
}

/** For the deal's customer: their own request's contact and account, unmasked. */
export async function customerContact(tx: Tx, id: number): Promise<ContactRow | null> {
  const [row] = await tx.query<ContactRow>(
    `select c.firstname, c.lastname, c.email, c.phone, c.service_address as "serviceAddress",
       u.firstname as "customerFirstname", u.lastname as "customerLastname", u.email as "customerEmail",
       u.phone as "customerPhone", u.name as "customerCompany", u.siren as "customerSiren",
       u.address1 as "customerAddress1", u.address2 as "customerAddress2", u.zipcode as "customerZipcode",
       u.city as "customerCity"
     from public.deal_contacts c join public.deals d on d.id = c.deal_id
     left join public.users u on u.id = d.customer_id
     where c.deal_id = $1`,
    [id],
  );
  return row ?? null;
}

/** The customer's contact as `viewer` may see it — the one function that decides it for the page, the
 * API and the documents: a customer reads their own unmasked; admins and the deal's partner read it
 * through partner_deal_contact(), masked by the deal's flags for a partner. */
export function contactFor(
  tx: Tx,
  viewer: "Admin" | "Company" | "Customer",
  id: number,
): Promise<ContactRow | null> {
  return viewer === "Customer" ? customerContact(tx, id) : partnerContact(tx, id);
}

export interface CompanyCard {
  id: string;
  name: string;
  email: string;
  city: string | null;
  vatExemption: boolean;
}

export async function companyCard(tx: Tx, companyId: string | null): Promise<CompanyCard | null> {
  if (!companyId) return null;
  const [row] = await tx<CompanyCard>`
    select id, name, email, city, vat_exemption as "vatExemption" from public.deal_company(${companyId})`;
  return row ?? null;
}

/** The partner as the customer's page names it (read by the system: a visitor cannot read users). */
export async function publicCompany(
  tx: Tx,
  companyId: string,
): Promise<{ name: string; city: string | null; vatExemption: boolean } | null> {
  const [c] = await tx<{ name: string; city: string | null; vatExemption: boolean }>`
    select coalesce(name, trim(firstname || ' ' || lastname)) as name, city, vat_exemption as "vatExemption"
    from public.users where id = ${companyId}`;
  return c ?? null;
}

export interface StatusChange {
  fromStatus: DealStatus | null;
  toStatus: DealStatus;
  action: string;
  actorRole: string;
  actorName: string | null;
  impersonated: boolean;
  reason: string | null;
  createdAt: Date;
}

export function statusHistory(tx: Tx, dealId: number): Promise<StatusChange[]> {
  return tx<StatusChange>`
    select h.from_status as "fromStatus", h.to_status as "toStatus", h.action, h.actor_role as "actorRole",
           nullif(trim(coalesce(u.firstname, '') || ' ' || coalesce(u.lastname, '')), '') as "actorName",
           h.impersonator_id is not null as impersonated, h.reason, h.created_at as "createdAt"
    from public.deal_status_changes h
    left join lateral (select firstname, lastname from public.users where id = h.actor_id) u on true
    where h.deal_id = ${dealId} order by h.created_at, h.id`;
}

export type NotificationKind = "new_deal_partner" | "quote_ready" | "quote_updated";

/** Queues an email about the deal; the worker finds its recipient (lib/deals/notifications.ts). */
export async function queueNotification(tx: Tx, dealId: number, kind: NotificationKind): Promise<void> {
  await tx`insert into public.deal_notifications (deal_id, kind) values (${dealId}, ${kind})`;
}

/** Names the action for the status history the trigger writes in this transaction. */
export async function nameAction(tx: Tx, action: string): Promise<void> {
  await tx`select set_config('app.deal_action', ${action}, true)`;
}

/** The columns a use case may write, by the name it uses. */
const WRITABLE = {
  name: "name",
  status: "status",
  hubspotId: "hubspot_id",
  refusalReason: "refusal_reason",
  adminComments: "admin_comments",
  lines: "lines",
  settings: "settings",
  adminSettings: "admin_settings",
  choices: "choices",
  adminDescription: "admin_description",
  description: "description",
  mapUrl: "map_url",
  customField1: "custom_field_1",
  customField2: "custom_field_2",
  parameters: "parameters",
  properties: "properties",
  calculations: "calculations",
  totals: "totals",
  totalHt: "total_ht",
  serviceDate: "service_date",
  guests: "guests",
  eventType: "event_type",
  depositPaidAt: "deposit_paid_at",
  depositAmount: "deposit_amount",
  paidAt: "paid_at",
  totalAmountPaid: "total_amount_paid",
  customerId: "customer_id",
  companyId: "company_id",
  editedAt: "edited_at",
} as const;

export type DealChanges = Partial<Record<keyof typeof WRITABLE, unknown>>;

const JSON_COLUMNS = new Set([
  "lines",
  "settings",
  "adminSettings",
  "choices",
  "parameters",
  "properties",
  "calculations",
  "totals",
]);

export async function writeDeal(tx: Tx, id: number, changes: DealChanges): Promise<void> {
  const fields = Object.keys(changes) as (keyof typeof WRITABLE)[];
  if (fields.length === 0) return;
  const sets = fields.map((f, i) => `${WRITABLE[f]} = $${i + 2}${JSON_COLUMNS.has(f) ? "::jsonb" : ""}`);
  const values = fields.map((f) => (JSON_COLUMNS.has(f) ? JSON.stringify(changes[f]) : changes[f]));
  // The text depends on which fields change: not prepared (QueryOptions).
  const rows = await tx.query(`update public.deals set ${sets.join(", ")} where id = $1 returning id`, [
    id,
    ...values,
  ], { prepare: false });
  if (rows.length === 0) throw new AppError("not_found", DEAL_MESSAGES.notFound);
}

/** Dates the quote's last edit (editedAt, spec 000 §3): its photos changed. */
export async function markEdited(tx: Tx, id: number): Promise<void> {
  await tx`update public.deals set edited_at = now() where id = ${id}`;
}

/** The precise service address: through a function that checks who may change it (an admin, or the
 * deal's partner while it may see it and edits are open). */
export async function setServiceAddress(tx: Tx, id: number, address: string): Promise<void> {
  await tx`select public.set_deal_service_address(${id}, ${address})`;
}

// The search text is lowercase without accents, like the words searched (searchWords).
export const SEARCH_ACCENTED = "àáâãäåçèéêëìíîïñòóôõöùúûüýÿ";
export const SEARCH_PLAIN = "aaaaaaceeeeiiiinooooouuuuyy";

/** The words of a search, lowercase and without accents (at most 8). */
function searchWords(search: string): string[] {
  return search.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().split(/\s+/).filter(Boolean)
    .slice(0, 8);
}

/** Keeps the admin list's search text in step with the deal's name, HubSpot id, contact and partner. */
export async function refreshSearchText(tx: Tx, id: number): Promise<void> {
  await tx`
    update public.deal_contacts c set search_text = translate(lower(concat_ws(' ', d.id, d.name, c.firstname,
      c.lastname, c.email, c.phone, p.name, p.email, p.firstname, p.lastname, d.hubspot_id)), ${SEARCH_ACCENTED},
      ${SEARCH_PLAIN})
    from public.deals d left join public.users p on p.id = d.company_id
    where d.id = c.deal_id and d.id = ${id}`;
}

/** Whether a card payment was begun for the deal (an intent exists, whatever its state). */
export async function hasPaymentIntent(tx: Tx, dealId: number): Promise<boolean> {
  const [intent] = await tx`select 1 from public.payment_intents where deal_id = ${dealId} limit 1`;
  return !!intent;
}

export async function deleteDeal(tx: Tx, id: number): Promise<void> {
  const rows = await tx`delete from public.deals where id = ${id} returning id`;
  if (rows.length === 0) throw new AppError("not_found", DEAL_MESSAGES.notFound);
}

// ---------------------------------------------------------------------------------------------------
// Lists.

export interface DealListItem {
  id: number;
  token: string;
  name: string;
  hubspotId: string | null;
  status: DealStatus;
  serviceDate: string | null;
  guests: number | null;
  eventType: string | null;
  totalHt: number;
  createdAt: Date;
  customerName: string;
  companyId: string | null;
  companyName: string | null;
  depositAmount: number | null;
  totalAmountPaid: number | null;
  /** The kinds of payment the deal received (deal_payments.kind, as the caller may read them): which
   * invoices are due. */
  paidKinds: string[];
  /** adminSettings.showProformaInvoice. */
  showProforma: boolean;
  /** settings.hasDeposit as the server offers it (lib/deals/rules.ts depositOffered). */
  depositOffered: boolean;
}

/** The list's billing columns of `d`: the admin setting and the deposit rule, read from the row. */
const BILLING_FLAGS =
  `coalesce(d.admin_settings -> 'showProformaInvoice' = 'true'::jsonb, false) as "showProforma",
  d.settings -> 'hasDeposit' is distinct from 'false'::jsonb as "depositOffered"`;

export interface AdminListQuery {
  search: string;
  from: string | null;
  to: string | null;
  page: number;
  perPage: number;
  sort: "createdAt" | "serviceDate" | "totalHt" | "id";
  direction: "asc" | "desc";
}

const SORT_COLUMNS: Record<AdminListQuery["sort"], string> = {
  createdAt: "d.created_at",
  serviceDate: "d.service_date",
  totalHt: "d.total_ht",
  id: "d.id",
};

/** One page of every deal (admins), with the total count, searched on the pre-computed text. */
export async function listAllDeals(
  tx: Tx,
  query: AdminListQuery,
): Promise<{ items: DealListItem[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  // Every word of the search, in any order, accents and case ignored ('Perrin Élodie' finds Élodie
  // Perrin); '%' and '_' are literal.
  for (const word of searchWords(query.search)) {
    params.push(`%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`c.search_text like $${params.length}`);
  }
  if (query.from) {
    params.push(query.from);
    where.push(`d.created_at >= $${params.length}::date`);
  }
  if (query.to) {
    params.push(query.to);
    where.push(`d.created_at < $${params.length}::date + 1`);
  }
  const filter = where.length ? `where ${where.join(" and ")}` : "";
  const direction = query.direction;
  params.push(query.perPage, (query.page - 1) * query.perPage);
  // The matching deals are collected as (id, sort key) once, for both the page and the count; only the
  // page's rows are then read in full (a window count over full rows made PostgreSQL sort every
  // matching row with all its columns: twice slower at 10 000 deals, scripts/bench_deals.ts).
  const rows = await tx.query<DealListItem & { total: number }>(
    `with matching as materialized (
       select d.id, ${SORT_COLUMNS[query.sort]} as k
       from public.deals d join public.deal_contacts c on c.deal_id = d.id ${filter}
     ), page as (
       select id, k from matching order by k ${direction} nulls last, id ${direction}
       limit $${params.length - 1} offset $${params.length}
     ), paid as (
       select p.deal_id, array_agg(distinct p.kind order by p.kind) as kinds
       from public.deal_payments p where p.deal_id in (select id from page) and not p.overpayment
       group by p.deal_id
     )
     select d.id, d.token, d.name, d.hubspot_id as "hubspotId", d.status, d.service_date as "serviceDate", d.guests,
       d.event_type as "eventType", d.total_ht as "totalHt", d.created_at as "createdAt",
       trim(c.firstname || ' ' || c.lastname) as "customerName", d.company_id as "companyId",
       coalesce(p.name, nullif(trim(p.firstname || ' ' || p.lastname), '')) as "companyName",
       d.deposit_amount as "depositAmount", d.total_amount_paid as "totalAmountPaid",
       coalesce(paid.kinds, '{}') as "paidKinds", ${BILLING_FLAGS},
       (select count(*) from matching) as total
     from page join public.deals d on d.id = page.id join public.deal_contacts c on c.deal_id = d.id
     left join public.users p on p.id = d.company_id left join paid on paid.deal_id = d.id
     order by page.k ${direction} nulls last, page.id ${direction}`,
    params,
    // One text per number of search words, dates and sort: built at run time, never prepared (each
    // connection would keep every search's text), and planned for its own values.
    { prepare: false },
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && query.page > 1) {
    const [count] = await tx.query<{ total: number }>(
      `select count(*)::int as total from public.deals d join public.deal_contacts c on c.deal_id = d.id ${filter}`,
      params.slice(0, -2),
      { prepare: false },
    );
    total = count.total;
  }
  return { items: rows.map(({ total: _t, ...item }) => item), total };
}

/** The kinds of payment each deal the caller may read received (its invoices menu: one invoice per
 * kind). Overpayments (refunded automatically) are not the deal's payments. */
export function paidKindsByDeal(tx: Tx): Promise<{ dealId: number; kinds: string[] }[]> {
  return tx<{ dealId: number; kinds: string[] }>`
    select deal_id as "dealId", array_agg(distinct kind order by kind) as kinds
    from public.deal_payments where not overpayment group by deal_id`;
}

export interface CustomerPaymentRow {
  id: string;
  token: string;
  name: string;
  amount: number;
  kind: string;
  paidAt: Date;
  invoiceId: string | null;
  /** Refunded so far (cents), and the credit notes (AV) issued for it, oldest first. */
  refunded: number;
  creditNotes: { id: string; amount: number }[];
}

/** The payments the caller may read (a customer: their own), newest first, with their invoice, what was
 * refunded of them and their credit notes. */
export function customerPaymentRows(tx: Tx): Promise<CustomerPaymentRow[]> {
  return tx<CustomerPaymentRow>`
    select p.id, d.token, d.name, p.amount, p.kind, p.paid_at as "paidAt", p.refunded_amount as refunded,
      (select i.id from public.invoices i where i.payment_id = p.id and i.series = 'FA' limit 1) as "invoiceId",
      coalesce((select json_agg(json_build_object('id', i.id, 'amount', i.total_ttc) order by i.issued_at)
                from public.invoices i where i.payment_id = p.id and i.series = 'AV'), '[]') as "creditNotes"
    from public.deal_payments p join public.deals d on d.id = p.deal_id
    order by p.paid_at desc`;
}

/** The deals RLS shows the caller, newest first: a partner's company's, or a customer's own. */
export function listVisibleDeals(tx: Tx, limit = 500): Promise<DealListItem[]> {
  return tx.query<DealListItem>(
    `select d.id, d.token, d.name, d.hubspot_id as "hubspotId", d.status, d.service_date as "serviceDate", d.guests,
      d.event_type as "eventType", d.total_ht as "totalHt", d.created_at as "createdAt",
      coalesce(nullif(trim(pc.firstname || ' ' || pc.lastname), ''), '') as "customerName",
      d.company_id as "companyId", co.name as "companyName",
      d.deposit_amount as "depositAmount", d.total_amount_paid as "totalAmountPaid",
      coalesce(pk.kinds, '{}') as "paidKinds", ${BILLING_FLAGS}
    from public.deals d
    left join lateral (select firstname, lastname from public.partner_deal_contact(d.id)) pc on true
    left join lateral (select name from public.deal_company(d.company_id)) co on true
    left join lateral (select array_agg(distinct p.kind order by p.kind) as kinds
                       from public.deal_payments p where p.deal_id = d.id and not p.overpayment) pk on true
    order by d.created_at desc, d.id desc limit $1`,
    [limit],
  );
}

// ---------------------------------------------------------------------------------------------------
// Accounts a deal refers to.

export async function isCompany(tx: Tx, id: string): Promise<boolean> {
  return (await tx`select 1 from public.users where id = ${id} and type = 'Company' and anonymized_at is null`)
    .length > 0;
}
