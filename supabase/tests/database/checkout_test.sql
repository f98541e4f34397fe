-- Checkout (supabase/migrations/20261127002000_checkout.sql): exactly these policies and privileges;
-- customers read only their own orders, lines, order payments and documents, partners none, admins all;
-- the functions are the service role's only; an order's card payment is recorded once, seats its
-- registrations and consumes the holds (order_paid → order_paid_cart); a second payment, a superseded
-- intent, or places sold again after the hold expired are recorded as overpayments and refunded;
-- cancel_registration gives the places back and queues the refund.
begin;
select plan(60);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Customer', 'customer_b'), tests.create_user('Company', 'partner_a');

insert into public.workshop_sessions (id, slug, title, city, published) overriding system value values
  (951, 'atelier-paiement', 'Atelier paiement', 'Paris', true);
insert into public.session_dates (id, uuid, session_id, dtstart, places, places_left, price_ttc) overriding system value values
  (961, 'c0000000-0000-4000-8000-000000000961', 951, now() + interval '10 days', 4, 4, 4500),
  (962, 'c0000000-0000-4000-8000-000000000962', 951, now() + interval '12 days', 1, 1, 4500);

select policies_are('public', 'orders', array['Customers can read their orders', 'Admins can read every order'],
  'public.orders has exactly the expected policies');
select policies_are('public', 'order_lines', array['Customers can read their order lines',
  'Admins can read every order line'], 'public.order_lines has exactly the expected policies');
select table_privs_are('public', 'orders', 'anon', array[]::text[], 'anon has no privilege on orders');
select table_privs_are('public', 'orders', 'authenticated', array['SELECT'], 'authenticated only reads orders');
select table_privs_are('public', 'order_lines', 'anon', array[]::text[], 'anon has no privilege on order lines');
select table_privs_are('public', 'order_lines', 'authenticated', array['SELECT'], 'authenticated only reads order lines');
select table_privs_are('public', 'orders', 'service_role', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
  'service_role privileges on orders');
select function_privs_are('public', 'create_cart_order', array['uuid', 'jsonb', 'integer'], 'authenticated',
  array[]::text[], 'a user cannot create an order with its own amounts');
select function_privs_are('public', 'cancel_registration', array['uuid', 'text', 'uuid'], 'authenticated',
  array[]::text[], 'a user cannot cancel a registration through the API');
select function_privs_are('public', 'order_paid', array['bigint'], 'authenticated', array[]::text[],
  'order_paid is internal');
select function_privs_are('public', 'record_order_payment', array['text', 'text', 'bigint'], 'anon', array[]::text[],
  'record_order_payment is internal');
select function_privs_are('public', 'cancel_registration', array['uuid', 'text', 'uuid'], 'service_role',
  array['EXECUTE'], 'the system cancels registrations');

-- customer_a holds 2 places of 961 and checks out (as the use case does, as the system).
create function pg_temp.hold(who text, date_id bigint, n integer) returns uuid language plpgsql as $fn$
declare
  cart uuid;
  line uuid;
begin
  insert into public.carts (user_id) values (tests.user_id(who))
  on conflict (user_id) do update set updated_at = now() returning id into cart;
  update public.session_dates set places_left = places_left - n where id = date_id;
  insert into public.cart_lines (cart_id, date_id, quantity, expires_at) values (cart, date_id, n, now() + interval '20 minutes')
  returning id into line;
  return line;
end $fn$;
create function pg_temp.checkout(who text) returns bigint language plpgsql as $fn$
declare
  lines jsonb;
begin
  select jsonb_agg(jsonb_build_object('lineId', l.line_id, 'label', 'Atelier', 'unitAmount', l.price_ttc,
    'amount', l.price_ttc * l.quantity)) into lines
  from public.lock_cart_for_checkout(tests.user_id(who)) l where l.line_id is not null;
  return public.create_cart_order(tests.user_id(who), lines, 20);
end $fn$;
create temp table ids (name text primary key, id bigint not null);
create function pg_temp.id(label text) returns bigint language sql stable as $fn$
  select id from pg_temp.ids where name = label
$fn$;
create function pg_temp.intent(id text, order_id bigint, who text, amount bigint) returns void language sql as $fn$
  insert into public.payment_intents (id, provider, order_id, customer_id, kind, amount, status, idempotency_key)
  values (id, 'stripe', order_id, tests.user_id(who), 'total', amount, 'requires_payment_method', id)
$fn$;

select pg_temp.hold('customer_a', 961, 2);
insert into pg_temp.ids select 'first', pg_temp.checkout('customer_a');
select is((select status from public.orders where id = pg_temp.id('first')), 'pending', 'the checkout creates a pending order');
select is((select total_amount from public.orders where id = pg_temp.id('first')), 9000::bigint, 'its total is the priced lines');
select is((select array_agg(status) from public.registrations where order_id = pg_temp.id('first')), array['pending'],
  'one pending registration per line');
select ok((select expires_at > now() + interval '19 minutes' from public.cart_lines where order_id = pg_temp.id('first')),
  'the hold is tied to the order and extended');
select pg_temp.intent('pi_chk_1', pg_temp.id('first'), 'customer_a', 9000);

-- A second checkout supersedes the first order and its intent.
insert into pg_temp.ids select 'order', pg_temp.checkout('customer_a');
select is((select status from public.orders where id = pg_temp.id('first')), 'canceled', 'the first order is superseded');
select ok((select superseded_at is not null from public.payment_intents where id = 'pi_chk_1'),
  'its intent is superseded');
select is((select count(*)::int from outbox.jobs where queue = 'payment-intent-cancel' and key = 'intent-pi_chk_1'), 1,
  'its cancel at the provider is queued');
select pg_temp.intent('pi_chk_2', pg_temp.id('order'), 'customer_a', 9000);

-- Reading: customers their own, partners none, admins all.
select tests.act_as('customer_a');
select is((select count(*)::int from public.orders), 2, 'a customer reads its orders');
select is((select count(*)::int from public.order_lines), 2, 'and their lines');
select tests.act_as('customer_b');
select is((select count(*)::int from public.orders), 0, 'another customer reads none of them');
select is((select count(*)::int from public.order_lines), 0, 'nor their lines');
select * from tests.denied($$insert into public.orders (kind, user_id, total_amount) values ('cart', auth.uid(), 0)$$,
  'a customer cannot write an order');
select tests.act_as('partner_a');
select is((select count(*)::int from public.orders), 0, 'a partner reads no order');
select throws_ok($$select public.order_paid(1)$$, '42501', null, 'a partner cannot run order_paid');
select tests.act_as_anon();
select * from tests.denied($$select * from public.orders$$, 'anon cannot read orders');
select tests.act_as('admin');
select is((select count(*)::int from public.orders), 2, 'an admin reads every order');
select tests.reset_role();

-- Paid: recorded once, registrations invoiced, the hold consumed (its places stay sold).
select results_eq($$select recorded, overpayment, order_id from public.record_card_payment('stripe', 'pi_chk_2', 'succeeded', 9000, 'eur')$$,
  $$values (true, false, pg_temp.id('order'))$$, 'the order''s payment is recorded and counts');
select results_eq($$select recorded from public.record_card_payment('stripe', 'pi_chk_2', 'succeeded', 9000, 'eur')$$,
  $$values (false)$$, 'reported again: recorded once');
select is((select status from public.orders where id = pg_temp.id('order')), 'paid', 'the order is paid');
select is((select array_agg(status) from public.registrations where order_id = pg_temp.id('order')), array['invoiced'],
  'its registration is invoiced');
select is((select count(*)::int from public.cart_lines where order_id = pg_temp.id('order')), 0, 'the hold is consumed');
select is((select places_left from public.session_dates where id = 961), 2, 'its places stay sold');
select is((select count(*)::int from outbox.jobs where queue = 'order-settle' and key = 'order-' || pg_temp.id('order')), 1,
  'the documents and email are queued in the payment''s transaction');

-- The superseded intent paid anyway: an overpayment, refunded in full.
select results_eq($$select recorded, overpayment from public.record_card_payment('stripe', 'pi_chk_1', 'succeeded', 9000, 'eur')$$,
  $$values (true, true)$$, 'a superseded intent''s money is an overpayment');
select is((select r.amount from public.refunds r join public.deal_payments p on p.id = r.payment_id
           where p.provider_payment_id = 'pi_chk_1' and r.automatic), 9000::bigint, 'refunded in full');
select is((select places_left from public.session_dates where id = 961), 2, 'never seated twice');

-- A payment after the hold expired and the last place was sold again: refunded, registrations canceled.
select pg_temp.hold('customer_b', 962, 1);
insert into pg_temp.ids select 'late', pg_temp.checkout('customer_b');
select pg_temp.intent('pi_chk_3', pg_temp.id('late'), 'customer_b', 4500);
update public.cart_lines set expires_at = now() - interval '1 second' where order_id = pg_temp.id('late');
select is(public.release_expired_holds(), 1, 'the expired hold gives its place back');
select is(public.expire_unpaid_orders(), 1, 'the unpaid order expires');
select is((select status from public.orders where id = pg_temp.id('late')), 'expired', 'expired');
select pg_temp.hold('customer_a', 962, 1);
select is((select places_left from public.session_dates where id = 962), 0, 'the place is held by someone else');
select results_eq($$select recorded, overpayment from public.record_card_payment('stripe', 'pi_chk_3', 'succeeded', 4500, 'eur')$$,
  $$values (true, true)$$, 'the late payment is recorded as an overpayment');
select is((select array_agg(status) from public.registrations where order_id = pg_temp.id('late')), array['canceled'],
  'its registration is canceled');
select is((select status from public.orders where id = pg_temp.id('late')), 'canceled', 'its order is canceled');
select is((select places_left from public.session_dates where id = 962), 0, 'the other customer keeps the place');
select ok(exists (select from public.refunds r join public.deal_payments p on p.id = r.payment_id
           where p.provider_payment_id = 'pi_chk_3' and r.automatic and r.status = 'pending'), 'its refund is queued');

-- cancel_registration: an invoiced registration gives its places back, its paid amount is refunded.
select is((public.cancel_registration((select id from public.registrations where order_id = pg_temp.id('order')), 'Date annulée',
  tests.user_id('admin'))) ->> 'refunded', '9000', 'canceling a paid registration refunds its amount');
select is((select places_left from public.session_dates where id = 961), 4, 'its places go back on sale');
select is((public.cancel_registration((select id from public.registrations where order_id = pg_temp.id('order')), '', null))
  ->> 'reason', 'already_canceled', 'canceling twice is refused');
select throws_ok($$insert into public.refunds (payment_id, amount) select id, 1 from public.deal_payments where provider_payment_id = 'pi_chk_2'$$,
  '23514', null, 'nothing more is refundable on that payment');

-- An order a discount covers whole is paid without a card.
select pg_temp.hold('customer_b', 961, 1);
insert into pg_temp.ids select 'free', pg_temp.checkout('customer_b');
update public.orders set discount_amount = total_amount where id = pg_temp.id('free');
select ok(public.pay_order_without_card(pg_temp.id('free')), 'a free order is paid without a card');
select is((select array_agg(status) from public.registrations where order_id = pg_temp.id('free')), array['invoiced'],
  'its registration is invoiced');
select ok(not public.pay_order_without_card(pg_temp.id('free')), 'and only once');

-- A checkout holds a line at most three hold times from its first hold: checking out again and again
-- cannot keep places forever (issue 12 review).
insert into public.session_dates (id, uuid, session_id, dtstart, places, places_left, price_ttc) overriding system value values
  (963, 'c0000000-0000-4000-8000-000000000963', 951, now() + interval '14 days', 6, 6, 4500);
select pg_temp.hold('customer_b', 963, 2);
update public.cart_lines set created_at = now() - interval '3 hours', expires_at = now() + interval '1 minute'
where cart_id = (select id from public.carts where user_id = tests.user_id('customer_b'));
insert into pg_temp.ids select 'capped', pg_temp.checkout('customer_b');
select ok((select expires_at <= now() + interval '1 minute' from public.cart_lines where order_id = pg_temp.id('capped')),
  'a checkout does not extend a hold past three hold times from its first hold');
-- Places added to the line during the payment stay held in the cart once the order is paid.
update public.cart_lines set quantity = 5, created_at = now(), expires_at = now() + interval '20 minutes'
where order_id = pg_temp.id('capped');
update public.session_dates set places_left = places_left - 3 where id = 963;
select pg_temp.intent('pi_chk_4', pg_temp.id('capped'), 'customer_b', 9000);
select results_eq($$select recorded, overpayment from public.record_card_payment('stripe', 'pi_chk_4', 'succeeded', 9000, 'eur')$$,
  $$values (true, false)$$, 'the order of 2 places is paid');
select is((select array_agg(quantity) from public.registrations where order_id = pg_temp.id('capped')), array[2],
  'its registration has its 2 places');
select results_eq($$select l.quantity, l.order_id from public.cart_lines l join public.carts c on c.id = l.cart_id
  where c.user_id = tests.user_id('customer_b') and l.date_id = 963$$,
  $$values (3, null::bigint)$$, 'the 3 places added during the payment stay held in the cart, free of the order');
select is((select places_left from public.session_dates where id = 963), 1, '2 sold and 3 held of 6');

-- Exactly one owner per intent, payment, invoice.
select throws_ok($$insert into public.payment_intents (id, provider, kind, amount, idempotency_key) values ('pi_x', 'stripe', 'total', 1, 'x')$$,
  '23514', null, 'an intent belongs to a deal or an order');

select * from finish();
rollback;
