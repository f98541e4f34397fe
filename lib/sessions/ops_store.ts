// SQL of the workshop operations (migration 20261127004000_session_ops.sql): the waiting list's offers,
// closing and canceling a date, its attendees, and the organiser's list of upcoming dates. Each takes the
// use case's transaction.
import type { Tx } from "../db/database.ts";
import type { RegistrationStatus } from "./rules.ts";
import type { Attendee } from "./attendees.ts";
import type { HoldResult } from "./store.ts";

export interface OfferRow {
  id: string;
  status: "offered" | "claimed" | "expired" | "withdrawn";
  expiresAt: Date;
  mailedAt: Date | null;
  email: string;
  dateUuid: string;
  dtstart: Date;
  dateState: "open" | "closed" | "canceled";
  sessionTitle: string;
  sessionSlug: string;
}

const OFFER_SELECT =
  `select o.id::text as id, o.status, o.expires_at as "expiresAt", o.mailed_at as "mailedAt",
    a.email, d.uuid::text as "dateUuid", d.dtstart, d.state as "dateState", s.title as "sessionTitle",
    s.slug as "sessionSlug"
  from public.seat_offers o
  join public.seat_alerts a on a.id = o.alert_id
  join public.session_dates d on d.id = o.date_id
  join public.workshop_sessions s on s.id = d.session_id
  where o.id = $1`;

/** An offer with what its email and page say (system reads). */
export async function findOffer(tx: Tx, offerId: string, lock = false): Promise<OfferRow | null> {
  const [row] = await tx.query<OfferRow>(`${OFFER_SELECT}${lock ? " for update of o" : ""}`, [offerId]);
  return row ?? null;
}

/** The offer's email is written: its time starts now (the place was set aside a moment before). */
export async function markOfferMailed(tx: Tx, offerId: string): Promise<Date> {
  const [row] = await tx<{ expiresAt: Date }>`
    update public.seat_offers set mailed_at = now(), expires_at = now() + public.seat_offer_window()
    where id = ${offerId}::uuid returning expires_at as "expiresAt"`;
  return row.expiresAt;
}

export async function claimOffer(
  tx: Tx,
  token: string | null,
  offerId: string,
  minutes: number,
): Promise<Omit<HoldResult, "reason"> & { reason?: HoldResult["reason"] | "used" }> {
  const [row] = await tx<{ result: Omit<HoldResult, "reason"> & { reason?: HoldResult["reason"] | "used" } }>`
    select public.claim_seat_offer(${token}, ${offerId}::uuid, ${minutes}) as result`;
  return row.result;
}

export async function setDateClosed(
  tx: Tx,
  uuid: string,
  closed: boolean,
): Promise<{ ok: boolean; reason?: string; state?: string }> {
  const [row] = await tx<{ result: { ok: boolean; reason?: string; state?: string } }>`
    select public.set_session_date_closed(${uuid}::uuid, ${closed}) as result`;
  return row.result;
}

export interface CancelResult {
  ok: boolean;
  reason?: string;
  already?: boolean;
  released?: number;
  withdrawn?: number;
  pending_canceled?: number;
}

export async function cancelDate(tx: Tx, uuid: string): Promise<CancelResult> {
  const [row] = await tx<
    { result: CancelResult }
  >`select public.cancel_session_date(${uuid}::uuid) as result`;
  return row.result;
}

export interface BookerRow {
  registrationId: string;
  status: RegistrationStatus;
  quantity: number;
  amount: number;
}

/** The registrations of a date that are not canceled (read under the admin's RLS; the cancellation then
 * changes them through its functions, which lock them). */
export function liveRegistrationsOfDate(tx: Tx, dateId: number): Promise<BookerRow[]> {
  return tx<BookerRow>`
    select r.id::text as "registrationId", r.status, r.quantity, r.amount - r.discount_amount as amount
    from public.registrations r where r.date_id = ${dateId} and r.status <> 'canceled'
    order by r.created_at`;
}

/** A registration's customer, for an email (system reads). */
export async function registrationContact(
  tx: Tx,
  registrationId: string,
): Promise<{ email: string; firstname: string; quantity: number } | null> {
  const [row] = await tx<{ email: string; firstname: string; quantity: number }>`
    select u.email, u.firstname, r.quantity from public.registrations r join public.users u on u.id = r.user_id
    where r.id = ${registrationId}::uuid and u.anonymized_at is null`;
  return row ?? null;
}

/** A date's registrations with their customers (admins, under RLS). */
export function attendeesOfDate(tx: Tx, dateId: number): Promise<Attendee[]> {
  return tx<Attendee>`
    select r.id::text as "registrationId", coalesce(u.firstname, '') as firstname,
      coalesce(u.lastname, '') as lastname, coalesce(u.email, '') as email, coalesce(u.phone, '') as phone,
      r.quantity, r.status,
      case when r.status = 'invoiced' then r.amount - r.discount_amount else 0 end::bigint as paid
    from public.registrations r left join public.users u on u.id = r.user_id
    where r.date_id = ${dateId}
      -- A checkout abandoned or replaced before any payment (no money ever taken) is not a booking: left
      -- out, as 'Vos sessions' does (lib/sessions/store.ts ownRegistrations).
      and (r.status <> 'canceled' or r.order_id is null
           or exists (select from public.deal_payments p where p.order_id = r.order_id))
    order by u.lastname, u.firstname, r.created_at`;
}

export interface UpcomingDateRow {
  uuid: string;
  dtstart: Date;
  places: number;
  placesLeft: number;
  soon: boolean;
  state: "open" | "closed" | "canceled";
  sessionId: number;
  sessionTitle: string;
  sessionSlug: string;
  city: string;
  sold: number;
  waiting: number;
}

/** The organiser's list: dates from today on (canceled ones included, marked), soonest first, with
 * what is sold and how many subscribers wait. */
export function upcomingDates(tx: Tx, limit: number): Promise<UpcomingDateRow[]> {
  return tx<UpcomingDateRow>`
    select d.uuid::text as uuid, d.dtstart, d.places, d.places_left as "placesLeft", d.soon, d.state,
      s.id as "sessionId", s.title as "sessionTitle", s.slug as "sessionSlug", s.city,
      coalesce((select sum(r.quantity) from public.registrations r
                where r.date_id = d.id and r.status <> 'canceled'), 0)::int as sold,
      (select count(*) from public.seat_alerts a where a.date_id = d.id and a.notified_at is null)::int as waiting
    from public.session_dates d join public.workshop_sessions s on s.id = d.session_id
    where d.dtstart > now() - interval '12 hours'
    order by d.dtstart, s.title limit ${limit}`;
}

/** Places a date has sold (registrations not canceled). */
export async function soldOfDate(tx: Tx, dateId: number): Promise<number> {
  const [row] = await tx<{ n: number }>`
    select coalesce(sum(quantity), 0)::int as n from public.registrations
    where date_id = ${dateId} and status <> 'canceled'`;
  return row.n;
}
