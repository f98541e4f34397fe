-- Checkout: orders paid by card on the existing payment layer (issue 12, the money half).
--
-- CONTRACT (for the gift vouchers, whose migration runs after this one):
--   * An order is what a customer pays by card that is not a deal: `kind` 'cart' (workshop
--     registrations, this migration) or 'voucher' (a gift-voucher purchase). payment_intents,
--     deal_payments, invoices belong either to a deal or to an order: `deal_id` and `order_id`, exactly
--     one set. The confirm call, the Stripe webhook, the reconciliation job, the simulated provider,
--     the refunds queue and the credit notes serve orders unchanged.
--   * Creating a voucher order: as the system, after the use case's checks, insert into public.orders
--     (kind 'voucher', user_id, total_amount) and its public.order_lines (label, quantity, unit_amount,
--     amount — cents TTC — and vat_rate), in the use case's transaction; then call the TypeScript
--     `createOrderIntent(deps, customer, orderId)` (lib/orders/use_cases/create_order_intent.ts), which
--     answers the same payment intent as /api/payment/intent. The amount asked is always
--     public.order_amount_due(order) = total_amount − discount_amount. An order a discount covers whole
--     is paid without a card by public.pay_order_without_card(order_id) (same dispatch, same documents).
--   * When an order's payment is recorded and counts (record_card_payment → record_order_payment), in
--     that same transaction public.order_paid(order_id) runs the kind's handler by name:
--     public.order_paid_<kind>(order_id bigint) returns boolean. true: fulfilled (the order becomes
--     'paid'); false: it cannot be fulfilled any more (the payment is then refunded in full, the order
--     'canceled'). order_paid_cart is below; the vouchers migration adds order_paid_voucher.
--   * A discount (a voucher redeemed at checkout) is `orders.discount_amount` (cents, ≤ total_amount),
--     set before the intent is created, in the checkout's transaction, by the vouchers' own function
--     (which also records what it consumed); order_amount_due() then asks for the rest only.
--   * After the payment, documents (invoice FA + receipt RE, credit notes AV of its refunds) and the
--     customer's emails are issued by lib/orders/use_cases/settle_order.ts: in the payment's own
--     transaction when the app records it, and by the outbox job 'order-settle' (enqueued here, in the
--     payment's transaction) when the webhook edge function recorded it alone.
--
-- Workshops are sold by the platform itself: their invoices and receipts are issued by the platform
-- (issuer 'platform', its own FA and RE counters in invoice_counters).

create table public.orders (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('cart', 'voucher')),
  user_id uuid not null references public.users (id) on delete restrict,
  status text not null default 'pending' check (status in ('pending', 'paid', 'canceled', 'expired')),
  -- Cents TTC: the lines' sum, and what a voucher covers of it.
  total_amount bigint not null check (total_amount >= 0),
  discount_amount bigint not null default 0 check (discount_amount >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  paid_at timestamptz,
  canceled_at timestamptz,
  check (discount_amount <= total_amount),
  check ((status = 'paid') = (paid_at is not null))
);
create index orders_user_idx on public.orders (user_id, created_at desc);
create index orders_pending_idx on public.orders (created_at) where status = 'pending';
create trigger orders_set_updated_at before update on public.orders
  for each row execute function public.set_updated_at();

create table public.order_lines (
  id bigint generated always as identity primary key,
  order_id bigint not null references public.orders (id) on delete cascade,
  label text not null check (length(label) between 1 and 500),
  quantity integer not null check (quantity between 1 and 10000),
  -- Cents TTC.
  unit_amount bigint not null check (unit_amount >= 0),
  amount bigint not null check (amount >= 0),
  -- Percent; the VAT of the invoice line. A workshop's price and travel cost are TTC at 20 %; its
  -- additional costs keep their own rate (detail, below).
  vat_rate numeric(5, 2) not null default 20 check (vat_rate between 0 and 100),
  -- The invoice's lines of this order line (HT), frozen at checkout: [{label, qty, unitPriceHT, vatRate}].
  detail jsonb not null default '[]' check (jsonb_typeof(detail) = 'array'),
  registration_id uuid unique references public.registrations (id) on delete restrict
);
create index order_lines_order_idx on public.order_lines (order_id);

alter table public.registrations add column order_id bigint references public.orders (id) on delete restrict;
create index registrations_order_idx on public.registrations (order_id);
-- The order a hold is being paid by (set at checkout): the hold is consumed when the order is paid.
alter table public.cart_lines add column order_id bigint references public.orders (id) on delete set null;

-- The payment layer, for orders too.
alter table public.payment_intents alter column deal_id drop not null;
alter table public.payment_intents add column order_id bigint references public.orders (id) on delete restrict;
alter table public.payment_intents add constraint payment_intents_one_owner check ((deal_id is null) <> (order_id is null));
create index payment_intents_order_idx on public.payment_intents (order_id, created_at desc) where order_id is not null;

alter table public.deal_payments alter column deal_id drop not null;
alter table public.deal_payments add column order_id bigint references public.orders (id) on delete restrict;
alter table public.deal_payments add constraint deal_payments_one_owner check ((deal_id is null) <> (order_id is null));
-- When the customer was told of this order payment (confirmation, or its automatic refund).
alter table public.deal_payments add column notified_at timestamptz;
create index deal_payments_order_idx on public.deal_payments (order_id, paid_at) where order_id is not null;

alter table public.invoices alter column deal_id drop not null;
alter table public.invoices add column order_id bigint references public.orders (id) on delete restrict;
alter table public.invoices add constraint invoices_one_owner check ((deal_id is null) <> (order_id is null));
-- RE: a receipt (reçu de paiement) of an order's payment; not an invoice (no Factur-X), numbered in its
-- own series like the others.
alter table public.invoices drop constraint invoices_series_check;
alter table public.invoices add constraint invoices_series_check check (series in ('FA', 'AV', 'CO', 'CA', 'RE'));
alter table public.invoices drop constraint invoices_kind_check;
alter table public.invoices add constraint invoices_kind_check
  check (kind in ('deposit', 'final', 'full', 'credit_note', 'receipt'));
create index invoices_order_idx on public.invoices (order_id, issued_at) where order_id is not null;

-- ---------------------------------------------------------------------------------------------------
-- Who sees what: a customer reads its orders, their lines, payments and documents (invoices, receipts,
-- credit notes); admins read everything; partners none of it. Only the system writes (use cases after
-- their checks, and the functions below).

alter table public.orders enable row level security;
alter table public.order_lines enable row level security;

create or replace function public.is_order_customer(target bigint) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select from public.orders o where o.id = target and o.user_id = auth.uid())
$$;
revoke execute on function public.is_order_customer(bigint) from public;
grant execute on function public.is_order_customer(bigint) to authenticated, service_role;

create policy "Customers can read their orders" on public.orders for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Admins can read every order" on public.orders for select to authenticated
  using ((select public.is_admin()));
create policy "Customers can read their order lines" on public.order_lines for select to authenticated
  using ((select public.is_order_customer(order_id)));
create policy "Admins can read every order line" on public.order_lines for select to authenticated
  using ((select public.is_admin()));
create policy "Customers can read their orders' payments" on public.deal_payments for select to authenticated
  using (order_id is not null and (select public.is_order_customer(order_id)));
create policy "Customers can read their orders' documents" on public.invoices for select to authenticated
  using (order_id is not null and series in ('FA', 'AV', 'RE') and (select public.is_order_customer(order_id)));

grant select on public.orders, public.order_lines to authenticated;
grant select, insert, update, delete on public.orders, public.order_lines to service_role;

-- ---------------------------------------------------------------------------------------------------
-- What an order still asks for.
create or replace function public.order_amount_due(p_order_id bigint) returns bigint
language sql stable security definer set search_path = '' as $$
  select greatest(0, o.total_amount - o.discount_amount) from public.orders o where o.id = p_order_id
$$;
revoke execute on function public.order_amount_due(bigint) from public;
grant execute on function public.order_amount_due(bigint) to service_role;

-- Marks the order's open intents (but `p_keep`) superseded and enqueues their cancel at the provider,
-- as supersede_open_intents() does for a deal. The caller holds the order's lock.
create or replace function public.supersede_order_intents(p_order_id bigint, p_keep text default null)
returns integer
language plpgsql security definer set search_path = '' as $$
declare
  intent record;
  n integer := 0;
begin
  for intent in
    update public.payment_intents set superseded_at = now(), updated_at = now()
    where order_id = p_order_id and superseded_at is null and status not in ('succeeded', 'canceled')
      and id is distinct from p_keep
    returning id, provider
  loop
    perform outbox.enqueue('payment-intent-cancel', jsonb_build_object('intentId', intent.id, 'provider', intent.provider),
                           'intent-' || intent.id);
    n := n + 1;
  end loop;
  return n;
end $$;
revoke execute on function public.supersede_order_intents(bigint, text) from public;
grant execute on function public.supersede_order_intents(bigint, text) to service_role;

-- ---------------------------------------------------------------------------------------------------
-- Checkout of a customer's cart (the system, after lib/orders/use_cases/checkout.ts checked the
-- customer). Step 1: lock the cart's dates (id order, as every hold does), give back their expired
-- holds, and return the live lines with their prices (the use case prices them with rules.ts).
create or replace function public.lock_cart_for_checkout(p_user uuid)
returns table (line_id uuid, date_id bigint, quantity integer, expires_at timestamptz, dtstart timestamptz,
  state text, price_ttc bigint, travel_cost_ttc bigint, additional_costs jsonb, session_title text,
  session_city text, expired_lines integer)
language plpgsql security definer set search_path = '' as $$
declare
  cart uuid;
  expired integer;
begin
  -- The cart row first: two checkouts of one customer run one after the other.
  select c.id into cart from public.carts c where c.user_id = p_user for update;
  if cart is null then return; end if;
  -- The customer's unpaid orders before the dates (create_cart_order supersedes them): orders are
  -- always locked before dates, as record_order_payment and cancel_registration lock them.
  perform from public.orders o where o.user_id = p_user and o.kind = 'cart' and o.status in ('pending', 'expired')
  order by o.id for update;
  select count(*)::int into expired from public.cart_lines l where l.cart_id = cart and l.expires_at <= now();
  perform from public.session_dates d
  where d.id in (select l.date_id from public.cart_lines l where l.cart_id = cart)
  order by d.id for update;
  perform public.release_expired_for_date(l.date_id)
  from (select distinct l.date_id from public.cart_lines l where l.cart_id = cart and l.expires_at <= now()) l;
  return query
    -- state: 'soon' for a date an admin marked 'BIENTÔT DISPO' since the hold (no checkout then).
    select l.id, l.date_id, l.quantity, l.expires_at, d.dtstart, case when d.soon then 'soon' else d.state end,
      d.price_ttc, d.travel_cost_ttc,
      d.additional_costs, s.title, s.city, expired
    from public.cart_lines l
    join public.session_dates d on d.id = l.date_id
    join public.workshop_sessions s on s.id = d.session_id
    where l.cart_id = cart and l.expires_at > now()
    order by d.dtstart, l.created_at;
  if not found and expired > 0 then
    return query select null::uuid, null::bigint, null::integer, null::timestamptz, null::timestamptz, null::text,
      null::bigint, null::bigint, null::jsonb, null::text, null::text, expired;
  end if;
end $$;
revoke execute on function public.lock_cart_for_checkout(uuid) from public;
grant execute on function public.lock_cart_for_checkout(uuid) to service_role;

-- Step 2 (same transaction): the customer's earlier unpaid cart orders are superseded (canceled, their
-- open intents canceled at the provider, their pending registrations canceled), then the new order is
-- created with one pending registration per line, the holds are tied to it and extended by
-- `p_hold_minutes` to cover the payment, up to three hold times from the line's first hold.
-- `p_lines`: [{lineId, label, unitAmount, amount, detail}] priced
-- by the use case (lib/sessions/rules.ts). Returns the order's id.
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
begin
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
revoke execute on function public.create_cart_order(uuid, jsonb, integer) from public;
grant execute on function public.create_cart_order(uuid, jsonb, integer) to service_role;

-- ---------------------------------------------------------------------------------------------------
-- Paid. order_paid() runs the kind's handler, public.order_paid_<kind>(order_id) → boolean.
create or replace function public.order_paid(p_order_id bigint) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  order_kind text;
  fulfilled boolean;
begin
  select kind into order_kind from public.orders where id = p_order_id;
  if order_kind is null then
    raise exception 'order % not found', p_order_id using errcode = 'P0002';
  end if;
  execute format('select public.%I($1)', 'order_paid_' || order_kind) into fulfilled using p_order_id;
  return coalesce(fulfilled, false);
end $$;
revoke execute on function public.order_paid(bigint) from public;
grant execute on function public.order_paid(bigint) to service_role;

-- A cart order paid: each registration's places are sold. A hold still there is consumed (its places
-- stay taken; a quantity lowered since is evened out, places added since stay held in the cart); a hold that expired meanwhile gave
-- its places back, which are taken again only if the date still has them. Never seated twice: when
-- any registration cannot be seated (its places sold again, or its date canceled), nothing is taken,
-- and the caller refunds. Dates are locked in id order, as every hold does.
create or replace function public.order_paid_cart(p_order_id bigint) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  r record;
begin
  perform from public.session_dates d
  where d.id in (select g.date_id from public.registrations g where g.order_id = p_order_id)
  order by d.id for update;
  -- Expired holds of these dates (this order's included) give their places back first.
  perform public.release_expired_for_date(d.id)
  from (select distinct g.date_id as id from public.registrations g where g.order_id = p_order_id) d;
  for r in
    select g.date_id, d.places_left, d.state, g.quantity,
      coalesce((select sum(l.quantity) from public.cart_lines l
                where l.order_id = p_order_id and l.date_id = g.date_id), 0)::int as held
    from public.registrations g join public.session_dates d on d.id = g.date_id
    where g.order_id = p_order_id
  loop
    if r.state = 'canceled' or r.quantity - r.held > r.places_left then
      return false;
    end if;
  end loop;
  for r in
    select g.date_id, g.quantity,
      coalesce((select sum(l.quantity) from public.cart_lines l
                where l.order_id = p_order_id and l.date_id = g.date_id), 0)::int as held
    from public.registrations g where g.order_id = p_order_id
  loop
    update public.session_dates set places_left = places_left - greatest(0, r.quantity - r.held) where id = r.date_id;
    -- Places added to the line during the payment (a quantity raised, the date added again, a cart
    -- merged at login, a waiting-list offer claimed) are not this order's: they stay held in the cart,
    -- free of the order, until their hold ends or another checkout pays for them.
    delete from public.cart_lines where order_id = p_order_id and date_id = r.date_id and quantity <= r.quantity;
    update public.cart_lines set quantity = quantity - r.quantity, order_id = null
    where order_id = p_order_id and date_id = r.date_id;
  end loop;
  update public.registrations set status = 'invoiced' where order_id = p_order_id;
  return true;
end $$;
revoke execute on function public.order_paid_cart(bigint) from public;
grant execute on function public.order_paid_cart(bigint) to service_role;

-- Records a card payment of an order exactly once (the caller, record_card_payment, found its intent).
-- It counts when the order still asks for it: pending or expired (an expired order is seated if its
-- places are still there), not superseded, the amount due. Otherwise — a second intent of a paid
-- order, a superseded intent, places sold again after the hold expired — it is recorded as an
-- overpayment (the money was taken) and refunded in full (refund_overpayment: the refunds queue, then
-- the credit note); the registrations of an order that could not be seated are canceled. In every case
-- the outbox job 'order-settle' issues the documents and tells the customer.
create or replace function public.record_order_payment(
  p_intent_id text, p_provider text, p_amount bigint
) returns table (payment_id uuid, recorded boolean, overpayment boolean)
language plpgsql security definer set search_path = '' as $$
declare
  intent public.payment_intents;
  ord public.orders;
  existing public.deal_payments;
  created uuid;
  counts boolean;
  reason text;
begin
  select * into intent from public.payment_intents where id = p_intent_id and provider = p_provider;
  select * into ord from public.orders where id = intent.order_id for update;
  select * into existing from public.deal_payments p where p.provider = p_provider and p.provider_payment_id = p_intent_id;
  if found then
    return query select existing.id, false, existing.overpayment;
    return;
  end if;
  select * into intent from public.payment_intents where id = p_intent_id;
  counts := ord.status in ('pending', 'expired') and intent.superseded_at is null
    and p_amount = public.order_amount_due(ord.id) and p_amount > 0;
  reason := case
    when ord.status = 'paid' then 'commande déjà réglée'
    when intent.superseded_at is not null or ord.status = 'canceled' then 'paiement remplacé ou annulé avant d''être réglé'
    when p_amount <> public.order_amount_due(ord.id) then 'montant différent du montant dû'
    else null end;
  if counts and not public.order_paid(ord.id) then
    counts := false;
    reason := 'places revendues après l''expiration de la réservation';
    update public.registrations set status = 'canceled' where order_id = ord.id and status = 'pending';
    update public.orders set status = 'canceled', canceled_at = now() where id = ord.id;
  end if;
  insert into public.deal_payments (order_id, kind, amount, method, provider, provider_payment_id, recorded_by,
                                    paid_at, overpayment)
  values (ord.id, 'total', p_amount, 'card', p_provider, p_intent_id, intent.customer_id, now(), not counts)
  returning id into created;
  if counts then
    update public.orders set status = 'paid', paid_at = now(), canceled_at = null where id = ord.id;
    -- The other open intents of the order ask for nothing any more.
    perform public.supersede_order_intents(ord.id, p_intent_id);
  else
    perform public.refund_overpayment(created, 'Remboursement automatique : ' || reason);
  end if;
  perform outbox.enqueue('order-settle', jsonb_build_object('orderId', ord.id), 'order-' || ord.id);
  return query select created, true, not counts;
end $$;
revoke execute on function public.record_order_payment(text, text, bigint) from public;
grant execute on function public.record_order_payment(text, text, bigint) to service_role;

-- record_card_payment, third pass: an intent of an order is recorded by record_order_payment (the
-- order's lock first); a deal's exactly as before. Returns the order's id too.
drop function public.record_card_payment(text, text, text, bigint, text);
create function public.record_card_payment(
  p_provider text, p_intent_id text, p_status text, p_amount bigint, p_currency text
) returns table (payment_id uuid, recorded boolean, deal_id bigint, kind text, overpayment boolean, order_id bigint)
language plpgsql security definer set search_path = '' as $$
declare
  intent public.payment_intents;
  existing public.deal_payments;
  result record;
begin
  select * into intent from public.payment_intents where id = p_intent_id and provider = p_provider;
  if not found then
    return;
  end if;
  if intent.order_id is not null then
    perform 1 from public.orders o where o.id = intent.order_id for update;
    update public.payment_intents set status = p_status, updated_at = now() where id = p_intent_id;
    if p_status <> 'succeeded' then
      return;
    end if;
    if p_currency <> intent.currency then
      insert into public.logs (service, type, message, context)
      values ('payments', 'error', 'Devise payée différente de la devise demandée',
              jsonb_build_object('intent', p_intent_id, 'currency', p_currency));
    end if;
    return query select r.payment_id, r.recorded, null::bigint, 'total'::text, r.overpayment, intent.order_id
      from public.record_order_payment(p_intent_id, p_provider, p_amount) r;
    return;
  end if;
  -- The deal first, then the intent: the order supersede_open_intents' callers lock them in.
  perform 1 from public.deals d where d.id = intent.deal_id for update;
  update public.payment_intents set status = p_status, updated_at = now() where id = p_intent_id;
  if p_status <> 'succeeded' then
    return;
  end if;
  select * into existing from public.deal_payments p where p.provider = p_provider and p.provider_payment_id = p_intent_id;
  if found then
    return query select existing.id, false, intent.deal_id, intent.kind, existing.overpayment, null::bigint;
    return;
  end if;
  select * into intent from public.payment_intents where id = p_intent_id;
  if p_amount <> intent.amount or p_currency <> intent.currency then
    insert into public.logs (service, type, message, context)
    values ('payments', 'error', 'Montant payé différent du montant demandé',
            jsonb_build_object('intent', p_intent_id, 'asked', intent.amount, 'paid', p_amount));
  end if;
  if intent.superseded_at is not null then
    return query select public.record_overpayment(intent.deal_id, intent.kind, p_amount, p_provider, p_intent_id,
      intent.customer_id, now(), 'paiement remplacé ou annulé avant d''être réglé'), true, intent.deal_id, intent.kind, true,
      null::bigint;
    return;
  end if;
  select * into result
  from public.record_payment(intent.deal_id, intent.kind, p_amount, 'card', p_provider, p_intent_id, intent.customer_id) r;
  return query select result.payment_id, result.recorded, intent.deal_id, intent.kind,
    (select p.overpayment from public.deal_payments p where p.id = result.payment_id), null::bigint;
end $$;
revoke execute on function public.record_card_payment(text, text, text, bigint, text) from public;
grant execute on function public.record_card_payment(text, text, text, bigint, text) to service_role;

-- A refund of an order's payment that succeeds (record_refund, from any path) calls for its credit
-- note: the 'order-settle' job issues it.
create or replace function public.settle_order_on_refund() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  target bigint;
begin
  select p.order_id into target from public.deal_payments p where p.id = new.payment_id;
  if target is not null then
    perform outbox.enqueue('order-settle', jsonb_build_object('orderId', target), 'order-' || target);
  end if;
  return null;
end $$;
create trigger refunds_settle_order after insert or update of status on public.refunds
  for each row when (new.status = 'succeeded') execute function public.settle_order_on_refund();

-- ---------------------------------------------------------------------------------------------------
-- Unpaid cart orders whose holds are all gone (expired and given back) are 'expired' (job registry,
-- every minute), and their pending registrations canceled. Their intent stays payable: a payment that
-- still arrives seats them if the places are still there, and is refunded otherwise.
create or replace function public.expire_unpaid_orders() returns integer
language plpgsql security definer set search_path = '' as $$
declare
  n integer;
begin
  with gone as (
    update public.orders o set status = 'expired'
    where o.status = 'pending' and o.kind = 'cart'
      and not exists (select from public.cart_lines l where l.order_id = o.id and l.expires_at > now())
    returning o.id
  ), regs as (
    update public.registrations g set status = 'canceled' from gone where g.order_id = gone.id and g.status = 'pending'
    returning 1
  )
  select count(*)::int into n from gone;
  return n;
end $$;
revoke execute on function public.expire_unpaid_orders() from public;
grant execute on function public.expire_unpaid_orders() to service_role;

-- ---------------------------------------------------------------------------------------------------
-- Cancels a registration (an admin, or a canceled date): its places go back on sale (a paid one's
-- sold places, a pending one's hold), its paid amount is refunded through the refunds queue (card:
-- the provider, then record_refund and the credit note), what a gift voucher paid of it goes back to
-- the voucher, and a pending order left with nothing to pay is canceled with its intents. Returns {ok,
-- refundId, refunded (cents), wasStatus, voucherReturned (cents), voucherValidUntil (unix)} or {ok:
-- false, reason: not_found | already_canceled}. The caller (the system, after its checks) tells the
-- customer.
create or replace function public.cancel_registration(p_registration uuid, p_reason text, p_by uuid default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  g public.registrations;
  payment public.deal_payments;
  refundable bigint;
  amount_back bigint := 0;
  refund uuid;
  held integer;
  voucher_back bigint := 0;
  voucher_until timestamptz;
begin
  select * into g from public.registrations where id = p_registration;
  if not found then return jsonb_build_object('ok', false, 'reason', 'not_found'); end if;
  if g.order_id is not null then
    perform from public.orders where id = g.order_id for update;
  end if;
  perform from public.session_dates where id = g.date_id for update;
  select * into g from public.registrations where id = p_registration for update;
  if g.status = 'canceled' then return jsonb_build_object('ok', false, 'reason', 'already_canceled'); end if;
  update public.registrations set status = 'canceled' where id = g.id;
  if g.status = 'invoiced' then
    update public.session_dates set places_left = least(places, places_left + g.quantity) where id = g.date_id;
    select * into payment from public.deal_payments p
    where p.order_id = g.order_id and not p.overpayment and p.method = 'card' order by p.paid_at limit 1 for update;
    if found then
      refundable := payment.amount - payment.refunded_amount
        - coalesce((select sum(r.amount) from public.refunds r where r.payment_id = payment.id and r.status = 'pending'), 0);
      amount_back := least(greatest(g.amount - g.discount_amount, 0), refundable);
      if amount_back > 0 then
        insert into public.refunds (payment_id, amount, reason, status, requested_by, automatic)
        values (payment.id, amount_back, left(coalesce(nullif(p_reason, ''), 'Inscription annulée'), 500), 'pending', p_by, p_by is null)
        returning id into refund;
      end if;
    end if;
    -- What a gift voucher paid of this registration goes back to the voucher, not to the card
    -- (return_registration_vouchers, vouchers migration; only vouchers set a discount).
    if g.discount_amount > 0 then
      voucher_back := public.return_registration_vouchers(g.id);
      select max(v.valid_until) into voucher_until from public.vouchers v
      where v.id in (select r.voucher_id from public.voucher_redemptions r
                     where r.order_id = g.order_id and r.returned_amount > 0);
    end if;
  elsif g.order_id is not null then
    -- An unpaid order is canceled as a whole: its holds go back on sale, its intents are canceled (a
    -- payment that still arrives is refunded), its other pending registrations canceled too.
    perform from public.session_dates d
    where d.id in (select l.date_id from public.cart_lines l where l.order_id = g.order_id) order by d.id for update;
    with gone as (delete from public.cart_lines l where l.order_id = g.order_id returning l.date_id, l.quantity),
    freed as (update public.session_dates d set places_left = d.places_left + x.q
              from (select date_id, sum(quantity)::int as q from gone group by date_id) x where d.id = x.date_id
              returning 1)
    select count(*)::int into held from freed;
    update public.registrations set status = 'canceled' where order_id = g.order_id and status = 'pending';
    perform public.supersede_order_intents(g.order_id, null);
    update public.orders set status = 'canceled', canceled_at = now() where id = g.order_id and status in ('pending', 'expired');
  end if;
  insert into public.logs (service, type, message, context)
  values ('sessions', 'info', 'Inscription annulée',
          jsonb_build_object('registrationId', g.id, 'orderId', g.order_id, 'refundId', refund,
                             'refunded', amount_back, 'voucherReturned', voucher_back, 'by', p_by,
                             'reason', p_reason));
  return jsonb_build_object('ok', true, 'refundId', refund, 'refunded', amount_back, 'wasStatus', g.status,
    'voucherReturned', voucher_back, 'voucherValidUntil', extract(epoch from voucher_until)::bigint);
end $$;
revoke execute on function public.cancel_registration(uuid, text, uuid) from public;
grant execute on function public.cancel_registration(uuid, text, uuid) to service_role;

-- ---------------------------------------------------------------------------------------------------
-- An order a discount covers whole (a gift voucher worth the total): nothing to pay by card. Paid at
-- once through the same order_paid() dispatch; its invoice and receipt come from the 'order-settle'
-- job (settleOrder issues them for a paid order without a kept payment). Returns whether it is paid.
create or replace function public.pay_order_without_card(p_order_id bigint) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  ord public.orders;
begin
  select * into ord from public.orders where id = p_order_id for update;
  if not found or ord.status not in ('pending', 'expired') or public.order_amount_due(ord.id) > 0 then
    return false;
  end if;
  if not public.order_paid(ord.id) then
    update public.registrations set status = 'canceled' where order_id = ord.id and status = 'pending';
    update public.orders set status = 'canceled', canceled_at = now() where id = ord.id;
    return false;
  end if;
  update public.orders set status = 'paid', paid_at = now(), canceled_at = null where id = ord.id;
  perform public.supersede_order_intents(ord.id, null);
  perform outbox.enqueue('order-settle', jsonb_build_object('orderId', ord.id), 'order-' || ord.id);
  return true;
end $$;
revoke execute on function public.pay_order_without_card(bigint) from public;
grant execute on function public.pay_order_without_card(bigint) to service_role;
