-- Workshop operations (supabase/migrations/20261127004000_session_ops.sql): exactly these policies and
-- privileges on seat_offers; the waiting list (a freed place set aside for the oldest waiting alert,
-- under the date's lock, its email job enqueued; claimed once; expired → the next one; nothing once the
-- date is closed or past); only admins close and cancel, a canceled date stays so and only
-- cancel_session_date cancels; holds capped at twice the hold time.
begin;
select plan(44);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Customer', 'customer_b'), tests.create_user('Company', 'partner_a');

insert into public.workshop_sessions (id, slug, title, city) overriding system value values
  (951, 'atelier-ops', 'Atelier ops', 'Paris');
insert into public.session_dates (id, uuid, session_id, dtstart, places, places_left, price_ttc)
  overriding system value values
  (961, 'c0000000-0000-4000-8000-000000000961', 951, now() + interval '10 days', 1, 1, 4500),
  (962, 'c0000000-0000-4000-8000-000000000962', 951, now() + interval '12 days', 4, 4, 4500),
  (963, 'c0000000-0000-4000-8000-000000000963', 951, now() + interval '14 days', 10, 10, 4500);

select policies_are('public', 'seat_offers', array['Admins can read every seat offer',
  'Users can read the offers of their seat alerts'], 'public.seat_offers has exactly the expected policies');
select table_privs_are('public', 'seat_offers', 'anon', array[]::text[], 'anon has no privilege on seat_offers');
select table_privs_are('public', 'seat_offers', 'authenticated', array['SELECT'],
  'authenticated only reads seat_offers');
select table_privs_are('public', 'seat_offers', 'service_role', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
  'service_role writes seat_offers');
select function_privs_are('public', 'expire_seat_offers', array[]::text[], 'authenticated', array[]::text[],
  'authenticated cannot run expire_seat_offers');
select function_privs_are('public', 'expire_seat_offers_for_date', array['bigint'], 'anon', array[]::text[],
  'expire_seat_offers_for_date is internal');
select function_privs_are('public', 'claim_seat_offer', array['text', 'uuid', 'integer'], 'anon',
  array[]::text[], 'anon cannot claim an offer itself (the app checks the signed link, then claims as the system)');

-- The date is full: one anonymous hold; then two alerts (b first). Holds and claims are made by the
-- system on the shopper's behalf (20261128009000_function_privileges.sql).
select tests.act_as_cart();
select is(public.add_to_cart(repeat('h', 40), 'c0000000-0000-4000-8000-000000000961', 1, 20) ->> 'places_left',
  '0', 'the only place is held');
select tests.reset_role();
insert into public.seat_alerts (id, date_id, email, optin, user_id, created_at) values
  ('d0000000-0000-4000-8000-000000000001', 961, 'customer_b@test.invalid', true, tests.user_id('customer_b'),
   now() - interval '2 minutes'),
  ('d0000000-0000-4000-8000-000000000002', 961, 'customer_a@test.invalid', true, tests.user_id('customer_a'),
   now() - interval '1 minute');

-- The hold expires: the place goes to b, not back on sale.
update public.cart_lines set expires_at = now() - interval '1 second' where date_id = 961;
select tests.act_as_service();
select is(public.release_expired_holds(), 1, 'the expired hold is released');
select tests.reset_role();
select is((select places_left from public.session_dates where id = 961), 0, 'the freed place is set aside');
select is((select count(*)::int from public.seat_offers where date_id = 961 and status = 'offered'), 1, 'one offer');
select is((select a.email from public.seat_offers o join public.seat_alerts a on a.id = o.alert_id
  where o.date_id = 961), 'customer_b@test.invalid', 'the oldest alert first');
select isnt((select notified_at from public.seat_alerts where id = 'd0000000-0000-4000-8000-000000000001'), null,
  'b is marked offered');
select is((select notified_at from public.seat_alerts where id = 'd0000000-0000-4000-8000-000000000002'), null,
  'a still waits');
select is((select count(*)::int from outbox.jobs where queue = 'seat-offer-mail'
  and payload ->> 'offerId' = (select id::text from public.seat_offers where date_id = 961)), 1,
  'its email job is enqueued in the same transaction');
select is((select places_left from public.session_dates where id = 961) +
  (select count(*)::int from public.seat_offers where date_id = 961 and status = 'offered'), 1,
  'left + offered never exceeds the capacity');

-- Who reads offers: b its own, a none, a partner none, anon nothing; an admin all.
select tests.act_as('customer_b');
select is((select count(*)::int from public.seat_offers), 1, 'a customer reads the offer of its alert');
select tests.act_as('customer_a');
select is((select count(*)::int from public.seat_offers), 0, 'another customer reads none');
select tests.act_as('partner_a');
select is((select count(*)::int from public.seat_offers), 0, 'a partner reads none');
select tests.act_as_anon();
select * from tests.denied($$select * from public.seat_offers$$, 'anon cannot read offers');
select tests.act_as('admin');
select is((select count(*)::int from public.seat_offers), 1, 'an admin reads every offer');

-- The offer expires: its place goes to a; b is not offered again.
select tests.reset_role();
update public.seat_offers set expires_at = now() - interval '1 second' where date_id = 961;
select tests.act_as_service();
select is(public.expire_seat_offers(), 1, 'the expired offer gives its place back');
select tests.reset_role();
select is((select status from public.seat_offers where alert_id = 'd0000000-0000-4000-8000-000000000001'),
  'expired', 'b''s offer expired');
select is((select status from public.seat_offers where alert_id = 'd0000000-0000-4000-8000-000000000002'),
  'offered', 'a is offered the place');
select is((select places_left from public.session_dates where id = 961), 0, 'still set aside');

-- a claims it (anonymous cart): into the cart, once.
select set_config('test.offer_a', (select id::text from public.seat_offers
  where alert_id = 'd0000000-0000-4000-8000-000000000002'), true) is not null as noted_a,
  set_config('test.offer_b', (select id::text from public.seat_offers
  where alert_id = 'd0000000-0000-4000-8000-000000000001'), true) is not null as noted_b;
select tests.act_as_cart();
select is(public.claim_seat_offer(repeat('k', 40),
  current_setting('test.offer_a')::uuid, 20) ->> 'quantity',
  '1', 'the claimed place is in the cart');
select is(public.claim_seat_offer(repeat('z', 40),
  current_setting('test.offer_a')::uuid, 20) ->> 'reason',
  'used', 'a link serves once');
select is(public.claim_seat_offer(repeat('z', 40),
  current_setting('test.offer_b')::uuid, 20) ->> 'reason',
  'expired', 'an expired offer cannot be claimed');
select tests.reset_role();
select is((select places_left from public.session_dates where id = 961), 0, 'the place never went on sale');

-- A closed or past date offers nothing.
insert into public.seat_alerts (date_id, email, optin) values (962, 'w@test.invalid', true);
update public.session_dates set state = 'closed', places_left = 4 where id = 962;
select is((select count(*)::int from public.seat_offers where date_id = 962), 0, 'a closed date offers nothing');
update public.session_dates set state = 'open', dtstart = now() - interval '1 hour' where id = 962;
select is((select count(*)::int from public.seat_offers where date_id = 962), 0, 'a past date offers nothing');

-- Closing and canceling: admins only; the plain edit cannot cancel; a canceled date stays canceled.
select tests.act_as('customer_a');
select throws_ok($$select public.set_session_date_closed('c0000000-0000-4000-8000-000000000963', true)$$, '42501',
  null, 'a customer cannot close a date');
select throws_ok($$select public.cancel_session_date('c0000000-0000-4000-8000-000000000963')$$, '42501', null,
  'a customer cannot cancel a date');
select tests.act_as('partner_a');
select throws_ok($$select public.cancel_session_date('c0000000-0000-4000-8000-000000000963')$$, '42501', null,
  'a partner cannot cancel a date');
select tests.act_as_anon();
select throws_ok($$select public.cancel_session_date('c0000000-0000-4000-8000-000000000963')$$, '42501', null,
  'anon cannot cancel a date');
select tests.act_as_cart();
select is(public.add_to_cart(repeat('c', 40), 'c0000000-0000-4000-8000-000000000963', 2, 20) ->> 'places_left',
  '8', 'a visitor holds 2 places of the date to cancel');
select tests.act_as('admin');
select throws_ok($$update public.session_dates set state = 'canceled' where id = 963$$, '42501', null,
  'an admin''s plain edit cannot cancel');
select throws_ok($$select public.cancel_session_date('c0000000-0000-4000-8000-000000000963')$$, '42501', null,
  'only the system cancels (the use case checks the admin, then refunds in the same transaction)');
select tests.act_as_service();
select is(public.cancel_session_date('c0000000-0000-4000-8000-000000000963') ->> 'released', '2',
  'canceling releases the holds');
select is((select count(*)::int from public.cart_lines where date_id = 963), 0, 'no hold left');
select is(public.cancel_session_date('c0000000-0000-4000-8000-000000000963') ->> 'already', 'true',
  'canceling twice is one cancellation');
select tests.act_as('admin');
select throws_ok($$update public.session_dates set state = 'open' where id = 963$$, '42501', null,
  'a canceled date stays canceled');

-- Holds: booking again never holds past twice the hold time from the first hold.
select tests.reset_role();
update public.session_dates set places = 10, places_left = 10, dtstart = now() + interval '5 days' where id = 962;
select tests.act_as_cart();
select ok((public.add_to_cart(repeat('q', 40), 'c0000000-0000-4000-8000-000000000962', 1, 20) ->> 'ok')::boolean,
  'a first hold');
select tests.reset_role();
update public.cart_lines set created_at = now() - interval '35 minutes', expires_at = now() + interval '1 minute'
  where date_id = 962;
select tests.act_as_cart();
select ok((public.add_to_cart(repeat('q', 40), 'c0000000-0000-4000-8000-000000000962', 1, 20) ->> 'expires_at')::bigint
  <= extract(epoch from now() + interval '5 minutes')::bigint + 1, 'held again only up to 40 minutes after the first hold');

select * from finish();
rollback;
