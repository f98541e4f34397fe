-- Gift vouchers (spec 000 §2 'Vos bons cadeaux', §3 discount, §9 price 50; issue 12, pretix's gift cards
-- as anchor): bought by card through a voucher order, redeemed on a workshop cart at checkout.
--   * vouchers: one bon cadeau. The code is never stored in clear: code_hash (SHA-256 of the normalised
--     code) finds it, code_sealed (AES-GCM, key derived from the app's secret) lets the app print it for
--     its buyer. `amount` is its face value (5000 cents), `remaining` what is left; never below zero nor
--     above its amount (check constraint, the backstop of the row lock every change takes).
--     pending until its order is paid, then active for one year (valid_until); canceled if its order is
--     refunded.
--   * voucher_redemptions: the amount a voucher pays of one cart order. Reserved at checkout, in the
--     checkout's transaction, under the voucher's row lock (so twenty simultaneous checkouts on one
--     voucher take at most what it has, one after the other), and written to orders.discount_amount
--     (the checkout's contract): the card is asked only for the rest, and an order the voucher covers
--     whole is paid by it at once, without a card (the checkout's pay_order_without_card()). Consumed
--     when the order is paid; released (given back to the voucher) when the order is canceled (a newer
--     checkout supersedes it, an admin cancels it) or left unpaid a day after it expired (the job
--     registry), so a voucher is never stuck.
--   * cart_vouchers: the code a customer applied to its cart (one per cart), read by the cart and taken
--     by the checkout.
-- Who sees what: a voucher's buyer, the customer it was sent to (their account's email, once its send
-- date has come), a customer who applied or redeemed it, and admins. Partners and anonymous visitors
-- see nothing. Only the service role writes (use cases acting as the system after their checks), except
-- applying a code to one's own cart, through apply_cart_voucher().

create table public.vouchers (
  id uuid primary key default gen_random_uuid(),
  buyer_id uuid not null references public.users (id) on delete restrict,
  -- The voucher order (kind 'voucher') that pays for it (20261127002000_checkout.sql).
  order_id bigint unique references public.orders (id) on delete restrict,
  code_hash text not null unique check (code_hash ~ '^[0-9a-f]{64}$'),
  code_sealed text not null check (length(code_sealed) between 10 and 300),
  amount bigint not null check (amount > 0),
  remaining bigint not null,
  -- 'De la part de': the name the buyer signs with (their own by default), printed on the voucher.
  sender_name text not null check (length(sender_name) between 1 and 100),
  recipient_name text not null check (length(recipient_name) between 1 and 100),
  recipient_email text not null check (recipient_email = lower(recipient_email) and length(recipient_email) between 3 and 254),
  message text not null default '' check (length(message) <= 500),
  -- The day the recipient's email leaves (Paris time), from the purchase form.
  send_on date not null,
  status text not null default 'pending' check (status in ('pending', 'active', 'canceled')),
  activated_at timestamptz,
  valid_until timestamptz,
  invoice_id uuid,
  email_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint vouchers_remaining_within_amount check (remaining between 0 and amount),
  check (status <> 'active' or (valid_until is not null and activated_at is not null))
);
create index vouchers_buyer_idx on public.vouchers (buyer_id, created_at desc);
create index vouchers_recipient_idx on public.vouchers (recipient_email);
create trigger vouchers_set_updated_at before update on public.vouchers
  for each row execute function public.set_updated_at();

create table public.voucher_redemptions (
  id uuid primary key default gen_random_uuid(),
  voucher_id uuid not null references public.vouchers (id) on delete restrict,
  user_id uuid not null references public.users (id) on delete restrict,
  order_id bigint not null references public.orders (id) on delete restrict,
  amount bigint not null check (amount > 0),
  status text not null default 'reserved' check (status in ('reserved', 'consumed', 'released')),
  created_at timestamptz not null default now(),
  settled_at timestamptz,
  -- Of a consumed amount, what came back to the voucher when registrations it paid were canceled by
  -- the organiser (return_registration_vouchers), and when it last did.
  returned_amount bigint not null default 0,
  returned_at timestamptz,
  -- One voucher pays one order at most once.
  unique (order_id, voucher_id),
  check (returned_amount between 0 and amount),
  check (returned_amount = 0 or status = 'consumed')
);
create index voucher_redemptions_voucher_idx on public.voucher_redemptions (voucher_id);
create index voucher_redemptions_user_idx on public.voucher_redemptions (user_id);

create table public.cart_vouchers (
  cart_id uuid primary key references public.carts (id) on delete cascade,
  voucher_id uuid not null references public.vouchers (id) on delete cascade,
  applied_at timestamptz not null default now()
);
create index cart_vouchers_voucher_idx on public.cart_vouchers (voucher_id);

-- ---------------------------------------------------------------------------------------------------
-- Who sees what.

-- The caller holds this voucher: it was sent to their account's email (once its day has come), or they
-- applied or redeemed it. Security definer: reads the user's email and the redemptions without RLS.
create or replace function public.is_voucher_holder(p_voucher uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select auth.uid() is not null and (
    exists (select from public.vouchers v join public.users u on u.id = auth.uid()
            where v.id = p_voucher and v.status = 'active' and v.recipient_email = u.email
              and v.send_on <= (now() at time zone 'Europe/Paris')::date)
    or exists (select from public.voucher_redemptions r where r.voucher_id = p_voucher and r.user_id = auth.uid())
    or exists (select from public.cart_vouchers cv join public.carts c on c.id = cv.cart_id
               where cv.voucher_id = p_voucher and c.user_id = auth.uid()))
$$;
revoke execute on function public.is_voucher_holder(uuid) from public;
grant execute on function public.is_voucher_holder(uuid) to authenticated, service_role;

alter table public.vouchers enable row level security;
alter table public.voucher_redemptions enable row level security;
alter table public.cart_vouchers enable row level security;

create policy "Buyers can read their vouchers" on public.vouchers for select to authenticated
  using (buyer_id = (select auth.uid()));
create policy "Holders can read the vouchers they received or used" on public.vouchers for select to authenticated
  using ((select public.is_voucher_holder(id)));
create policy "Admins can read every voucher" on public.vouchers for select to authenticated
  using ((select public.is_admin()));
create policy "Customers can read their redemptions" on public.voucher_redemptions for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Buyers can read the redemptions of their vouchers" on public.voucher_redemptions for select
  to authenticated
  using (exists (select from public.vouchers v where v.id = voucher_id and v.buyer_id = (select auth.uid())));
create policy "Admins can read every redemption" on public.voucher_redemptions for select to authenticated
  using ((select public.is_admin()));
create policy "Customers can read their cart's voucher" on public.cart_vouchers for select to authenticated
  using (exists (select from public.carts c where c.id = cart_id and c.user_id = (select auth.uid())));
create policy "Admins can read every cart voucher" on public.cart_vouchers for select to authenticated
  using ((select public.is_admin()));

grant select on public.vouchers, public.voucher_redemptions, public.cart_vouchers to authenticated;
grant select, insert, update, delete on public.vouchers, public.voucher_redemptions, public.cart_vouchers
  to service_role;

-- ---------------------------------------------------------------------------------------------------
-- Applying a code to one's cart. The caller is a signed-in customer (42501 otherwise); the code is
-- given as its hash. Answers {ok: true, voucher_id, remaining, valid_until} or {ok: false, reason} with
-- reason unknown | pending | canceled | expired (valid_until says when) | empty.
create or replace function public.apply_cart_voucher(p_code_hash text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v public.vouchers;
  cart uuid;
begin
  if auth.uid() is null or coalesce(public.current_user_type(), '') <> 'Customer' then
    raise exception 'only customers use vouchers' using errcode = '42501';
  end if;
  select * into v from public.vouchers where code_hash = p_code_hash;
  if not found then return jsonb_build_object('ok', false, 'reason', 'unknown'); end if;
  if v.status = 'pending' then return jsonb_build_object('ok', false, 'reason', 'pending'); end if;
  if v.status = 'canceled' then return jsonb_build_object('ok', false, 'reason', 'canceled'); end if;
  if v.valid_until <= now() then
    return jsonb_build_object('ok', false, 'reason', 'expired', 'valid_until', extract(epoch from v.valid_until)::bigint);
  end if;
  if v.remaining <= 0 then return jsonb_build_object('ok', false, 'reason', 'empty'); end if;
  cart := public.resolve_cart(null, true);
  insert into public.cart_vouchers as cv (cart_id, voucher_id) values (cart, v.id)
  on conflict (cart_id) do update set voucher_id = excluded.voucher_id, applied_at = now();
  return jsonb_build_object('ok', true, 'voucher_id', v.id, 'remaining', v.remaining,
    'valid_until', extract(epoch from v.valid_until)::bigint);
end $$;
revoke execute on function public.apply_cart_voucher(text) from public;
grant execute on function public.apply_cart_voucher(text) to authenticated;

-- Takes the code off the caller's cart. Returns whether there was one.
create or replace function public.remove_cart_voucher() returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  if auth.uid() is null or coalesce(public.current_user_type(), '') <> 'Customer' then
    raise exception 'only customers use vouchers' using errcode = '42501';
  end if;
  delete from public.cart_vouchers cv using public.carts c where c.id = cv.cart_id and c.user_id = auth.uid();
  return found;
end $$;
revoke execute on function public.remove_cart_voucher() from public;
grant execute on function public.remove_cart_voucher() to authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Redemption, called by the checkout in its own transaction (service role), right after
-- create_cart_order(): what the customer's cart voucher pays of the order. The voucher's row is locked,
-- so concurrent checkouts on one voucher run one after the other and each sees what the previous left;
-- the amount is min(remaining, order total), taken from `remaining` at once (the check constraint
-- refuses any overdraft as a backstop), recorded as a reservation, written to orders.discount_amount
-- (order_amount_due() then asks the card for the rest only) and spread over the order's registrations
-- in their order (registrations.discount_amount: what 'Vos sessions' shows; an organiser's cancellation
-- gives it back to the voucher, return_registration_vouchers, not in cash). The code stays on the cart until the order is paid (a new checkout after a declined
-- card supersedes this order, gives the reservation back and reserves again). Returns the cents
-- reserved (0: no usable voucher).
create or replace function public.reserve_cart_voucher(p_user uuid, p_order bigint)
returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  applied uuid;
  v public.vouchers;
  ord public.orders;
  taken bigint;
  left_to_spread bigint;
  g record;
begin
  select cv.voucher_id into applied from public.cart_vouchers cv join public.carts c on c.id = cv.cart_id
  where c.user_id = p_user;
  if applied is null then return 0; end if;
  select * into ord from public.orders where id = p_order and user_id = p_user and kind = 'cart' for update;
  if not found or ord.status <> 'pending' or ord.total_amount <= 0 then return 0; end if;
  select * into v from public.vouchers where id = applied for update;
  if v.status <> 'active' or v.valid_until <= now() or v.remaining <= 0 then return 0; end if;
  taken := least(v.remaining, ord.total_amount - ord.discount_amount);
  if taken <= 0 then return 0; end if;
  update public.vouchers set remaining = remaining - taken where id = v.id;
  insert into public.voucher_redemptions (voucher_id, user_id, order_id, amount) values (v.id, p_user, p_order, taken);
  update public.orders set discount_amount = discount_amount + taken where id = p_order;
  left_to_spread := taken;
  for g in select r.id, r.amount, r.discount_amount from public.registrations r
           where r.order_id = p_order order by r.created_at, r.id loop
    exit when left_to_spread <= 0;
    update public.registrations set discount_amount = discount_amount + least(left_to_spread, g.amount - g.discount_amount)
    where id = g.id;
    left_to_spread := left_to_spread - least(left_to_spread, g.amount - g.discount_amount);
  end loop;
  return taken;
end $$;
revoke execute on function public.reserve_cart_voucher(uuid, bigint) from public;
grant execute on function public.reserve_cart_voucher(uuid, bigint) to service_role;

-- What the order's vouchers reserved is spent for good (the order is paid), and the code leaves the
-- cart. Returns the cents consumed.
create or replace function public.consume_order_vouchers(p_order bigint) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  total bigint;
begin
  with done as (
    update public.voucher_redemptions set status = 'consumed', settled_at = now()
    where order_id = p_order and status = 'reserved' returning amount
  ) select coalesce(sum(amount), 0)::bigint into total from done;
  -- Spent: the code leaves the customer's cart.
  delete from public.cart_vouchers cv using public.carts c, public.orders o
  where o.id = p_order and c.user_id = o.user_id and cv.cart_id = c.id
    and cv.voucher_id in (select r.voucher_id from public.voucher_redemptions r where r.order_id = p_order);
  return total;
end $$;
revoke execute on function public.consume_order_vouchers(bigint) from public;
grant execute on function public.consume_order_vouchers(bigint) to service_role;

-- The order will not be paid with them: what its vouchers reserved goes back to them, each voucher
-- locked, and the order no longer counts the discount (a payment of the old amount that still arrives
-- no longer matches what is due: recorded and refunded by record_order_payment). Returns the cents.
create or replace function public.release_order_vouchers(p_order bigint) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  r record;
  total bigint := 0;
begin
  for r in
    select rd.id, rd.voucher_id, rd.amount from public.voucher_redemptions rd
    where rd.order_id = p_order and rd.status = 'reserved' order by rd.voucher_id
  loop
    perform from public.vouchers where id = r.voucher_id for update;
    update public.voucher_redemptions set status = 'released', settled_at = now()
    where id = r.id and status = 'reserved';
    if found then
      update public.vouchers set remaining = remaining + r.amount where id = r.voucher_id;
      total := total + r.amount;
    end if;
  end loop;
  if total > 0 then
    update public.orders set discount_amount = greatest(0, discount_amount - total) where id = p_order;
  end if;
  return total;
end $$;
revoke execute on function public.release_order_vouchers(bigint) from public;
grant execute on function public.release_order_vouchers(bigint) to service_role;

-- Whoever moves an order (a card payment, the voucher alone, a newer checkout, an admin's
-- cancellation): paid consumes its reservations, canceled gives them back.
create or replace function public.settle_order_vouchers() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.status = 'paid' then
    perform public.consume_order_vouchers(new.id);
  elsif new.status = 'canceled' then
    perform public.release_order_vouchers(new.id);
  end if;
  return null;
end $$;
create trigger orders_settle_vouchers after update of status on public.orders
  for each row when (old.status is distinct from new.status and new.status in ('paid', 'canceled'))
  execute function public.settle_order_vouchers();

-- A paid registration canceled (the checkout's cancel_registration, in its transaction, the order
-- locked): the share of it a voucher paid (registrations.discount_amount) goes back to the voucher —
-- its remaining raised by that share, never above its amount — and is recorded on the order's consumed
-- redemption (returned_amount). The voucher stays valid at least three months from now (its validity
-- is never shortened): a customer whose workshop was canceled must have time to book another. Only
-- that registration's share: canceling one registration of an order gives back its part alone.
-- Returns the cents given back.
create or replace function public.return_registration_vouchers(p_registration uuid) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  g public.registrations;
  r record;
  share bigint;
  back bigint;
  total bigint := 0;
begin
  select * into g from public.registrations where id = p_registration;
  share := coalesce(g.discount_amount, 0);
  if share <= 0 or g.order_id is null then return 0; end if;
  for r in
    select rd.id, rd.voucher_id, rd.amount, rd.returned_amount from public.voucher_redemptions rd
    where rd.order_id = g.order_id and rd.status = 'consumed' and rd.returned_amount < rd.amount
    order by rd.voucher_id for update
  loop
    exit when share <= 0;
    back := least(share, r.amount - r.returned_amount);
    perform from public.vouchers where id = r.voucher_id for update;
    update public.vouchers set remaining = least(amount, remaining + back),
      valid_until = greatest(valid_until, now() + interval '3 months')
    where id = r.voucher_id;
    update public.voucher_redemptions set returned_amount = returned_amount + back, returned_at = now()
    where id = r.id;
    total := total + back;
    share := share - back;
  end loop;
  return total;
end $$;
revoke execute on function public.return_registration_vouchers(uuid) from public;
grant execute on function public.return_registration_vouchers(uuid) to service_role;

-- The job registry's 'release-stale-voucher-holds' (hourly): an order left unpaid a day after it expired
-- gives its voucher back (its customer may never check out again to supersede it).
create or replace function public.release_stale_voucher_holds() returns integer
language plpgsql security definer set search_path = '' as $$
declare
  o record;
  n integer := 0;
begin
  for o in
    select ord.id from public.orders ord
    where ord.status = 'expired' and ord.updated_at < now() - interval '1 day'
      and exists (select from public.voucher_redemptions r where r.order_id = ord.id and r.status = 'reserved')
    order by ord.id for update of ord skip locked
  loop
    perform public.release_order_vouchers(o.id);
    n := n + 1;
  end loop;
  return n;
end $$;
revoke execute on function public.release_stale_voucher_holds() from public;
grant execute on function public.release_stale_voucher_holds() to service_role;

-- The checkout's order-paid hook for voucher orders (order_paid() dispatches by kind): the voucher
-- becomes active for one year from now. true: fulfilled (also when already active: a payment reported
-- twice); false when the voucher was canceled meanwhile (the payment is then refunded).
create or replace function public.order_paid_voucher(p_order_id bigint) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  v public.vouchers;
begin
  select * into v from public.vouchers where order_id = p_order_id for update;
  if not found or v.status = 'canceled' then return false; end if;
  if v.status = 'pending' then
    update public.vouchers set status = 'active', activated_at = now(), valid_until = now() + interval '1 year'
    where id = v.id;
  end if;
  return true;
end $$;
revoke execute on function public.order_paid_voucher(bigint) from public;
grant execute on function public.order_paid_voucher(bigint) to service_role;

-- ---------------------------------------------------------------------------------------------------
-- The voucher's invoice: issued by the platform in its FA series for the voucher order (kind 'voucher':
-- a multi-purpose voucher, no VAT; lib/vouchers/invoice.ts).
alter table public.vouchers add constraint vouchers_invoice_fk foreign key (invoice_id)
  references public.invoices (id) on delete restrict;
alter table public.invoices drop constraint invoices_kind_check;
alter table public.invoices add constraint invoices_kind_check
  check (kind in ('deposit', 'final', 'full', 'credit_note', 'receipt', 'voucher'));
