// Every SQL statement of the sessions capability, each taking the use case's transaction. Places are
// changed only by the migration's functions (add_to_cart, change_cart_line, remove_cart_line,
// release_expired_holds, merge_cart), which lock the date's row.
import type { Tx } from "../db/database.ts";
import type { AdditionalCost, DatePrice, RegistrationStatus } from "./rules.ts";

export interface SessionRow {
  id: number;
  slug: string;
  title: string;
  description: string;
  city: string;
  photos: string[];
  published: boolean;
  /** Places of one date one cart may hold (admin setting, default MAX_PLACES_PER_DATE). */
  maxPlacesPerDate: number;
}

export interface DateRow {
  id: number;
  uuid: string;
  sessionId: number;
  dtstart: Date;
  places: number;
  placesLeft: number;
  priceTTC: number;
  travelCostTTC: number;
  additionalCosts: AdditionalCost[];
  soon: boolean;
  state: "open" | "closed" | "canceled";
}

const SESSION_COLUMNS =
  `s.id, s.slug, s.title, s.description, s.city, s.photos, s.published, s.max_places_per_date as "maxPlacesPerDate"`;
const DATE_COLUMNS = `d.id, d.uuid::text as uuid, d.session_id as "sessionId", d.dtstart, d.places,
  d.places_left as "placesLeft", d.price_ttc as "priceTTC", d.travel_cost_ttc as "travelCostTTC",
  d.additional_costs as "additionalCosts", d.soon, d.state`;

export interface CatalogueRow extends SessionRow {
  nextDates: number[];
  priceFrom: DatePrice | null;
}

/** Published sessions with their next three bookable dates and the cheapest upcoming date. */
export function listCatalogue(tx: Tx): Promise<CatalogueRow[]> {
  return tx.query<CatalogueRow>(
    `select ${SESSION_COLUMNS},
       coalesce((select jsonb_agg(extract(epoch from x.dtstart)::bigint order by x.dtstart)
                 from (select d.dtstart from public.session_dates d
                       where d.session_id = s.id and d.state = 'open' and d.dtstart > now()
                       order by d.dtstart limit 3) x), '[]') as "nextDates",
       (select to_jsonb(p) from (select d.price_ttc as "priceTTC", d.travel_cost_ttc as "travelCostTTC",
                 d.additional_costs as "additionalCosts"
               from public.session_dates d where d.session_id = s.id and d.state = 'open' and d.dtstart > now()
               order by d.price_ttc + d.travel_cost_ttc limit 1) p) as "priceFrom"
     from public.workshop_sessions s where s.published order by s.title`,
    [],
  );
}

export async function findSessionBySlug(tx: Tx, slug: string): Promise<SessionRow | null> {
  const [row] = await tx.query<SessionRow>(
    `select ${SESSION_COLUMNS} from public.workshop_sessions s where s.slug = $1`,
    [slug],
  );
  return row ?? null;
}

export async function findSessionById(tx: Tx, id: number): Promise<SessionRow | null> {
  const [row] = await tx.query<SessionRow>(
    `select ${SESSION_COLUMNS} from public.workshop_sessions s where s.id = $1`,
    [id],
  );
  return row ?? null;
}

/** The public dates of a session between two instants: upcoming, not canceled (closed ones show
 * 'COMPLET'). */
export function listPublicDates(tx: Tx, sessionId: number, from: Date, to: Date | null): Promise<DateRow[]> {
  return tx.query<DateRow>(
    `select ${DATE_COLUMNS} from public.session_dates d
     where d.session_id = $1 and d.state in ('open', 'closed') and d.dtstart > now() and d.dtstart >= $2
       and ($3::timestamptz is null or d.dtstart <= $3)
     order by d.dtstart limit 1000`,
    [sessionId, from, to],
  );
}

/** With `lock`, the date's row is locked (`for update`) until the transaction ends. */
export async function findDateByUuid(tx: Tx, uuid: string, lock = false): Promise<DateRow | null> {
  const [row] = await tx.query<DateRow>(
    `select ${DATE_COLUMNS} from public.session_dates d where d.uuid = $1${lock ? " for update" : ""}`,
    [uuid],
  );
  return row ?? null;
}

/** What the cart functions answer (migration 20261127001000_sessions.sql). */
export interface HoldResult {
  ok: boolean;
  reason?:
    | "not_found"
    | "canceled"
    | "closed"
    | "past"
    | "soon"
    | "full"
    | "quantity"
    | "no_cart"
    | "expired"
    | "cooldown"
    | "date_limit"
    | "cart_limit";
  line_id?: string;
  quantity?: number;
  expires_at?: number;
  places_left?: number;
  /** date_limit, cart_limit: the limit, and what the cart holds already. */
  limit?: number;
  held?: number;
  /** cooldown: unix seconds when the date may be held again. */
  until?: number;
}

export async function holdPlaces(
  tx: Tx,
  token: string | null,
  dateUuid: string,
  quantity: number,
  minutes: number,
): Promise<HoldResult> {
  const [row] = await tx<{ result: HoldResult }>`
    select public.add_to_cart(${token}, ${dateUuid}::uuid, ${quantity}, ${minutes}) as result`;
  return row.result;
}

export async function changeLine(
  tx: Tx,
  token: string | null,
  lineId: string,
  quantity: number,
  minutes: number,
): Promise<HoldResult> {
  const [row] = await tx<{ result: HoldResult }>`
    select public.change_cart_line(${token}, ${lineId}::uuid, ${quantity}, ${minutes}) as result`;
  return row.result;
}

export async function removeLine(tx: Tx, token: string | null, lineId: string): Promise<HoldResult> {
  const [row] = await tx<{ result: HoldResult }>`
    select public.remove_cart_line(${token}, ${lineId}::uuid) as result`;
  return row.result;
}

export async function mergeAnonymousCart(tx: Tx, token: string): Promise<number> {
  const [row] = await tx<{ moved: number }>`select public.merge_cart(${token}) as moved`;
  return row.moved;
}

export interface CartLineRow {
  lineId: string;
  quantity: number;
  expiresAt: Date;
  dateUuid: string;
  dtstart: Date;
  placesLeft: number;
  priceTTC: number;
  travelCostTTC: number;
  additionalCosts: AdditionalCost[];
  sessionId: number;
  sessionSlug: string;
  sessionTitle: string;
  sessionCity: string;
}

export function cartLines(tx: Tx, token: string | null): Promise<CartLineRow[]> {
  return tx<CartLineRow>`
    select line_id::text as "lineId", quantity, expires_at as "expiresAt", date_uuid::text as "dateUuid", dtstart,
      places_left as "placesLeft", price_ttc as "priceTTC", travel_cost_ttc as "travelCostTTC",
      additional_costs as "additionalCosts", session_id as "sessionId", session_slug as "sessionSlug",
      session_title as "sessionTitle", session_city as "sessionCity"
    from public.cart_contents(${token})`;
}

/** The caller's cart holds nothing live and one of its holds expired since its last addition. */
export async function cartHoldExpired(tx: Tx, token: string | null): Promise<boolean> {
  const [row] = await tx<{ expired: boolean }>`select public.cart_hold_expired(${token}) as expired`;
  return row?.expired === true;
}

/** One alert per date and email: false when it was already there. */
export async function insertSeatAlert(
  tx: Tx,
  dateId: number,
  email: string,
  userId: string | null,
): Promise<boolean> {
  const rows = await tx`
    insert into public.seat_alerts (date_id, email, optin, user_id) values (${dateId}, ${email}, true, ${userId})
    on conflict (date_id, email) do nothing returning id`;
  return rows.length === 1;
}

// ---------------------------------------------------------------------------------------------------
// Back office (admins, under RLS).

export interface AdminSessionRow extends SessionRow {
  dates: number;
  upcoming: number;
  placesLeft: number;
  places: number;
}

export function listSessionsForAdmin(tx: Tx): Promise<AdminSessionRow[]> {
  return tx.query<AdminSessionRow>(
    `select ${SESSION_COLUMNS}, count(d.id)::int as dates,
       count(d.id) filter (where d.dtstart > now() and d.state = 'open')::int as upcoming,
       coalesce(sum(d.places_left) filter (where d.dtstart > now() and d.state = 'open'), 0)::int as "placesLeft",
       coalesce(sum(d.places) filter (where d.dtstart > now() and d.state = 'open'), 0)::int as places
     from public.workshop_sessions s left join public.session_dates d on d.session_id = s.id
     group by s.id order by s.title`,
    [],
  );
}

export interface SessionFields {
  slug: string;
  title: string;
  description: string;
  city: string;
  photos: string[];
  published: boolean;
  /** Places of one date one cart may hold (admin setting, default MAX_PLACES_PER_DATE). */
  maxPlacesPerDate: number;
}

export async function insertSession(tx: Tx, f: SessionFields): Promise<number> {
  const [row] = await tx<{ id: number }>`
    insert into public.workshop_sessions (slug, title, description, city, photos, published, max_places_per_date)
    values (${f.slug}, ${f.title}, ${f.description}, ${f.city}, ${
    JSON.stringify(f.photos)
  }::jsonb, ${f.published}, ${f.maxPlacesPerDate})
    returning id`;
  return row.id;
}

export async function updateSession(tx: Tx, id: number, f: SessionFields): Promise<boolean> {
  const rows = await tx`
    update public.workshop_sessions set slug = ${f.slug}, title = ${f.title}, description = ${f.description},
      city = ${f.city}, photos = ${JSON.stringify(f.photos)}::jsonb, published = ${f.published},
      max_places_per_date = ${f.maxPlacesPerDate}
    where id = ${id} returning id`;
  return rows.length === 1;
}

export function listAllDates(tx: Tx, sessionId: number): Promise<DateRow[]> {
  return tx.query<DateRow>(
    `select ${DATE_COLUMNS} from public.session_dates d where d.session_id = $1 order by d.dtstart`,
    [sessionId],
  );
}

export interface DateFields {
  dtstart: Date;
  places: number;
  priceTTC: number;
  travelCostTTC: number;
  additionalCosts: AdditionalCost[];
  soon: boolean;
  state: "open" | "closed" | "canceled";
}

export async function insertDate(tx: Tx, sessionId: number, f: DateFields): Promise<string> {
  const [row] = await tx<{ uuid: string }>`
    insert into public.session_dates (session_id, dtstart, places, places_left, price_ttc, travel_cost_ttc,
      additional_costs, soon, state)
    values (${sessionId}, ${f.dtstart}, ${f.places}, ${f.places}, ${f.priceTTC}, ${f.travelCostTTC},
      ${JSON.stringify(f.additionalCosts)}::jsonb, ${f.soon}, ${f.state})
    returning uuid::text as uuid`;
  return row.uuid;
}

/** The capacity change moves places_left by the same amount (trigger); below what is taken the table's
 * check refuses it (23514). */
export async function updateDate(tx: Tx, uuid: string, f: DateFields): Promise<boolean> {
  const rows = await tx`
    update public.session_dates set dtstart = ${f.dtstart}, places = ${f.places}, price_ttc = ${f.priceTTC},
      travel_cost_ttc = ${f.travelCostTTC}, additional_costs = ${JSON.stringify(f.additionalCosts)}::jsonb,
      soon = ${f.soon}, state = ${f.state}
    where uuid = ${uuid}::uuid returning id`;
  return rows.length === 1;
}

export interface HoldRow {
  lineId: string;
  quantity: number;
  expiresAt: Date;
  customer: string | null;
}

export function holdsOfDate(tx: Tx, dateId: number): Promise<HoldRow[]> {
  return tx<HoldRow>`
    select l.id::text as "lineId", l.quantity, l.expires_at as "expiresAt",
      (select u.email from public.users u where u.id = c.user_id) as customer
    from public.cart_lines l join public.carts c on c.id = l.cart_id
    where l.date_id = ${dateId} order by l.expires_at`;
}

export interface RegistrationRow {
  id: string;
  quantity: number;
  amount: number;
  status: RegistrationStatus;
  createdAt: Date;
  customer: string | null;
}

export function registrationsOfDate(tx: Tx, dateId: number): Promise<RegistrationRow[]> {
  return tx<RegistrationRow>`
    select r.id::text as id, r.quantity, r.amount, r.status, r.created_at as "createdAt",
      (select u.email from public.users u where u.id = r.user_id) as customer
    from public.registrations r where r.date_id = ${dateId} order by r.created_at`;
}

export async function alertsOfDate(tx: Tx, dateId: number): Promise<number> {
  const [row] = await tx<{ n: number }>`
    select count(*)::int as n from public.seat_alerts where date_id = ${dateId} and notified_at is null`;
  return row.n;
}

export interface CustomerRegistrationRow {
  id: string;
  quantity: number;
  amount: number;
  discountAmount: number;
  status: RegistrationStatus;
  dtstart: Date;
  sessionTitle: string;
  sessionSlug: string;
  /** Its order's receipt and invoice are issued (the checkout's documents). */
  hasReceipt: boolean;
  hasInvoice: boolean;
  /** A credit note (AV) was issued for its order's refund. */
  hasCreditNote: boolean;
  /** Its order ('Commande n° …'), the session's city, and the order's status. */
  orderId: string | null;
  sessionCity: string;
  orderStatus: string | null;
  /** While its order is unpaid: until when its places stay held for the payment (null: released). */
  holdUntil: Date | null;
}

/** The caller's registrations (RLS: its own), newest booking first. */
export function ownRegistrations(tx: Tx): Promise<CustomerRegistrationRow[]> {
  // A checkout abandoned or replaced before any payment (its registrations canceled) is not shown.
  return tx<CustomerRegistrationRow>`
    select r.id::text as id, r.quantity, r.amount, r.discount_amount as "discountAmount", r.status,
      d.dtstart, s.title as "sessionTitle", s.slug as "sessionSlug", s.city as "sessionCity",
      r.order_id::text as "orderId", o.status as "orderStatus",
      (select max(l.expires_at) from public.cart_lines l
        where o.status = 'pending' and l.order_id = r.order_id and l.expires_at > now()) as "holdUntil",
      exists (select from public.invoices i where i.order_id = r.order_id and i.series = 'RE') as "hasReceipt",
      exists (select from public.invoices i where i.order_id = r.order_id and i.series = 'FA' and i.kind = 'full')
        as "hasInvoice",
      exists (select from public.invoices i where i.order_id = r.order_id and i.series = 'AV') as "hasCreditNote"
    from public.registrations r
    join public.session_dates d on d.id = r.date_id
    join public.workshop_sessions s on s.id = d.session_id
    left join public.orders o on o.id = r.order_id
    where r.user_id = (select auth.uid())
      and (r.status <> 'canceled' or r.order_id is null
           or exists (select from public.deal_payments p where p.order_id = r.order_id))
    order by r.created_at desc, d.dtstart desc`;
}
