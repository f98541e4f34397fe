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
  /** What 'Date de début' / 'Date de fin' filter: the service date (default) or the creation date. */
  dateField?: "serviceDate" | "createdAt";
  /** Only the deals in this status. */
  status?: DealStatus | null;
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

/** The list's order: the sort key then the id, in one direction. Only the service date may be null
 * (those deals come last both ways); each order is an index of the deals (20261123000000_deals.sql
 * deals_created_at_idx, 20261128006000_growth_indexes.sql), so a page reads its rows from the index. */
function listOrder(query: AdminListQuery): string {
  const direction = query.direction;
  const nulls = query.sort === "serviceDate" ? " nulls last" : "";
  return query.sort === "id"
    ? `d.id ${direction}`
    : `${SORT_COLUMNS[query.sort]} ${direction}${nulls}, d.id ${direction}`;
}

/** Search words shorter than a trigram: the trigram index cannot answer them. */
const SHORT_WORD = 3;

/** The admin list's search as public.admin_deal_search() takes it: `like` patterns and exact numbers. */
export function adminSearchTerms(search: string): { patterns: string[]; numbers: string[] } {
  const patterns: string[] = [];
  const numbers: string[] = [];
  // Every word of the search, in any order, accents and case ignored ('Perrin Élodie' finds Élodie
  // Perrin); '%' and '_' are literal. Words of 3 characters or more are substrings of the search text,
  // found through its trigram index (deal_contacts_search_trgm_idx); a number shorter than that is a
  // deal number or a HubSpot id, matched exactly (primary key, deals_hubspot_id_idx); other short words
  // are substrings too, which only the longer words' index narrows (alone, they read every contact).
  for (const word of searchWords(search)) {
    if (word.length < SHORT_WORD && /^\d+$/.test(word)) numbers.push(word);
    else patterns.push(`%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  return { patterns, numbers };
}

/** A search that is a deal number, with or without '#' ('12', '#12'): the digits, else null. */
export function dealNumberSearch(search: string): string | null {
  const match = /^#?(\d{1,18})$/.exec(search.trim());
  return match ? match[1] : null;
}

/** The list's filters (search, dates, status) as a `where` clause of public.deals d, and its params. */
function adminListFilter(query: AdminListQuery, terms = adminSearchTerms(query.search)) {
  const { patterns, numbers } = terms;
  const where: string[] = [];
  const params: unknown[] = [];
  if (patterns.length || numbers.length) {
    params.push(patterns, numbers);
    where.push(`d.id in (select s.id from public.admin_deal_search($1::text[], $2::text[]) s)`);
  }
  // 'Date de début' / 'Date de fin': the service date beside them in the list, unless the creation date
  // is asked for.
  const column = query.dateField === "createdAt" ? "d.created_at" : "d.service_date";
  if (query.from) {
    params.push(query.from);
    where.push(`${column} >= $${params.length}::date`);
  }
  if (query.to) {
    params.push(query.to);
    where.push(`${column} < $${params.length}::date + 1`);
  }
  if (query.status) {
    params.push(query.status);
    where.push(`d.status = $${params.length}`);
  }
  return { filter: where.length ? `where ${where.join(" and ")}` : "", params };
}

/** The SQL of one page of the admin list: the page's ids in order, read from the sort's index, among
 * the search's matches (public.admin_deal_search: ids only, for admins) when there is a search. The
 * deal numbered `exactFirst` comes first. */
export function adminListPageSql(
  query: AdminListQuery,
  terms = adminSearchTerms(query.search),
  exactFirst: string | null = null,
): { text: string; params: unknown[] } {
  const { filter, params } = adminListFilter(query, terms);
  let first = "";
  if (exactFirst) {
    params.push(exactFirst);
    first = `d.id = $${params.length}::bigint desc, `;
  }
  params.push(query.perPage, (query.page - 1) * query.perPage);
  return {
    text: `select d.id from public.deals d ${filter}
           order by ${first}${listOrder(query)} limit $${params.length - 1} offset $${params.length}`,
    params,
  };
}

/** One page of every deal (admins), with the total count, searched on the pre-computed text. Every
 * deal is listed, with its request's contact when it has one. A deal number ('12', '#12') finds that
 * deal, first, and the deals whose HubSpot id is that number, whole; only when none has it is a longer
 * number searched as text (a phone number, a postcode). */
export async function listAllDeals(
  tx: Tx,
  query: AdminListQuery,
): Promise<{ items: DealListItem[]; total: number }> {
  const number = dealNumberSearch(query.search);
  if (number) {
    const exact = await adminListPage(tx, query, { patterns: [], numbers: [number] }, number);
    if (exact.total > 0 || number.length < SHORT_WORD || query.search.trim().startsWith("#")) return exact;
  }
  return await adminListPage(tx, query, adminSearchTerms(query.search), null);
}

async function adminListPage(
  tx: Tx,
  query: AdminListQuery,
  terms: { patterns: string[]; numbers: string[] },
  exactFirst: string | null,
): Promise<{ items: DealListItem[]; total: number }> {
  const page = adminListPageSql(query, terms, exactFirst);
  // One text per search shape, dates and sort: built at run time, never prepared (each connection
  // would keep every variant), and planned for its own values.
  const ids = (await tx.query<{ id: number }>(page.text, page.params, { prepare: false })).map((r) => r.id);
  return {
    items: await listItemsById(tx, ids, LIST_ITEM_ADMIN),
    total: await adminListCount(tx, query, terms),
  };
}

/** How many deals the list's filters keep: public.admin_deal_count (security definer: no RLS per row)
 * for a search and creation dates; counted under the admin's RLS, like the page, once the service date
 * or the status filters. */
async function adminListCount(
  tx: Tx,
  query: AdminListQuery,
  terms: { patterns: string[]; numbers: string[] },
): Promise<number> {
  const byServiceDate = query.dateField !== "createdAt" && (query.from || query.to);
  if (byServiceDate || query.status) {
    const { filter, params } = adminListFilter(query, terms);
    const [row] = await tx.query<{ total: number }>(
      `select count(*)::int as total from public.deals d ${filter}`,
      params,
      { prepare: false },
    );
    return row.total;
  }
  const [count] = await tx<{ total: number }>`
    select public.admin_deal_count(${terms.patterns}::text[], ${terms.numbers}::text[], ${query.from}::date,
      ${query.to}::date) as total`;
  return count.total;
}

/** The columns of a list item, with the customer's name as the reader may see it. */
const LIST_ITEM_ADMIN =
  `(select nullif(trim(c.firstname || ' ' || c.lastname), '') from public.deal_contacts c
    where c.deal_id = d.id) as "customerName",
  (select coalesce(p.name, nullif(trim(p.firstname || ' ' || p.lastname), '')) from public.users p
    where p.id = d.company_id) as "companyName"`;
const LIST_ITEM_OWN = `(select nullif(trim(pc.firstname || ' ' || pc.lastname), '')
    from public.partner_deal_contact(d.id) pc) as "customerName",
  (select co.name from public.deal_company(d.company_id) co) as "companyName"`;

/** The list items of `ids` (one page) in the order of `ids`, as the caller may read them (RLS). The
 * reader's columns are scalar subqueries: one page is 25 primary-key reads, whatever the table's size. */
async function listItemsById(tx: Tx, ids: number[], names: string): Promise<DealListItem[]> {
  if (ids.length === 0) return [];
  const rows = await tx.query<DealListItem>(
    `select d.id, d.token, d.name, d.hubspot_id as "hubspotId", d.status, d.service_date as "serviceDate", d.guests,
       d.event_type as "eventType", d.total_ht as "totalHt", d.created_at as "createdAt", d.company_id as "companyId",
       ${names},
       d.deposit_amount as "depositAmount", d.total_amount_paid as "totalAmountPaid",
       coalesce((select array_agg(distinct p.kind order by p.kind) from public.deal_payments p
                 where p.deal_id = d.id and not p.overpayment), '{}') as "paidKinds", ${BILLING_FLAGS}
     from public.deals d where d.id = any($1::bigint[])`,
    [ids],
  );
  const byId = new Map(rows.map((r) => [Number(r.id), { ...r, customerName: r.customerName ?? "" }]));
  return ids.flatMap((id) => byId.get(Number(id)) ?? []);
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

/** Whose deals a 'Mes devis' list reads: a partner's company's or a customer's own. RLS decides what
 * is visible; the owner's column lets the list read its page and count from that column's index
 * (deals_company_list_idx, deals_customer_list_idx: newest first, index-only) instead of every deal. */
export interface VisibleDealsQuery {
  owner: { column: "company_id" | "customer_id"; id: string };
  limit: number;
  offset: number;
  /** Only these statuses (the customer's 'Mes demandes de devis en cours'). */
  statuses?: readonly DealStatus[];
}

function visibleFilter(query: VisibleDealsQuery): { where: string; params: unknown[] } {
  const params: unknown[] = [query.owner.id];
  let where = `d.${query.owner.column === "company_id" ? "company_id" : "customer_id"} = $1`;
  if (query.statuses) {
    params.push(query.statuses);
    where += ` and d.status = any($2::text[])`;
  }
  return { where, params };
}

/** One page of the deals RLS shows the caller among the owner's, newest first. */
export async function listVisibleDeals(tx: Tx, query: VisibleDealsQuery): Promise<DealListItem[]> {
  const { where, params } = visibleFilter(query);
  params.push(query.limit, query.offset);
  const ids = await tx.query<{ id: number }>(
    `select d.id from public.deals d where ${where}
     order by d.created_at desc, d.id desc limit $${params.length - 1} offset $${params.length}`,
    params,
  );
  return await listItemsById(tx, ids.map((r) => r.id), LIST_ITEM_OWN);
}

/** How many deals RLS shows the caller among the owner's (from the owner's index). */
export async function countVisibleDeals(tx: Tx, query: Omit<VisibleDealsQuery, "limit" | "offset">) {
  const { where, params } = visibleFilter({ ...query, limit: 0, offset: 0 });
  const [row] = await tx.query<{ total: number }>(
    `select count(*)::int as total from public.deals d where ${where}`,
    params,
  );
  return row.total;
}

// ---------------------------------------------------------------------------------------------------
// Accounts a deal refers to.

export async function isCompany(tx: Tx, id: string): Promise<boolean> {
  return (await tx`select 1 from public.users where id = ${id} and type = 'Company' and anonymized_at is null`)
    .length > 0;
}
