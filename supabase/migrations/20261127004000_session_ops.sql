-- Workshop operations (issue 12, second slice): the seat alerts become a waiting list (pretix's), an
-- admin closes or cancels a date, and holds stop being renewable forever.
--   * seat_offers: a place of a date set aside for the first subscriber in line (the oldest seat_alerts
--     row not yet offered). Whenever a bookable date has places left while subscribers wait — a hold
--     expired, a line removed or shrunk, a registration canceled, the capacity raised, the date
--     reopened — the trigger below takes one place per waiting subscriber out of places_left, under the
--     date's row lock, in the transaction that freed it: a freed place never goes back on public sale
--     while someone waits. Each alert gets at most one offer (alert.notified_at). The offer's email
--     (a signed, single-use link) is written by the outbox queue 'seat-offer-mail'. The subscriber has
--     SEAT_OFFER_HOURS (2 h) to put the place in a cart (claim_seat_offer); unused, the offer expires
--     (expire_seat_offers, every minute, and any hold on the date first), its place comes back and
--     goes to the next subscriber. Alerts stop once the date has started, is closed or canceled.
--   * Closing a date (state 'closed') stops new bookings; the public sees it 'COMPLET' without the
--     alert. Its open offers are withdrawn (places back). It can be reopened.
--   * Canceling (cancel_session_date, the system after the use case's admin check): final; every hold
--     released, offers withdrawn; each registration is then canceled (and refunded when paid) by the use
--     case through cancel_registration (20261127002000_checkout.sql), in the same transaction.
--   * Holds: re-adding a date or changing a line holds it again, but never past twice the hold time
--     from the line's first hold (cart_lines.created_at).

create table public.seat_offers (
  id uuid primary key default gen_random_uuid(),
  alert_id uuid not null unique references public.seat_alerts (id) on delete cascade,
  date_id bigint not null references public.session_dates (id) on delete cascade,
  -- offered: the place is set aside; claimed: it went into a cart; expired: unused in time (the place
  -- came back); withdrawn: the date was closed or canceled meanwhile (the place came back).
  status text not null default 'offered' check (status in ('offered', 'claimed', 'expired', 'withdrawn')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  mailed_at timestamptz,
  settled_at timestamptz
);
create index seat_offers_date_idx on public.seat_offers (date_id, status);
create index seat_offers_expiry_idx on public.seat_offers (expires_at) where status = 'offered';
create index seat_alerts_waiting_idx on public.seat_alerts (date_id, created_at) where notified_at is null;

alter table public.seat_offers enable row level security;
create policy "Admins can read every seat offer" on public.seat_offers for select to authenticated
  using ((select public.is_admin()));
create policy "Users can read the offers of their seat alerts" on public.seat_offers for select to authenticated
  using (alert_id in (select a.id from public.seat_alerts a where a.user_id = (select auth.uid())));
grant select on public.seat_offers to authenticated;
grant select, insert, update, delete on public.seat_offers to service_role;

-- How long an offer keeps its place (rules.ts SEAT_OFFER_HOURS says the same).
create or replace function public.seat_offer_window() returns interval
language sql immutable set search_path = '' as $$ select interval '2 hours' $$;

-- ---------------------------------------------------------------------------------------------------
-- The waiting list. BEFORE UPDATE on session_dates, so under the row lock of whatever changes the date,
-- and after the other triggers (names sort after 'guard_places' and 'set_updated_at').
create or replace function public.offer_places_to_waiting_list() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  alert record;
  offer uuid;
begin
  -- A date leaving 'open' withdraws its open offers: their places come back (a closed date may reopen).
  if new.state <> 'open' and old.state = 'open' then
    with gone as (
      update public.seat_offers set status = 'withdrawn', settled_at = now()
      where date_id = new.id and status = 'offered' returning 1
    )
    select new.places_left + count(*) into new.places_left from gone;
  end if;
  if new.places_left <= 0 or new.state <> 'open' or new.soon or new.dtstart <= now() then
    return new;
  end if;
  if not exists (select from public.workshop_sessions s where s.id = new.session_id and s.published) then
    return new;
  end if;
  for alert in
    select a.id from public.seat_alerts a
    where a.date_id = new.id and a.notified_at is null
    order by a.created_at, a.id
    limit new.places_left
  loop
    insert into public.seat_offers (alert_id, date_id, expires_at)
    values (alert.id, new.id, now() + public.seat_offer_window()) returning id into offer;
    update public.seat_alerts set notified_at = now() where id = alert.id;
    perform outbox.enqueue('seat-offer-mail', jsonb_build_object('offerId', offer), 'seat-offer-' || offer);
    new.places_left := new.places_left - 1;
  end loop;
  return new;
end $$;
revoke execute on function public.offer_places_to_waiting_list() from public;
create trigger session_dates_waiting_list before update on public.session_dates
  for each row execute function public.offer_places_to_waiting_list();

-- A canceled date stays canceled, and only cancel_session_date (below) cancels: an admin's plain edit
-- cannot skip the refunds.
create or replace function public.guard_session_date_state() returns trigger
language plpgsql set search_path = '' as $$
begin
  if old.state = 'canceled' and new.state <> 'canceled' then
    raise exception 'a canceled date stays canceled' using errcode = '42501';
  end if;
  if new.state = 'canceled' and old.state <> 'canceled' and current_user in ('authenticated', 'anon') then
    raise exception 'cancel a date with cancel_session_date()' using errcode = '42501';
  end if;
  return new;
end $$;
create trigger session_dates_guard_state before update of state on public.session_dates
  for each row execute function public.guard_session_date_state();

-- Expired offers of one date give their places back (which the trigger offers to the next in line).
-- The caller holds the date's row lock.
create or replace function public.expire_seat_offers_for_date(p_date bigint) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  freed integer;
begin
  with gone as (
    update public.seat_offers set status = 'expired', settled_at = now()
    where date_id = p_date and status = 'offered' and expires_at <= now() returning 1
  )
  select count(*)::int into freed from gone;
  if freed > 0 then
    update public.session_dates set places_left = places_left + freed where id = p_date;
  end if;
  return freed;
end $$;
revoke execute on function public.expire_seat_offers_for_date(bigint) from public;

-- The job registry's 'expire-seat-offers' (every minute): dates with expired offers, each under its row
-- lock; a date another transaction holds is skipped (next minute, or its own next hold, does it).
create or replace function public.expire_seat_offers() returns integer
language plpgsql security definer set search_path = '' as $$
declare
  d bigint;
  total integer := 0;
begin
  for d in
    select s.id from public.session_dates s
    where s.id in (select o.date_id from public.seat_offers o where o.status = 'offered' and o.expires_at <= now())
    order by s.id for update of s skip locked
  loop
    total := total + public.expire_seat_offers_for_date(d);
  end loop;
  return total;
end $$;
revoke execute on function public.expire_seat_offers() from public;
grant execute on function public.expire_seat_offers() to service_role;

-- Every hold first gives back the date's expired holds — and now its expired offers.
create or replace function public.release_expired_for_date(p_date bigint) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  freed integer;
begin
  with gone as (
    delete from public.cart_lines l where l.date_id = p_date and l.expires_at <= now() returning l.quantity
  )
  select coalesce(sum(quantity), 0)::int into freed from gone;
  if freed > 0 then
    update public.session_dates set places_left = places_left + freed where id = p_date;
  end if;
  return freed + public.expire_seat_offers_for_date(p_date);
end $$;
revoke execute on function public.release_expired_for_date(bigint) from public;

-- The longest a line may be held, from its first hold: twice the hold time.
create or replace function public.hold_deadline(first_hold timestamptz, p_hold_minutes integer) returns timestamptz
language sql immutable set search_path = '' as $$
  select first_hold + make_interval(mins => 2 * greatest(1, least(coalesce(p_hold_minutes, 20), 120)))
$$;

-- add_to_cart as before (20261127001000_sessions.sql), except that adding to an existing line holds it
-- again only up to hold_deadline(line's first hold).
create or replace function public.add_to_cart(p_token text, p_date uuid, p_quantity integer, p_hold_minutes integer)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  d public.session_dates;
  cart uuid;
  line public.cart_lines;
  expiry timestamptz := now() + make_interval(mins => greatest(1, least(coalesce(p_hold_minutes, 20), 120)));
begin
  select * into d from public.session_dates where uuid = p_date for update;
  if not found or not exists (select from public.workshop_sessions s where s.id = d.session_id and s.published) then
    return jsonb_build_object('ok', false, 'reason', 'not_found');
  end if;
  perform public.release_expired_for_date(d.id);
  select * into d from public.session_dates where id = d.id;
  if d.state = 'canceled' then return jsonb_build_object('ok', false, 'reason', 'canceled'); end if;
  if d.state = 'closed' then return jsonb_build_object('ok', false, 'reason', 'closed'); end if;
  if d.dtstart <= now() then return jsonb_build_object('ok', false, 'reason', 'past'); end if;
  if d.soon then return jsonb_build_object('ok', false, 'reason', 'soon'); end if;
  if d.places_left = 0 then return jsonb_build_object('ok', false, 'reason', 'full'); end if;
  if p_quantity is null or p_quantity < 1 or p_quantity > d.places_left then
    return jsonb_build_object('ok', false, 'reason', 'quantity', 'places_left', d.places_left);
  end if;
  cart := public.resolve_cart(p_token, true);
  if cart is null then return jsonb_build_object('ok', false, 'reason', 'no_cart'); end if;
  update public.session_dates set places_left = places_left - p_quantity where id = d.id
    returning * into d;
  insert into public.cart_lines as l (cart_id, date_id, quantity, expires_at)
  values (cart, d.id, p_quantity, expiry)
  on conflict (cart_id, date_id) do update set quantity = l.quantity + excluded.quantity,
    expires_at = greatest(l.expires_at, least(excluded.expires_at, public.hold_deadline(l.created_at, p_hold_minutes)))
  returning * into line;
  return jsonb_build_object('ok', true, 'line_id', line.id, 'quantity', line.quantity,
    'expires_at', extract(epoch from line.expires_at)::bigint, 'places_left', d.places_left);
end $$;
revoke execute on function public.add_to_cart(text, uuid, integer, integer) from public;
grant execute on function public.add_to_cart(text, uuid, integer, integer) to anon, authenticated;

-- change_cart_line as before, with the same deadline.
create or replace function public.change_cart_line(p_token text, p_line uuid, p_quantity integer, p_hold_minutes integer)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  cart uuid := public.resolve_cart(p_token, false);
  line public.cart_lines;
  d public.session_dates;
  delta integer;
begin
  select * into line from public.cart_lines where id = p_line and cart_id = cart;
  if not found then return jsonb_build_object('ok', false, 'reason', 'not_found'); end if;
  select * into d from public.session_dates where id = line.date_id for update;
  select * into line from public.cart_lines where id = p_line for update;
  if not found or line.expires_at <= now() then
    perform public.release_expired_for_date(d.id);
    return jsonb_build_object('ok', false, 'reason', 'expired');
  end if;
  if d.state <> 'open' or d.soon or d.dtstart <= now() then
    return jsonb_build_object('ok', false, 'reason', 'closed');
  end if;
  delta := p_quantity - line.quantity;
  if p_quantity is null or p_quantity < 1 or delta > d.places_left then
    return jsonb_build_object('ok', false, 'reason', 'quantity', 'places_left', d.places_left + line.quantity);
  end if;
  update public.session_dates set places_left = places_left - delta where id = d.id returning * into d;
  update public.cart_lines set quantity = p_quantity,
    expires_at = greatest(expires_at, least(
      now() + make_interval(mins => greatest(1, least(coalesce(p_hold_minutes, 20), 120))),
      public.hold_deadline(created_at, p_hold_minutes)))
  where id = line.id returning * into line;
  return jsonb_build_object('ok', true, 'line_id', line.id, 'quantity', line.quantity,
    'expires_at', extract(epoch from line.expires_at)::bigint, 'places_left', d.places_left);
end $$;
revoke execute on function public.change_cart_line(text, uuid, integer, integer) from public;
grant execute on function public.change_cart_line(text, uuid, integer, integer) to anon, authenticated;

-- The offer link (checked and signed by the app): its place goes into the caller's cart, held for the
-- hold time (the place does not go back on sale in between). Single use. {ok, line_id, quantity,
-- expires_at, places_left} or {ok: false, reason}: not_found | used | expired | canceled | closed |
-- past | no_cart.
create or replace function public.claim_seat_offer(p_token text, p_offer uuid, p_hold_minutes integer)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  o public.seat_offers;
  d public.session_dates;
  cart uuid;
  line public.cart_lines;
begin
  select * into o from public.seat_offers where id = p_offer;
  if not found then return jsonb_build_object('ok', false, 'reason', 'not_found'); end if;
  select * into d from public.session_dates where id = o.date_id for update;
  select * into o from public.seat_offers where id = p_offer for update;
  if o.status = 'claimed' then return jsonb_build_object('ok', false, 'reason', 'used'); end if;
  if o.status <> 'offered' or o.expires_at <= now() then
    perform public.release_expired_for_date(d.id);
    return jsonb_build_object('ok', false, 'reason', 'expired');
  end if;
  if d.state = 'canceled' then return jsonb_build_object('ok', false, 'reason', 'canceled'); end if;
  if d.state = 'closed' then return jsonb_build_object('ok', false, 'reason', 'closed'); end if;
  if d.dtstart <= now() then return jsonb_build_object('ok', false, 'reason', 'past'); end if;
  cart := public.resolve_cart(p_token, true);
  if cart is null then return jsonb_build_object('ok', false, 'reason', 'no_cart'); end if;
  insert into public.cart_lines as l (cart_id, date_id, quantity, expires_at)
  values (cart, d.id, 1, now() + make_interval(mins => greatest(1, least(coalesce(p_hold_minutes, 20), 120))))
  on conflict (cart_id, date_id) do update set quantity = l.quantity + 1,
    expires_at = greatest(l.expires_at, excluded.expires_at)
  returning * into line;
  update public.seat_offers set status = 'claimed', settled_at = now() where id = o.id;
  return jsonb_build_object('ok', true, 'line_id', line.id, 'quantity', line.quantity,
    'expires_at', extract(epoch from line.expires_at)::bigint, 'places_left', d.places_left);
end $$;
revoke execute on function public.claim_seat_offer(text, uuid, integer) from public;
grant execute on function public.claim_seat_offer(text, uuid, integer) to anon, authenticated;

-- Admins: close (no new bookings) or reopen an open date. {ok, state} or {ok: false, reason}:
-- not_found | canceled.
create or replace function public.set_session_date_closed(p_date uuid, p_closed boolean) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  d public.session_dates;
begin
  if not coalesce(public.is_admin(), false) then
    raise exception 'only admins close dates' using errcode = '42501';
  end if;
  select * into d from public.session_dates where uuid = p_date for update;
  if not found then return jsonb_build_object('ok', false, 'reason', 'not_found'); end if;
  if d.state = 'canceled' then return jsonb_build_object('ok', false, 'reason', 'canceled'); end if;
  update public.session_dates set state = case when p_closed then 'closed' else 'open' end where id = d.id
    returning * into d;
  return jsonb_build_object('ok', true, 'state', d.state);
end $$;
revoke execute on function public.set_session_date_closed(uuid, boolean) from public;
grant execute on function public.set_session_date_closed(uuid, boolean) to authenticated;

-- Cancels a date, for good (the system, after lib/sessions/use_cases/date_operations.ts checked the
-- admin). The orders of its registrations and holds are locked first, then the date (orders before
-- dates, as record_order_payment and cancel_registration lock them); state 'canceled' (the trigger
-- withdraws open offers), every cart hold on the date released. Its registrations are then canceled
-- and refunded one by one by the caller through cancel_registration(), in the same transaction.
-- Idempotent: {ok, already: true} the second time. {ok, already, released, withdrawn} or {ok: false,
-- reason: not_found}.
create or replace function public.cancel_session_date(p_date uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  d public.session_dates;
  released integer;
  withdrawn integer;
begin
  select * into d from public.session_dates where uuid = p_date;
  if not found then return jsonb_build_object('ok', false, 'reason', 'not_found'); end if;
  perform from public.orders o
  where o.id in (select g.order_id from public.registrations g where g.date_id = d.id and g.status <> 'canceled'
                 union select l.order_id from public.cart_lines l where l.date_id = d.id)
  order by o.id for update;
  select * into d from public.session_dates where id = d.id for update;
  if d.state = 'canceled' then return jsonb_build_object('ok', true, 'already', true); end if;
  select count(*)::int into withdrawn from public.seat_offers where date_id = d.id and status = 'offered';
  with gone as (delete from public.cart_lines where date_id = d.id returning quantity)
  select coalesce(sum(quantity), 0)::int into released from gone;
  update public.session_dates set state = 'canceled', places_left = places_left + released where id = d.id;
  return jsonb_build_object('ok', true, 'already', false, 'released', released, 'withdrawn', withdrawn);
end $$;
revoke execute on function public.cancel_session_date(uuid) from public;
grant execute on function public.cancel_session_date(uuid) to service_role;
