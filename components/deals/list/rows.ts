// The deals lists' data, pure (the admin list island and the server pages share it): one row shape
// that is safe to pass as island props (cents, unix seconds, ISO dates) built from the server's items in
// cents or from the API's JSON in euros (two functions: the unit is never guessed), the admin list's query and
// its URL form, and the labels of its sort options.
import { DEAL_STATUSES, type DealStatus } from "../../../lib/deals/rules.ts";
import { eurosToCents } from "../../../lib/money.ts";
import { dealDocumentLinks, type DocumentLink } from "../../../lib/billing/links.ts";

export interface DealListRow {
  id: number;
  token: string;
  name: string;
  hubspotId: string | null;
  status: DealStatus;
  /** "2027-06-12", or null when the date is not known yet. */
  serviceDate: string | null;
  guests: number | null;
  eventType: string | null;
  /** Cents HT. */
  totalHt: number;
  /** Unix seconds. */
  createdAt: number;
  customerName: string;
  companyId: string | null;
  companyName: string | null;
  /** Cents, once a deposit is paid. */
  depositAmount: number | null;
  /** Cents, once the whole quote is paid. */
  totalAmountPaid: number | null;
  /** The kinds of payment received and the proforma flags (lib/billing/links.ts dealDocumentLinks):
   * present when the list's use case read them. */
  paidKinds?: string[];
  showProforma?: boolean;
  depositOffered?: boolean;
}

/** A list item in cents, as the list use cases give it to the server pages (lib/deals/store.ts
 * DealListItem, its hubspotId already hidden from non-admins). */
export interface ListItem {
  id: number;
  token: string;
  name: string;
  hubspotId: string | null;
  status: DealStatus;
  serviceDate: string | null;
  guests: number | null;
  eventType: string | null;
  /** Cents HT. */
  totalHt: number;
  createdAt: Date;
  customerName: string | null;
  companyId: string | null;
  companyName: string | null;
  depositAmount: number | null;
  totalAmountPaid: number | null;
  paidKinds?: string[];
  showProforma?: boolean;
  depositOffered?: boolean;
}

/** A list item as GET /api/deal/index answers it (lib/deals/payload.ts DealListPayload): the spec's
 * units, euros and unix seconds. */
export interface ListItemJson extends Omit<ListItem, "createdAt"> {
  /** Euros HT. */
  totalHt: number;
  /** Unix seconds. */
  createdAt: number;
}

/** The row of a list item in cents (the server pages' first render). */
export function rowFromItem(item: ListItem): DealListRow {
  return rowOf(item, Math.floor(item.createdAt.getTime() / 1000), (cents) => cents);
}

/** The row of an item of GET /api/deal/index's JSON (the admin list island's pages): euros → cents. */
export function rowFromJson(item: ListItemJson): DealListRow {
  return rowOf(item, item.createdAt, (euros) => eurosToCents(euros) ?? Math.round(euros * 100));
}

function rowOf(
  item: Omit<ListItem, "createdAt">,
  createdAt: number,
  cents: (amount: number) => number,
): DealListRow {
  const money = (value: number | null) => value == null ? null : cents(value);
  return {
    id: item.id,
    token: item.token,
    name: item.name,
    hubspotId: item.hubspotId,
    status: item.status,
    serviceDate: item.serviceDate ? String(item.serviceDate).slice(0, 10) : null,
    guests: item.guests,
    eventType: item.eventType,
    totalHt: cents(item.totalHt),
    createdAt,
    customerName: item.customerName ?? "",
    companyId: item.companyId,
    companyName: item.companyName,
    depositAmount: money(item.depositAmount),
    totalAmountPaid: money(item.totalAmountPaid),
    ...(item.paidKinds
      ? {
        paidKinds: item.paidKinds,
        showProforma: item.showProforma === true,
        depositOffered: item.depositOffered !== false,
      }
      : {}),
  };
}

/** The invoices (and proformas) of a list row, as the partner's and the admin's menus list them. */
export function rowDocuments(row: DealListRow): DocumentLink[] {
  return dealDocumentLinks({
    token: row.token,
    status: row.status,
    paidKinds: row.paidKinds ?? [],
    showProforma: row.showProforma,
    depositOffered: row.depositOffered,
  });
}

/** What has been paid of a deal, in cents, and how to call it; null when nothing is. */
export function paidOf(row: Pick<DealListRow, "depositAmount" | "totalAmountPaid">):
  | { label: string; cents: number }
  | null {
  if (row.totalAmountPaid) return { label: "Payé", cents: row.totalAmountPaid };
  if (row.depositAmount) return { label: "Acompte payé", cents: row.depositAmount };
  return null;
}

// ---------------------------------------------------------------------------------------------------
// The admin list's query (GET /api/deal/index?search=&from=&to=&dateField=&status=&page=&perPage=&sort=
// &direction=).

export const SORT_KEYS = ["createdAt", "serviceDate", "totalHt", "id"] as const;
export type SortKey = typeof SORT_KEYS[number];
export type Direction = "asc" | "desc";

export const SORT_LABELS: Record<SortKey, string> = {
  createdAt: "Date de création",
  serviceDate: "Date de prestation",
  totalHt: "Montant HT",
  id: "N° de demande",
};

export const PER_PAGE_CHOICES = [10, 25, 50, 100];

/** What the list's 'Date de début' / 'Date de fin' filter: the service date ('Date presta', the
 * column beside them) by default, the creation date as a second choice. */
export const DATE_FIELDS = ["serviceDate", "createdAt"] as const;
export type DateField = typeof DATE_FIELDS[number];
export const DATE_FIELD_LABELS: Record<DateField, string> = {
  serviceDate: "Date presta",
  createdAt: "Date de création",
};

export interface AdminListQuery {
  search: string;
  /** "YYYY-MM-DD" or "", of the date `dateField` names. */
  from: string;
  to: string;
  dateField: DateField;
  /** Only the deals in this status; "" for every status. */
  status: DealStatus | "";
  page: number;
  perPage: number;
  sort: SortKey;
  direction: Direction;
}

export const DEFAULT_LIST_QUERY: AdminListQuery = {
  search: "",
  from: "",
  to: "",
  dateField: "serviceDate",
  status: "",
  page: 1,
  perPage: 25,
  sort: "createdAt",
  direction: "desc",
};

/** The query's parameters, defaults left out (so that the first page's URL stays bare). */
function queryParams(query: AdminListQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.search.trim()) params.set("search", query.search.trim());
  if (query.from) params.set("from", query.from);
  if (query.to) params.set("to", query.to);
  if (query.dateField !== DEFAULT_LIST_QUERY.dateField) params.set("dateField", query.dateField);
  if (query.status) params.set("status", query.status);
  if (query.page !== 1) params.set("page", String(query.page));
  if (query.perPage !== DEFAULT_LIST_QUERY.perPage) params.set("perPage", String(query.perPage));
  if (query.sort !== DEFAULT_LIST_QUERY.sort) params.set("sort", query.sort);
  if (query.direction !== DEFAULT_LIST_QUERY.direction) params.set("direction", query.direction);
  return params;
}

/** "?page=2&sort=id", or "" for the default query. */
export function queryString(query: AdminListQuery): string {
  const text = queryParams(query).toString();
  return text ? `?${text}` : "";
}

/** The request's query parameters without the empty ones (an empty date field sends `from=`). */
export function nonEmptyParams(query: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (typeof value === "string" && value.trim() !== "") out[key] = value.trim();
  }
  return out;
}

/** The query a page shows, from its URL's parameters (already accepted by the use case) and the page
 * numbers the use case answered. */
export function listQueryOf(
  params: Record<string, string>,
  answered: { page: number; perPage: number },
): AdminListQuery {
  return {
    search: params.search ?? "",
    from: params.from ?? "",
    to: params.to ?? "",
    dateField: params.dateField === "createdAt" ? "createdAt" : "serviceDate",
    status: (DEAL_STATUSES as readonly string[]).includes(params.status) ? params.status as DealStatus : "",
    page: answered.page,
    perPage: answered.perPage,
    sort: (SORT_KEYS as readonly string[]).includes(params.sort) ? params.sort as SortKey : "createdAt",
    direction: params.direction === "asc" ? "asc" : "desc",
  };
}

export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** "26–50 sur 123", or "Aucun devis". */
export function rangeLabel(total: number, page: number, perPage: number): string {
  if (total === 0) return "Aucun devis";
  const first = (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  if (first > total) return `${total} devis`;
  return `${first}–${last} sur ${total}`;
}

/** Links the admin list and the partner list give each deal. */
export const publicDealPath = (token: string) => `/deal/show/${token}`;
export const editDealPath = (id: number) => `/dashboard/espace-partenaire/deal/${id}`;
/** The spec's edit link to copy (the dashboard's hash link, opened by DashboardHashLink). */
export const editDealHashPath = (id: number) => `/dashboard#/espace-partenaire/deal/${id}`;
