-- Gift vouchers (supabase/migrations/20261127003000_vouchers.sql): exactly these policies and table
-- privileges; who reads vouchers (their buyer, the customer they were sent to once the send date has
-- come, a customer who applied or redeemed one, admins; never partners nor anonymous visitors); only the
-- service role writes; applying a code answers each refusal; reserving under the voucher's lock takes at
-- most what is left, and the check constraint refuses any overdraft even for the owner; consuming and
-- releasing settle a reservation once.
begin;
select plan(75);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'buyer'),
  tests.create_user('Customer', 'friend'), tests.create_user('Customer', 'stranger'),
  tests.create_user('Company', 'partner');

-- active (sent to friend today), active but sent later, pending (unpaid), expired, used up, canceled.
insert into public.vouchers (id, buyer_id, code_hash, code_sealed, amount, remaining, sender_name, recipient_name,
  recipient_email, send_on, status, activated_at, valid_until) values
  ('c0000000-0000-4000-8000-000000000001', tests.user_id('buyer'), repeat('1', 64), 'v1:sealed:one', 5000, 5000,
   'Buyer', 'Friend', 'friend@test.invalid', (now() at time zone 'Europe/Paris')::date, 'active', now(),
   now() + interval '1 year'),
  ('c0000000-0000-4000-8000-000000000002', tests.user_id('buyer'), repeat('2', 64), 'v1:sealed:two', 5000, 5000,
   'Buyer', 'Friend', 'friend@test.invalid', (now() at time zone 'Europe/Paris')::date + 30, 'active', now(),
   now() + interval '1 year'),
  ('c0000000-0000-4000-8000-000000000003', tests.user_id('buyer'), repeat('3', 64), 'v1:sealed:three', 5000, 5000,
   'Buyer', 'Friend', 'friend@test.invalid', (now() at time zone 'Europe/Paris')::date, 'pending', null, null),
  ('c0000000-0000-4000-8000-000000000004', tests.user_id('buyer'), repeat('4', 64), 'v1:sealed:four', 5000, 5000,
   'Buyer', 'Other', 'other@test.invalid', '2025-01-01', 'active', now() - interval '2 years',
   now() - interval '1 year'),
  ('c0000000-0000-4000-8000-000000000005', tests.user_id('buyer'), repeat('5', 64), 'v1:sealed:five', 5000, 0,
   'Buyer', 'Other', 'other@test.invalid', '2026-01-01', 'active', now(), now() + interval '1 year'),
  ('c0000000-0000-4000-8000-000000000006', tests.user_id('buyer'), repeat('6', 64), 'v1:sealed:six', 5000, 5000,
   'Buyer', 'Other', 'other@test.invalid', '2026-01-01', 'canceled', null, null);

select policies_are('public', 'vouchers', array['Buyers can read their vouchers',
  'Holders can read the vouchers they received or used', 'Admins can read every voucher'],
  'public.vouchers has exactly the expected policies');
select policies_are('public', 'voucher_redemptions', array['Customers can read their redemptions',
  'Buyers can read the redemptions of their vouchers', 'Admins can read every redemption'],
  'public.voucher_redemptions has exactly the expected policies');
select policies_are('public', 'cart_vouchers', array['Customers can read their cart''s voucher',
  'Admins can read every cart voucher'], 'public.cart_vouchers has exactly the expected policies');

create function pg_temp.privileges_are_exact() returns setof text language plpgsql as $fn$
declare
  t text;
begin
  foreach t in array array['vouchers', 'voucher_redemptions', 'cart_vouchers'] loop
    return next table_privs_are('public', t, 'anon', array[]::text[], format('anon privileges on %s', t));
    return next table_privs_are('public', t, 'authenticated', array['SELECT'],
      format('authenticated privileges on %s', t));
    return next table_privs_are('public', t, 'service_role', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
      format('service_role privileges on %s', t));
  end loop;
end $fn$;
select * from pg_temp.privileges_are_exact();

select function_privs_are('public', 'reserve_cart_voucher', array['uuid', 'bigint'], 'authenticated',
  array[]::text[], 'customers cannot reserve a voucher themselves');
select function_privs_are('public', 'order_paid_voucher', array['bigint'], 'authenticated', array[]::text[],
  'customers cannot activate a voucher');
select function_privs_are('public', 'release_order_vouchers', array['bigint'], 'authenticated', array[]::text[],
  'customers cannot give a reservation back themselves');
select function_privs_are('public', 'apply_cart_voucher', array['text'], 'anon', array[]::text[],
  'anonymous visitors cannot apply a code');

-- Reading.
select tests.act_as_anon();
select * from tests.denied($$select * from public.vouchers$$, 'anon cannot read vouchers');

select tests.act_as('buyer');
select is((select count(*)::int from public.vouchers), 6, 'the buyer reads every voucher it bought');
select * from tests.denied($$update public.vouchers set remaining = 1$$, 'the buyer cannot change its vouchers');

select tests.act_as('friend');
select is((select array_agg(id::text order by id) from public.vouchers),
  array['c0000000-0000-4000-8000-000000000001'],
  'the recipient reads the active voucher sent to its email today, not one sent later nor an unpaid one');

select tests.act_as('stranger');
select is((select count(*)::int from public.vouchers), 0, 'another customer reads none');
select tests.act_as('partner');
select is((select count(*)::int from public.vouchers), 0, 'a partner reads none');
select tests.act_as('admin');
select is((select count(*)::int from public.vouchers), 6, 'an admin reads every voucher');
select * from tests.denied($$insert into public.vouchers (buyer_id, code_hash, code_sealed, amount, remaining,
  sender_name, recipient_name, recipient_email, send_on) values (tests.user_id('admin'), repeat('9', 64),
  'v1:x:y', 5000, 5000, 'A', 'B', 'b@test.invalid', '2026-12-01')$$, 'nobody but the system writes vouchers');

-- Applying a code (the system on the customer's behalf: 20261128009000_function_privileges.sql).
select tests.act_as_cart('stranger');
select is(public.apply_cart_voucher(repeat('0', 64)) ->> 'reason', 'unknown', 'an unknown code');
select is(public.apply_cart_voucher(repeat('3', 64)) ->> 'reason', 'pending', 'an unpaid voucher');
select is(public.apply_cart_voucher(repeat('4', 64)) ->> 'reason', 'expired', 'an expired voucher');
select is(public.apply_cart_voucher(repeat('5', 64)) ->> 'reason', 'empty', 'a used-up voucher');
select is(public.apply_cart_voucher(repeat('6', 64)) ->> 'reason', 'canceled', 'a canceled voucher');
select is((public.apply_cart_voucher(repeat('2', 64)) ->> 'remaining')::int, 5000, 'a valid code is applied');
select tests.act_as('stranger');
select is((select count(*)::int from public.vouchers), 1, 'the customer who applied a code now reads its voucher');
select is((select count(*)::int from public.cart_vouchers), 1, 'and its cart''s voucher');
select tests.act_as_cart('stranger');
select is((public.apply_cart_voucher(repeat('1', 64)) ->> 'ok')::boolean, true, 'another code replaces it');
select tests.act_as('stranger');
select is((select count(*)::int from public.cart_vouchers), 1, 'one voucher a cart');
select tests.act_as_cart('stranger');
select ok(public.remove_cart_voucher(), 'the code comes off the cart');
select ok(not public.remove_cart_voucher(), 'nothing left to take off');
select tests.act_as_cart('partner');
select * from tests.denied($$select public.apply_cart_voucher(repeat('1', 64))$$, 'a partner cannot apply a code');
select tests.act_as_cart('admin');
select * from tests.denied($$select public.apply_cart_voucher(repeat('1', 64))$$, 'an admin has no cart to apply it to');

-- Reserving, consuming, releasing (the checkout's calls, as the service role).
select tests.act_as_service();
insert into public.orders (id, kind, user_id, total_amount) overriding system value values
  (9001, 'cart', tests.user_id('stranger'), 3000), (9002, 'cart', tests.user_id('stranger'), 9000),
  (9003, 'cart', tests.user_id('stranger'), 9000), (9004, 'cart', tests.user_id('stranger'), 1500),
  (9009, 'voucher', tests.user_id('buyer'), 5000);
select tests.act_as_cart('stranger');
select public.apply_cart_voucher(repeat('1', 64));
select tests.act_as_service();
select is(public.reserve_cart_voucher(tests.user_id('stranger'), 9001), 3000::bigint,
  'an order of 30 € takes 30 € of the voucher');
select is((select remaining from public.vouchers where id = 'c0000000-0000-4000-8000-000000000001'), 2000::bigint,
  'the voucher keeps the rest');
select is((select discount_amount from public.orders where id = 9001), 3000::bigint, 'the order counts the discount');
select is(public.order_amount_due(9001), 0::bigint, 'nothing is left to pay by card');
select is((select count(*)::int from public.cart_vouchers), 1, 'the code stays on the cart until the order is paid');
select is(public.reserve_cart_voucher(tests.user_id('stranger'), 9002), 2000::bigint,
  'a bigger order takes only what is left');
select is((select remaining from public.vouchers where id = 'c0000000-0000-4000-8000-000000000001'), 0::bigint,
  'nothing is left');
select is(public.reserve_cart_voucher(tests.user_id('stranger'), 9003), 0::bigint, 'an empty voucher pays nothing');
select is(public.reserve_cart_voucher(tests.user_id('buyer'), 9004), 0::bigint,
  'without a code on its cart, nothing is reserved');
update public.orders set status = 'paid', paid_at = now() where id = 9001;
select is((select status from public.voucher_redemptions where order_id = 9001), 'consumed',
  'the paid order consumes its reservation');
select is((select count(*)::int from public.cart_vouchers), 0, 'and the code leaves the cart');
select is(public.release_order_vouchers(9001), 0::bigint, 'a consumed reservation is never given back');
update public.orders set status = 'canceled', canceled_at = now() where id = 9002;
select is((select status from public.voucher_redemptions where order_id = 9002), 'released',
  'a canceled order gives its reservation back');
select is((select remaining from public.vouchers where id = 'c0000000-0000-4000-8000-000000000001'), 2000::bigint,
  'the voucher has its 20 € again');
select is(public.release_order_vouchers(9002), 0::bigint, 'once');

select tests.act_as('stranger');
select is((select array_agg(amount::int order by amount) from public.voucher_redemptions), array[2000, 3000],
  'the customer reads its redemptions');
select tests.act_as('buyer');
select is((select count(*)::int from public.voucher_redemptions), 2, 'the buyer reads its voucher''s redemptions');
select tests.act_as('partner');
select is((select count(*)::int from public.voucher_redemptions), 0, 'a partner reads none');

-- An order left expired over a day gives its reservation back (the registry's hourly job), and its discount.
select tests.act_as_service();
insert into public.orders (id, kind, user_id, status, total_amount, discount_amount, updated_at)
  overriding system value values
  (9005, 'cart', tests.user_id('stranger'), 'expired', 1500, 1500, now() - interval '2 days'),
  (9006, 'cart', tests.user_id('stranger'), 'expired', 500, 500, now() - interval '2 hours');
insert into public.voucher_redemptions (voucher_id, user_id, order_id, amount) values
  ('c0000000-0000-4000-8000-000000000001', tests.user_id('stranger'), 9005, 1500),
  ('c0000000-0000-4000-8000-000000000001', tests.user_id('stranger'), 9006, 500);
update public.vouchers set remaining = remaining - 2000 where id = 'c0000000-0000-4000-8000-000000000001';
select is(public.release_stale_voucher_holds(), 1, 'one order expired for over a day');
select is((select remaining from public.vouchers where id = 'c0000000-0000-4000-8000-000000000001'), 1500::bigint,
  'its 15 € are back; the recent one keeps its 5 €');
select is((select discount_amount from public.orders where id = 9005), 0::bigint,
  'the order no longer counts the discount (a late payment is then refunded)');
select is(public.release_stale_voucher_holds(), 0, 'once');

-- The voucher order paid (order_paid dispatches to order_paid_voucher).
select tests.act_as_service();
update public.vouchers set order_id = 9009 where id = 'c0000000-0000-4000-8000-000000000003';
select ok(public.order_paid(9009), 'the paid voucher order is fulfilled');
select is((select status from public.vouchers where id = 'c0000000-0000-4000-8000-000000000003'), 'active',
  'its voucher is active');
select ok((select valid_until between now() + interval '364 days' and now() + interval '366 days'
  from public.vouchers where id = 'c0000000-0000-4000-8000-000000000003'), 'valid one year from payment');
select ok(public.order_paid(9009), 'a payment reported twice is fulfilled once');
update public.vouchers set status = 'canceled' where id = 'c0000000-0000-4000-8000-000000000003';
select ok(not public.order_paid(9009), 'a canceled voucher cannot be fulfilled (the payment is refunded)');

-- An organiser's cancellation gives the voucher its share of the registration back (issue 12 review):
-- registration by registration, never above its amount, valid three months at least.
select tests.act_as_service();
select function_privs_are('public', 'return_registration_vouchers', array['uuid'], 'authenticated', array[]::text[],
  'giving a voucher back is the system''s');
insert into public.workshop_sessions (id, slug, title, city, published) overriding system value values
  (9951, 'atelier-bon-rendu', 'Atelier', 'Lyon', true);
insert into public.session_dates (id, session_id, dtstart, places, places_left, price_ttc) overriding system value values
  (9961, 9951, now() + interval '10 days', 4, 2, 4000);
insert into public.orders (id, kind, user_id, status, total_amount, discount_amount, paid_at) overriding system value values
  (9010, 'cart', tests.user_id('stranger'), 'paid', 8000, 5000, now());
update public.vouchers set remaining = 0, valid_until = now() + interval '5 days'
where id = 'c0000000-0000-4000-8000-000000000001';
insert into public.voucher_redemptions (voucher_id, user_id, order_id, amount, status) values
  ('c0000000-0000-4000-8000-000000000001', tests.user_id('stranger'), 9010, 5000, 'consumed');
insert into public.registrations (id, user_id, date_id, quantity, amount, discount_amount, status, order_id) values
  ('c0000000-0000-4000-8000-0000000000a1', tests.user_id('stranger'), 9961, 1, 4000, 4000, 'invoiced', 9010),
  ('c0000000-0000-4000-8000-0000000000a2', tests.user_id('stranger'), 9961, 1, 4000, 1000, 'invoiced', 9010);
select is(public.return_registration_vouchers('c0000000-0000-4000-8000-0000000000a2'), 1000::bigint,
  'one registration gives back its share alone');
select is((select remaining from public.vouchers where id = 'c0000000-0000-4000-8000-000000000001'), 1000::bigint,
  'the voucher has it again');
select is((select returned_amount from public.voucher_redemptions where order_id = 9010), 1000::bigint,
  'the redemption records it');
select ok((select valid_until > now() + interval '89 days' from public.vouchers
  where id = 'c0000000-0000-4000-8000-000000000001'), 'a voucher about to expire stays valid three months');
select is(public.cancel_registration('c0000000-0000-4000-8000-0000000000a1', 'Date annulée', null) ->> 'voucherReturned',
  '4000', 'cancel_registration gives the voucher its share of a paid registration');
select is((select remaining from public.vouchers where id = 'c0000000-0000-4000-8000-000000000001'), 5000::bigint,
  'all of it is back, never above its amount');
select is((select returned_amount from public.voucher_redemptions where order_id = 9010), 5000::bigint,
  'the redemption is given back whole');
select throws_ok($$update public.voucher_redemptions set returned_amount = amount + 1 where order_id = 9010$$,
  '23514', null, 'never more than was consumed');

-- The backstop.
select tests.reset_role();
select throws_ok($$update public.vouchers set remaining = -1 where id = 'c0000000-0000-4000-8000-000000000001'$$,
  '23514', null, 'even the owner cannot take a voucher below zero');

select * from finish();
rollback;
