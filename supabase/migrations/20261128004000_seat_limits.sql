-- Limits one visitor cannot turn against others (issue "Production, part 2", items 1 and 2).
-- Seats (pretix's per-order limits), enforced here, in every function that holds places, whoever calls
-- them (the app, or the Data API):
--   * workshop_sessions.max_places_per_date (default 10, an admin setting per session): the places of one
--     date one cart holds (add_to_cart, change_cart_line, claim_seat_offer, merge_cart).
--   * public.max_places_held() (20): the places one cart holds across dates, live holds only. A customer
--     has one cart; an anonymous visitor's cart is its cookie's.
--   * public.hold_cooldown() (15 minutes): a cart whose hold on a date lapsed (expired, its places given
--     back) cannot hold that date again before the cool-down ends (cart_hold_lapses). Removing a line is
--     not a lapse.
--   * create_cart_order refuses a cart over max_places_held() (a backstop: the holds already respect it).
--   Every function of a cart locks the cart's row before its dates (as lock_cart_for_checkout does), so
--   two holds of one cart run one after the other whatever dates they touch: their totals cannot race.
-- Rate limits: identity.hit_rate_limit() gains a weight (a hold counts its places in a per-address
-- bucket), identity.give_back_rate_limit() returns a weighted try.
-- Login: identity.login_attempts gets the index of the per-account count.

alter table public.workshop_sessions
  add column max_places_per_date integer not null default 10 check (max_places_per_date between 1 and 1000);

create or replace function public.max_places_held() returns integer
language sql immutable set search_path = '' as $$ select 20 $$;

create or replace function public.hold_cooldown() returns interval
language sql immutable set search_path = '' as $$ select interval '15 minutes' $$;

create table public.cart_hold_lapses (
  cart_id uuid not null references public.carts (id) on delete cascade,
  date_id bigint not null references public.session_dates (id) on delete cascade,
  lapsed_at timestamptz not null default now(),
  primary key (cart_id, date_id)
);
create index cart_hold_lapses_date_idx on public.cart_hold_lapses (date_id, lapsed_at);
alter table public.cart_hold_lapses enable row level security;
grant select, insert, update, delete on public.cart_hold_lapses to service_role;

-- ---------------------------------------------------------------------------------------------------
-- Weighted rate limits (same sliding window as hit_rate_limit(text, integer)).
create or replace function identity.hit_rate_limit(p_bucket text, p_window_seconds integer, p_weight integer)
returns double precision
language plpgsql security definer set search_path = '' as $$
declare
  w_start timestamptz := to_timestamp(floor(extract(epoch from now()) / p_window_seconds) * p_window_seconds);
  current_hits integer;
  previous_hits integer;
  elapsed double precision;
begin
  insert into identity.rate_limits as r (bucket, window_start, hits)
  values (p_bucket, w_start, greatest(p_weight, 0))
  on conflict (bucket, window_start) do update set hits = r.hits + greatest(p_weight, 0)
  returning r.hits into current_hits;
  select r.hits into previous_hits from identity.rate_limits r
  where r.bucket = p_bucket and r.window_start = w_start - make_interval(secs => p_window_seconds);
  elapsed := extract(epoch from now() - w_start) / p_window_seconds;
  return current_hits + coalesce(previous_hits, 0) * (1 - elapsed);
end $$;
revoke execute on function identity.hit_rate_limit(text, integer, integer) from public, anon, authenticated;
grant execute on function identity.hit_rate_limit(text, integer, integer) to service_role;

-- Gives back `p_weight` hits in the newest window of the bucket (never below zero).
create or replace function identity.give_back_rate_limit(p_bucket text, p_weight integer) returns void
language sql security definer set search_path = '' as $$
  update identity.rate_limits r set hits = greatest(r.hits - greatest(p_weight, 0), 0)
  where r.bucket = p_bucket
    and r.window_start = (select max(l.window_start) from identity.rate_limits l where l.bucket = p_bucket);
$$;
revoke execute on function identity.give_back_rate_limit(text, integer) from public, anon, authenticated;
grant execute on function identity.give_back_rate_limit(text, integer) to service_role;

-- The login's per-account count (failures of one email from every address) and the known pairs: an
-- address that logged into an account (or registered it, or completed a reset for it) stays known to it
-- for 30 days (lib/auth/policy.ts), so successes are kept that long; failures a day, as before.
create index login_attempts_email_ip_idx on identity.login_attempts (email, ip, attempted_at desc);
create or replace function identity.purge_expired() returns void
language sql security definer set search_path = '' as $$
  delete from identity.sessions where expires_at < now();
  delete from identity.login_attempts where attempted_at < now() - interval '1 day' and not succeeded;
  delete from identity.login_attempts where attempted_at < now() - interval '30 days';
  delete from identity.password_reset_tokens where expires_at < now() - interval '1 day';
  delete from identity.rate_limits where window_start < now() - interval '2 days';
$$;
revoke execute on function identity.purge_expired() from public, anon, authenticated;
grant execute on function identity.purge_expired() to service_role;

-- ---------------------------------------------------------------------------------------------------
-- The caller's cart, locked (null when it has none yet). Internal.
create or replace function public.lock_own_cart(p_token text) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  cart uuid := public.resolve_cart(p_token, false);
begin
  if cart is not null then
    perform from public.carts c where c.id = cart for update;
  end if;
  return cart;
end $$;
revoke execute on function public.lock_own_cart(text) from public, anon, authenticated;

-- What a cart may still take of a date: {ok} or the refusal {ok: false, reason, limit, held, until}:
-- cooldown (until: unix seconds; only when `p_cooldown`) | date_limit | cart_limit. `p_extra`: the places
-- asked for on top of what the cart holds live. The caller holds the cart's and the date's locks. Internal.
create or replace function public.cart_limit_refusal(p_cart uuid, p_date bigint, p_extra integer,
  p_cooldown boolean default true)
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  per_date integer;
  on_date integer := 0;
  held integer := 0;
  lapsed timestamptz;
begin
  select s.max_places_per_date into per_date
  from public.session_dates d join public.workshop_sessions s on s.id = d.session_id where d.id = p_date;
  if p_cart is not null then
    select coalesce(sum(l.quantity) filter (where l.date_id = p_date), 0)::int, coalesce(sum(l.quantity), 0)::int
    into on_date, held
    from public.cart_lines l where l.cart_id = p_cart and l.expires_at > now();
    if on_date = 0 and p_cooldown then
      select x.lapsed_at into lapsed from public.cart_hold_lapses x
      where x.cart_id = p_cart and x.date_id = p_date and x.lapsed_at > now() - public.hold_cooldown();
      if found then
        return jsonb_build_object('ok', false, 'reason', 'cooldown',
          'until', ceil(extract(epoch from lapsed + public.hold_cooldown()))::bigint);
      end if;
    end if;
  end if;
  if on_date + p_extra > coalesce(per_date, 10) then
    return jsonb_build_object('ok', false, 'reason', 'date_limit', 'limit', coalesce(per_date, 10), 'held', on_date);
  end if;
  if held + p_extra > public.max_places_held() then
    return jsonb_build_object('ok', false, 'reason', 'cart_limit', 'limit', public.max_places_held(), 'held', held);
  end if;
  return jsonb_build_object('ok', true);
end $$;
revoke execute on function public.cart_limit_refusal(uuid, bigint, integer, boolean) from public, anon, authenticated;

-- Gives back the places of a date's expired holds and of its expired offers (as before), and remembers
-- each lapsed hold for the cool-down. The caller holds the date's row lock.
create or replace function public.release_expired_for_date(p_date bigint) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  freed integer;
begin
  delete from public.cart_hold_lapses x where x.date_id = p_date and x.lapsed_at <= now() - public.hold_cooldown();
  with gone as (
    delete from public.cart_lines l where l.date_id = p_date and l.expires_at <= now()
    returning l.cart_id, l.quantity
  ), lapses as (
    insert into public.cart_hold_lapses as x (cart_id, date_id, lapsed_at)
    select distinct g.cart_id, p_date, now() from gone g
    on conflict (cart_id, date_id) do update set lapsed_at = excluded.lapsed_at
    returning 1
  )
  select coalesce((select sum(quantity) from gone), 0)::int into freed;
  if freed > 0 then
    update public.session_dates set places_left = places_left + freed where id = p_date;
  end if;
  return freed + public.expire_seat_offers_for_date(p_date);
end $$;
revoke execute on function public.release_expired_for_date(bigint) from public, anon, authenticated;

-- add_to_cart as before (20261127004000_session_ops.sql), within the cart's limits: {ok: false, reason}
-- gains cooldown (until) | date_limit | cart_limit (limit, held).
create or replace function public.add_to_cart(p_token text, p_date uuid, p_quantity integer, p_hold_minutes integer)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  d public.session_dates;
  cart uuid;
  line public.cart_lines;
  refusal jsonb;
  expiry timestamptz := now() + make_interval(mins => greatest(1, least(coalesce(p_hold_minutes, 20), 120)));
begin
  cart := public.lock_own_cart(p_token);
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
  refusal := public.cart_limit_refusal(cart, d.id, p_quantity);
  if not (refusal ->> 'ok')::boolean then return refusal; end if;
  if cart is null then
    cart := public.resolve_cart(p_token, true);
    if cart is null then return jsonb_build_object('ok', false, 'reason', 'no_cart'); end if;
    perform from public.carts c where c.id = cart for update;
    -- A hold of the same new cart may have committed meanwhile: count again under the lock.
    refusal := public.cart_limit_refusal(cart, d.id, p_quantity);
    if not (refusal ->> 'ok')::boolean then return refusal; end if;
  end if;
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

-- change_cart_line as before, within the cart's limits when the line grows.
create or replace function public.change_cart_line(p_token text, p_line uuid, p_quantity integer, p_hold_minutes integer)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  cart uuid := public.lock_own_cart(p_token);
  line public.cart_lines;
  d public.session_dates;
  delta integer;
  refusal jsonb;
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
  if delta > 0 then
    refusal := public.cart_limit_refusal(cart, d.id, delta);
    if not (refusal ->> 'ok')::boolean then return refusal; end if;
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

-- claim_seat_offer as before, within the cart's per-date and total limits (an offer is its subscriber's
-- invitation: no cool-down). A refused claim leaves the offer open.
create or replace function public.claim_seat_offer(p_token text, p_offer uuid, p_hold_minutes integer)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  o public.seat_offers;
  d public.session_dates;
  cart uuid;
  line public.cart_lines;
  refusal jsonb;
begin
  cart := public.lock_own_cart(p_token);
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
  if cart is null then
    cart := public.resolve_cart(p_token, true);
    if cart is null then return jsonb_build_object('ok', false, 'reason', 'no_cart'); end if;
    perform from public.carts c where c.id = cart for update;
  end if;
  refusal := public.cart_limit_refusal(cart, d.id, 1, false);
  if not (refusal ->> 'ok')::boolean then return refusal; end if;
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

-- merge_cart as before, within the customer's limits: the carts are locked first (the customer's, then
-- the anonymous one), then the dates; merged lines above a date's limit, then lines (latest dates
-- first) above max_places_held(), give their extra places back to their dates (a line being paid for
-- is kept whole).
create or replace function public.merge_cart(p_token text) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  anonymous_cart uuid;
  own uuid;
  moved integer;
  over record;
  budget integer := public.max_places_held();
  keep integer;
begin
  if auth.uid() is null or coalesce(public.current_user_type(), '') <> 'Customer' or p_token is null then
    return 0;
  end if;
  own := public.resolve_cart(null, true);
  perform from public.carts c where c.id = own for update;
  select c.id into anonymous_cart from public.carts c
  where c.token_hash = encode(sha256(convert_to(p_token, 'UTF8')), 'hex') for update;
  if anonymous_cart is null then return 0; end if;
  perform from public.session_dates d
  where d.id in (select l.date_id from public.cart_lines l where l.cart_id in (anonymous_cart, own))
  order by d.id for update;
  with moving as (
    delete from public.cart_lines l where l.cart_id = anonymous_cart returning l.date_id, l.quantity, l.expires_at
  ), merged as (
    insert into public.cart_lines as l (cart_id, date_id, quantity, expires_at)
    select own, m.date_id, m.quantity, m.expires_at from moving m
    on conflict (cart_id, date_id) do update
      set quantity = l.quantity + excluded.quantity, expires_at = greatest(l.expires_at, excluded.expires_at)
    returning 1
  )
  select count(*)::int into moved from merged;
  delete from public.carts where id = anonymous_cart;
  -- Live lines, earliest dates first, trimmed to the date's limit and to what the cart may still hold.
  for over in
    select l.id, l.date_id, l.quantity, l.order_id, s.max_places_per_date as per_date
    from public.cart_lines l
    join public.session_dates d on d.id = l.date_id
    join public.workshop_sessions s on s.id = d.session_id
    where l.cart_id = own and l.expires_at > now()
    order by d.dtstart, l.created_at
  loop
    -- A line being paid for (tied to an order) keeps its places: its registration says how many.
    keep := case when over.order_id is not null then over.quantity
                 else greatest(least(over.quantity, over.per_date, budget), 0) end;
    budget := budget - keep;
    if keep < over.quantity then
      if keep = 0 then
        delete from public.cart_lines where id = over.id;
      else
        update public.cart_lines set quantity = keep where id = over.id;
      end if;
      update public.session_dates set places_left = places_left + (over.quantity - keep) where id = over.date_id;
    end if;
  end loop;
  return moved;
end $$;
revoke execute on function public.merge_cart(text) from public;
grant execute on function public.merge_cart(text) to authenticated;

-- create_cart_order as before (20261127002000_checkout.sql), refusing a cart that holds more than
-- max_places_held() places (errcode 23514).
create or replace function public.create_cart_order(p_user uuid, p_lines jsonb, p_hold_minutes integer)
returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  created bigint;
  previous record;
  line jsonb;
  hold public.cart_lines;
  registration uuid;
  total bigint := 0;
  held integer;
begin
  -- The cart's live holds named by the lines: never more than max_places_held() (a backstop, the holds
  -- already respect it; the use case checks it first and answers in French).
  select coalesce(sum(l.quantity), 0)::int into held
  from public.cart_lines l join public.carts c on c.id = l.cart_id
  where c.user_id = p_user and l.expires_at > now()
    and l.id in (select (x ->> 'lineId')::uuid from jsonb_array_elements(p_lines) x);
  if held > public.max_places_held() then
    raise exception 'a cart holds at most % places', public.max_places_held() using errcode = '23514';
  end if;
  for previous in
    select o.id from public.orders o
    where o.user_id = p_user and o.kind = 'cart' and o.status in ('pending', 'expired') order by o.id for update
  loop
    perform public.supersede_order_intents(previous.id, null);
    update public.orders set status = 'canceled', canceled_at = now() where id = previous.id;
    update public.registrations set status = 'canceled' where order_id = previous.id and status = 'pending';
  end loop;
  select coalesce(sum((l ->> 'amount')::bigint), 0) into total from jsonb_array_elements(p_lines) l;
  insert into public.orders (kind, user_id, total_amount) values ('cart', p_user, total) returning id into created;
  for line in select * from jsonb_array_elements(p_lines) loop
    select l.* into hold from public.cart_lines l join public.carts c on c.id = l.cart_id
    where l.id = (line ->> 'lineId')::uuid and c.user_id = p_user for update of l;
    if not found then
      raise exception 'cart line % is not the customer''s', line ->> 'lineId' using errcode = 'P0002';
    end if;
    insert into public.registrations (user_id, date_id, quantity, amount, status, order_id)
    values (p_user, hold.date_id, hold.quantity, (line ->> 'amount')::bigint, 'pending', created)
    returning id into registration;
    insert into public.order_lines (order_id, label, quantity, unit_amount, amount, detail, registration_id)
    values (created, line ->> 'label', hold.quantity, (line ->> 'unitAmount')::bigint, (line ->> 'amount')::bigint,
            coalesce(line -> 'detail', '[]'), registration);
    -- The payment gets a hold time, but a line is never held past three hold times from its first hold
    -- (hold_deadline, session_ops migration: two for the cart, one more for paying): checking out again
    -- and again cannot keep a date's places forever. A payment that arrives after the hold expired is
    -- still seated if the places are there (order_paid_cart), refunded otherwise.
    update public.cart_lines set order_id = created,
      expires_at = greatest(expires_at, least(
        now() + make_interval(mins => greatest(1, least(coalesce(p_hold_minutes, 20), 120))),
        public.hold_deadline(created_at, p_hold_minutes)
          + make_interval(mins => greatest(1, least(coalesce(p_hold_minutes, 20), 120)))))
    where id = hold.id;
  end loop;
  return created;
end $$;
revoke execute on function public.create_cart_order(uuid, jsonb, integer) from public, anon, authenticated;
grant execute on function public.create_cart_order(uuid, jsonb, integer) to service_role;
