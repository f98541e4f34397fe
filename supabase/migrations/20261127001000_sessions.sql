-- Cocktail-workshop sessions (spec 000 §2-§5, §9), first slice: sessions and their dates, carts that
-- hold places until an expiry (pretix's cart reservations), registrations and seat alerts.
--   * workshop_sessions: a workshop (title, slug, description, city, photos) sold by dates.
--   * session_dates: one date of a session. `places` is its capacity; `places_left` what nobody holds
--     nor booked. Never oversold: every change of places_left happens under the date's row lock (an
--     atomic conditional update or `select … for update`), and `places_left between 0 and places` is
--     checked by the table as a backstop. Admins edit `places`; the trigger moves places_left by the
--     same amount (the check refuses a capacity below what is already taken).
--   * carts / cart_lines: a visitor's cart, anonymous (known by the SHA-256 of its cookie's token) or a
--     customer's. A line holds its places until expires_at; release_expired_holds() (the job registry,
--     every minute) and every later hold on the same date give expired places back.
--   * registrations: a booking (pending at checkout, invoiced when paid, canceled). Written by the
--     checkout of a later slice (service role); read here by their customer and admins.
--   * seat_alerts: 'M'alerter si une place se libère', one per date and email.
-- Anonymous visitors reach their cart only through the security-definer functions below, given the
-- cookie's token; signed-in customers through the same functions (their cart is theirs by auth.uid()).

create table public.workshop_sessions (
  id bigint generated always as identity primary key,
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 120),
  title text not null check (length(title) between 1 and 200),
  description text not null default '' check (length(description) <= 20000),
  city text not null check (length(city) between 1 and 100),
  photos jsonb not null default '[]' check (jsonb_typeof(photos) = 'array'),
  published boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger workshop_sessions_set_updated_at before update on public.workshop_sessions
  for each row execute function public.set_updated_at();

create table public.session_dates (
  id bigint generated always as identity primary key,
  uuid uuid not null unique default gen_random_uuid(),
  session_id bigint not null references public.workshop_sessions (id) on delete restrict,
  dtstart timestamptz not null,
  places integer not null check (places between 0 and 10000),
  places_left integer not null,
  -- Cents, VAT included; additional costs: [{title, ht (cents), vat (percent)}].
  price_ttc bigint not null check (price_ttc between 0 and 100000000),
  travel_cost_ttc bigint not null default 0 check (travel_cost_ttc between 0 and 100000000),
  additional_costs jsonb not null default '[]' check (jsonb_typeof(additional_costs) = 'array'),
  -- Shown but not open for booking yet ('BIENTÔT DISPO').
  soon boolean not null default false,
  -- closed: no more bookings, hidden from the public; canceled: the date will not take place.
  state text not null default 'open' check (state in ('open', 'closed', 'canceled')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint session_dates_never_oversold check (places_left between 0 and places),
  unique (session_id, dtstart)
);
create index session_dates_session_idx on public.session_dates (session_id, dtstart);
create trigger session_dates_set_updated_at before update on public.session_dates
  for each row execute function public.set_updated_at();

create table public.carts (
  id uuid primary key default gen_random_uuid(),
  token_hash text unique check (token_hash ~ '^[0-9a-f]{64}$'),
  user_id uuid unique references public.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((token_hash is null) <> (user_id is null))
);

create table public.cart_lines (
  id uuid primary key default gen_random_uuid(),
  cart_id uuid not null references public.carts (id) on delete cascade,
  date_id bigint not null references public.session_dates (id) on delete restrict,
  quantity integer not null check (quantity between 1 and 10000),
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  unique (cart_id, date_id)
);
create index cart_lines_date_idx on public.cart_lines (date_id);
create index cart_lines_expiry_idx on public.cart_lines (expires_at);

create table public.registrations (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.users (id) on delete restrict,
  date_id bigint not null references public.session_dates (id) on delete restrict,
  quantity integer not null check (quantity between 1 and 10000),
  amount bigint not null check (amount >= 0),
  discount_amount bigint not null default 0 check (discount_amount >= 0),
  status text not null default 'pending' check (status in ('pending', 'invoiced', 'canceled')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index registrations_user_idx on public.registrations (user_id, created_at desc);
create index registrations_date_idx on public.registrations (date_id);
create trigger registrations_set_updated_at before update on public.registrations
  for each row execute function public.set_updated_at();

create table public.seat_alerts (
  id uuid primary key default gen_random_uuid(),
  date_id bigint not null references public.session_dates (id) on delete cascade,
  email text not null check (email = lower(email) and length(email) between 3 and 254),
  optin boolean not null check (optin),
  user_id uuid references public.users (id) on delete set null,
  created_at timestamptz not null default now(),
  notified_at timestamptz,
  unique (date_id, email)
);
create index seat_alerts_user_idx on public.seat_alerts (user_id);

-- ---------------------------------------------------------------------------------------------------
-- places_left follows places: a new date starts with every place free; an admin's change of capacity
-- moves what is left by the same amount (under the row lock the update takes). Only the functions
-- below (owner role) change places_left itself.
create or replace function public.guard_session_date_places() returns trigger
language plpgsql set search_path = '' as $$
begin
  if current_user in ('authenticated', 'anon') then
    if tg_op = 'INSERT' then
      new.places_left := new.places;
    else
      new.places_left := old.places_left + (new.places - old.places);
    end if;
  end if;
  return new;
end $$;
create trigger session_dates_guard_places before insert or update on public.session_dates
  for each row execute function public.guard_session_date_places();

-- ---------------------------------------------------------------------------------------------------
-- Who sees what. Everyone reads published sessions and their dates. Admins read and change every
-- session and date, and read every cart, line, registration and alert. A customer reads its own cart,
-- lines, registrations and alerts. Partners see none of it. Carts change only through the functions.

alter table public.workshop_sessions enable row level security;
alter table public.session_dates enable row level security;
alter table public.carts enable row level security;
alter table public.cart_lines enable row level security;
alter table public.registrations enable row level security;
alter table public.seat_alerts enable row level security;

create policy "Everyone can read published sessions" on public.workshop_sessions for select to anon, authenticated
  using (published);
create policy "Admins can read every session" on public.workshop_sessions for select to authenticated
  using ((select public.is_admin()));
create policy "Admins can create sessions" on public.workshop_sessions for insert to authenticated
  with check ((select public.is_admin()));
create policy "Admins can change sessions" on public.workshop_sessions for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));

create policy "Everyone can read the dates of published sessions" on public.session_dates for select
  to anon, authenticated
  using (exists (select from public.workshop_sessions s where s.id = session_id and s.published));
create policy "Admins can read every date" on public.session_dates for select to authenticated
  using ((select public.is_admin()));
create policy "Admins can create dates" on public.session_dates for insert to authenticated
  with check ((select public.is_admin()));
create policy "Admins can change dates" on public.session_dates for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));

create policy "Customers can read their cart" on public.carts for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Admins can read every cart" on public.carts for select to authenticated
  using ((select public.is_admin()));
create policy "Customers can read their cart lines" on public.cart_lines for select to authenticated
  using (exists (select from public.carts c where c.id = cart_id and c.user_id = (select auth.uid())));
create policy "Admins can read every cart line" on public.cart_lines for select to authenticated
  using ((select public.is_admin()));

create policy "Customers can read their registrations" on public.registrations for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Admins can read every registration" on public.registrations for select to authenticated
  using ((select public.is_admin()));

create policy "Users can read their seat alerts" on public.seat_alerts for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Admins can read every seat alert" on public.seat_alerts for select to authenticated
  using ((select public.is_admin()));

grant select on public.workshop_sessions, public.session_dates to anon;
grant select, insert, update on public.workshop_sessions, public.session_dates to authenticated;
grant select on public.carts, public.cart_lines, public.registrations, public.seat_alerts to authenticated;
grant select, insert, update, delete on public.workshop_sessions, public.session_dates, public.carts,
  public.cart_lines, public.registrations, public.seat_alerts to service_role;

-- ---------------------------------------------------------------------------------------------------
-- Cart functions. Every one locks the date row before touching its places, so two holds on one date
-- run one after the other, whatever instance serves them.

-- The caller's cart: a signed-in customer's own (created on first use); an anonymous visitor's by the
-- SHA-256 of its cookie token (created on first use when `create_missing`). Other signed-in types have
-- no cart (42501). Internal: not executable by the API roles.
create or replace function public.resolve_cart(p_token text, create_missing boolean) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := auth.uid();
  found uuid;
  hash text;
begin
  if uid is not null then
    if coalesce(public.current_user_type(), '') <> 'Customer' then
      raise exception 'only customers have a cart' using errcode = '42501';
    end if;
    select c.id into found from public.carts c where c.user_id = uid;
    if found is null and create_missing then
      insert into public.carts (user_id) values (uid)
      on conflict (user_id) do update set updated_at = now() returning id into found;
    end if;
    return found;
  end if;
  if p_token is null or length(p_token) < 32 or length(p_token) > 128 then
    return null;
  end if;
  hash := encode(sha256(convert_to(p_token, 'UTF8')), 'hex');
  select c.id into found from public.carts c where c.token_hash = hash;
  if found is null and create_missing then
    insert into public.carts (token_hash) values (hash)
    on conflict (token_hash) do update set updated_at = now() returning id into found;
  end if;
  return found;
end $$;
revoke execute on function public.resolve_cart(text, boolean) from public;

-- Gives back the places of a date's expired holds. The caller holds the date's row lock.
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
  return freed;
end $$;
revoke execute on function public.release_expired_for_date(bigint) from public;

-- The job registry's 'release-expired-holds' (every minute): every expired hold gives its places back,
-- date by date under each date's row lock (dates locked in id order: no deadlock with holds).
create or replace function public.release_expired_holds() returns integer
language plpgsql security definer set search_path = '' as $$
declare
  d bigint;
  total integer := 0;
begin
  for d in
    select s.id from public.session_dates s
    where s.id in (select l.date_id from public.cart_lines l where l.expires_at <= now())
    order by s.id for update of s
  loop
    total := total + public.release_expired_for_date(d);
  end loop;
  return total;
end $$;
revoke execute on function public.release_expired_holds() from public;
grant execute on function public.release_expired_holds() to service_role;

-- Adds `p_quantity` places of a date to the caller's cart and holds them for `p_hold_minutes`
-- (1…120). Answers {ok, line_id, quantity, expires_at, places_left} or {ok: false, reason} with
-- reason not_found | canceled | closed | past | soon | full | quantity (then places_left says what is
-- left) | no_cart (an anonymous call without a valid token).
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
  on conflict (cart_id, date_id) do update set quantity = l.quantity + excluded.quantity, expires_at = excluded.expires_at
  returning * into line;
  return jsonb_build_object('ok', true, 'line_id', line.id, 'quantity', line.quantity,
    'expires_at', extract(epoch from line.expires_at)::bigint, 'places_left', d.places_left);
end $$;
revoke execute on function public.add_to_cart(text, uuid, integer, integer) from public;
grant execute on function public.add_to_cart(text, uuid, integer, integer) to anon, authenticated;

-- Sets a line's quantity (and holds it again for `p_hold_minutes`). {ok, quantity, expires_at,
-- places_left} or {ok: false, reason}: not_found (not the caller's line), expired (its places were
-- given back: the line is gone), quantity (more than the date has left, places_left says how many
-- more the line could take), closed (the date no longer takes bookings).
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
    expires_at = now() + make_interval(mins => greatest(1, least(coalesce(p_hold_minutes, 20), 120)))
  where id = line.id returning * into line;
  return jsonb_build_object('ok', true, 'line_id', line.id, 'quantity', line.quantity,
    'expires_at', extract(epoch from line.expires_at)::bigint, 'places_left', d.places_left);
end $$;
revoke execute on function public.change_cart_line(text, uuid, integer, integer) from public;
grant execute on function public.change_cart_line(text, uuid, integer, integer) to anon, authenticated;

-- Removes a line and gives its places back. {ok} or {ok: false, reason: not_found}.
create or replace function public.remove_cart_line(p_token text, p_line uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  cart uuid := public.resolve_cart(p_token, false);
  line public.cart_lines;
begin
  select * into line from public.cart_lines where id = p_line and cart_id = cart;
  if not found then return jsonb_build_object('ok', false, 'reason', 'not_found'); end if;
  perform from public.session_dates where id = line.date_id for update;
  delete from public.cart_lines where id = p_line returning * into line;
  if found then
    update public.session_dates set places_left = places_left + line.quantity where id = line.date_id;
  end if;
  return jsonb_build_object('ok', true);
end $$;
revoke execute on function public.remove_cart_line(text, uuid) from public;
grant execute on function public.remove_cart_line(text, uuid) to anon, authenticated;

-- The caller's live holds (expired ones are no longer held), with what the cart page shows.
create or replace function public.cart_contents(p_token text)
returns table (line_id uuid, quantity integer, expires_at timestamptz, date_uuid uuid, dtstart timestamptz,
  places_left integer, price_ttc bigint, travel_cost_ttc bigint, additional_costs jsonb, session_id bigint,
  session_slug text, session_title text, session_city text)
language plpgsql stable security definer set search_path = '' as $$
declare
  cart uuid;
begin
  if auth.uid() is not null and coalesce(public.current_user_type(), '') <> 'Customer' then
    return;
  end if;
  cart := public.resolve_cart(p_token, false);
  return query
    select l.id, l.quantity, l.expires_at, d.uuid, d.dtstart, d.places_left, d.price_ttc, d.travel_cost_ttc,
      d.additional_costs, s.id, s.slug, s.title, s.city
    from public.cart_lines l
    join public.session_dates d on d.id = l.date_id
    join public.workshop_sessions s on s.id = d.session_id
    where l.cart_id = cart and l.expires_at > now()
    order by d.dtstart, l.created_at;
end $$;
revoke execute on function public.cart_contents(text) from public;
grant execute on function public.cart_contents(text) to anon, authenticated;

-- At login the anonymous cart of `p_token` joins the customer's cart: lines of the same date add up
-- (their places are already held; the later expiry stays), then the anonymous cart is deleted.
-- Returns how many lines moved. Only for a signed-in customer.
create or replace function public.merge_cart(p_token text) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  anonymous_cart uuid;
  own uuid;
  moved integer;
begin
  if auth.uid() is null or coalesce(public.current_user_type(), '') <> 'Customer' or p_token is null then
    return 0;
  end if;
  select c.id into anonymous_cart from public.carts c
  where c.token_hash = encode(sha256(convert_to(p_token, 'UTF8')), 'hex');
  if anonymous_cart is null then return 0; end if;
  own := public.resolve_cart(null, true);
  -- Lock the dates concerned in id order, as every hold does, before moving their lines.
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
  return moved;
end $$;
revoke execute on function public.merge_cart(text) from public;
grant execute on function public.merge_cart(text) to authenticated;
