-- Gift vouchers (spec 000 §2 'Vos bons cadeaux', §3 discount, §9 price 50; issue 12, pretix's gift cards
-- as anchor): bought by card through a voucher order, redeemed on a workshop cart at checkout.
--   * vouchers: one bon cadeau. The code is never stored in clear: code_hash (SHA-256 of the normalised
--     code) finds it, code_sealed (AES-GCM, key derived from the app's secret) lets the app print it for
--     its buyer. `amount` is its face value (5000 cents), `remaining` what is left; never below zero nor
--     above its amount (check constraint, the backstop of the row lock every change takes).
--     pending until its order is paid, then active for one year (valid_until); canceled if its order is
--     refunded.
--   * voucher_redemptions: the amount a voucher pays of one order. Reserved at checkout, in the
--     checkout's transaction, under the voucher's row lock (so twenty simultaneous checkouts on one
--     voucher take at most what it has, one after the other); consumed when the order is paid; released
--     (the amount given back) when the order expires or is canceled before being paid.
--   * cart_vouchers: the code a customer applied to its cart (one per cart), read by the cart and taken
--     by the checkout.
-- Who sees what: a voucher's buyer, the customer it was sent to (their account's email, once its send
-- date has come), a customer who applied or redeemed it, and admins. Partners and anonymous visitors
-- see nothing. Only the service role writes (use cases acting as the system after their checks), except
-- applying a code to one's own cart, through apply_cart_voucher().

create table public.vouchers (
  id uuid primary key default gen_random_uuid(),
  buyer_id uuid not null references public.users (id) on delete restrict,
  order_id uuid unique,
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
  order_id uuid not null,
  amount bigint not null check (amount > 0),
  status text not null default 'reserved' check (status in ('reserved', 'consumed', 'released')),
  created_at timestamptz not null default now(),
  settled_at timestamptz,
  -- One voucher pays one order at most once.
  unique (order_id, voucher_id)
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
-- Redemption, called by the checkout in its own transaction (service role).
-- Reserves what the cart's voucher pays of an order of `p_total` cents: the voucher's row is locked, so
-- concurrent checkouts on one voucher run one after the other and each sees what the previous left; the
-- amount is min(remaining, total), taken from `remaining` at once (the check constraint refuses any
-- overdraft as a backstop). The code leaves the cart. Returns the cents reserved (0: no usable voucher).
create or replace function public.reserve_cart_voucher(p_cart uuid, p_order uuid, p_user uuid, p_total bigint)
returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  applied uuid;
  v public.vouchers;
  taken bigint;
begin
  delete from public.cart_vouchers where cart_id = p_cart returning voucher_id into applied;
  if applied is null or p_total <= 0 then return 0; end if;
  select * into v from public.vouchers where id = applied for update;
  if v.status <> 'active' or v.valid_until <= now() or v.remaining <= 0 then return 0; end if;
  taken := least(v.remaining, p_total);
  update public.vouchers set remaining = remaining - taken where id = v.id;
  insert into public.voucher_redemptions (voucher_id, user_id, order_id, amount)
  values (v.id, p_user, p_order, taken);
  return taken;
end $$;
revoke execute on function public.reserve_cart_voucher(uuid, uuid, uuid, bigint) from public;
grant execute on function public.reserve_cart_voucher(uuid, uuid, uuid, bigint) to service_role;

-- The order is paid: what its vouchers reserved is spent for good. Returns the cents consumed.
create or replace function public.consume_order_vouchers(p_order uuid) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  total bigint;
begin
  with done as (
    update public.voucher_redemptions set status = 'consumed', settled_at = now()
    where order_id = p_order and status = 'reserved' returning amount
  ) select coalesce(sum(amount), 0)::bigint into total from done;
  return total;
end $$;
revoke execute on function public.consume_order_vouchers(uuid) from public;
grant execute on function public.consume_order_vouchers(uuid) to service_role;

-- The order will not be paid (expired, canceled): what its vouchers reserved goes back to them, each
-- voucher locked. Returns the cents given back.
create or replace function public.release_order_vouchers(p_order uuid) returns bigint
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
  return total;
end $$;
revoke execute on function public.release_order_vouchers(uuid) from public;
grant execute on function public.release_order_vouchers(uuid) to service_role;

-- The voucher order is paid: the voucher becomes active for one year from now. Idempotent (a paid order
-- reported twice activates once). Returns the voucher's id when this call activated it.
create or replace function public.activate_order_voucher(p_order uuid) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  activated uuid;
begin
  update public.vouchers set status = 'active', activated_at = now(), valid_until = now() + interval '1 year'
  where order_id = p_order and status = 'pending'
  returning id into activated;
  return activated;
end $$;
revoke execute on function public.activate_order_voucher(uuid) from public;
grant execute on function public.activate_order_voucher(uuid) to service_role;

-- ---------------------------------------------------------------------------------------------------
-- The voucher's invoice: issued by the platform in its FA series, for no deal (kind 'voucher').
alter table public.vouchers add constraint vouchers_invoice_fk foreign key (invoice_id)
  references public.invoices (id) on delete restrict;
alter table public.invoices alter column deal_id drop not null;
alter table public.invoices drop constraint if exists invoices_kind_check;
alter table public.invoices add constraint invoices_kind_check
  check (kind in ('deposit', 'final', 'full', 'credit_note', 'voucher'));
