-- Seat limits (supabase/migrations/20261128004000_seat_limits.sql): one cart holds at most its
-- session's max_places_per_date of one date and max_places_held() across dates, whoever calls the
-- functions (anon, a customer, the service role); a lapsed hold has a cool-down; a merge at login is
-- trimmed to the limits; checkout refuses a cart over the limit; the helpers are internal.
begin;
select plan(38);

select tests.create_user('Customer', 'customer_a');

insert into public.workshop_sessions (id, slug, title, city, published) overriding system value values
  (951, 'limites-a', 'Limites A', 'Paris', true);
insert into public.workshop_sessions (id, slug, title, city, published, max_places_per_date) overriding system value
  values (952, 'limites-b', 'Limites B', 'Paris', true, 2);
insert into public.session_dates (id, uuid, session_id, dtstart, places, places_left, price_ttc)
  overriding system value values
  (9511, 'e0000000-0000-4000-8000-000000009511', 951, now() + interval '10 days', 30, 30, 4500),
  (9512, 'e0000000-0000-4000-8000-000000009512', 951, now() + interval '11 days', 30, 30, 4500),
  (9513, 'e0000000-0000-4000-8000-000000009513', 951, now() + interval '12 days', 30, 30, 4500),
  (9521, 'e0000000-0000-4000-8000-000000009521', 952, now() + interval '10 days', 10, 10, 4500);

-- Privileges: the holding functions are the system's (lib/actor.ts cartActor, after the app's own
-- limits; 20261128009000_function_privileges.sql) and enforce the limits inside whoever calls them;
-- the helpers and the lapses table are internal.
select function_privs_are('public', 'add_to_cart', array['text', 'uuid', 'integer', 'integer'], 'anon',
  array[]::text[], 'anon cannot hold places directly (the app holds them on its behalf)');
select function_privs_are('public', 'cart_limit_refusal', array['uuid', 'bigint', 'integer', 'boolean'], 'anon',
  array[]::text[], 'cart_limit_refusal is internal (anon)');
select function_privs_are('public', 'cart_limit_refusal', array['uuid', 'bigint', 'integer', 'boolean'], 'authenticated',
  array[]::text[], 'cart_limit_refusal is internal (authenticated)');
select function_privs_are('public', 'lock_own_cart', array['text'], 'authenticated', array[]::text[],
  'lock_own_cart is internal');
select function_privs_are('identity', 'hit_rate_limit', array['text', 'integer', 'integer'], 'authenticated',
  array[]::text[], 'weighted rate limits are the service role''s');
select function_privs_are('identity', 'give_back_rate_limit', array['text', 'integer'], 'anon',
  array[]::text[], 'giving back tries is the service role''s');
select function_privs_are('public', 'create_cart_order', array['uuid', 'jsonb', 'integer'], 'authenticated',
  array[]::text[], 'checkout stays the service role''s');
select table_privs_are('public', 'cart_hold_lapses', 'anon', array[]::text[], 'anon reads no lapse');
select table_privs_are('public', 'cart_hold_lapses', 'authenticated', array[]::text[],
  'authenticated reads no lapse');
select policies_are('public', 'cart_hold_lapses', array[]::text[], 'cart_hold_lapses has no policy: internal');

-- Per date: 10 places of one date per cart, even when the date has 30, even for the database's owner.
select tests.reset_role();
select is(public.add_to_cart(repeat('s', 40), 'e0000000-0000-4000-8000-000000009511', 11, 20) ->> 'reason',
  'date_limit', 'the owner calling add_to_cart directly cannot hold 11 places of one date in one cart either');
select tests.act_as_cart();
select is(public.add_to_cart(repeat('a', 40), 'e0000000-0000-4000-8000-000000009511', 12, 20)
  - 'ok', '{"reason": "date_limit", "limit": 10, "held": 0}'::jsonb, 'an anonymous visitor cannot take 12: the limit is 10');
select is(public.add_to_cart(repeat('a', 40), 'e0000000-0000-4000-8000-000000009511', 10, 20) ->> 'quantity', '10',
  '10 places are held');
select is(public.add_to_cart(repeat('a', 40), 'e0000000-0000-4000-8000-000000009511', 1, 20)
  - 'ok', '{"reason": "date_limit", "limit": 10, "held": 10}'::jsonb, 'one more is refused, saying what is held');
select is((select places_left from public.session_dates where id = 9511), 20, 'the refused place stays on sale');
select is(public.change_cart_line(repeat('a', 40), (select line_id from public.cart_contents(repeat('a', 40))
  where date_uuid = 'e0000000-0000-4000-8000-000000009511'), 11, 20) ->> 'reason', 'date_limit',
  'a line cannot grow past the limit either');

-- Across dates: 20 places per cart.
select is(public.add_to_cart(repeat('a', 40), 'e0000000-0000-4000-8000-000000009512', 10, 20) ->> 'ok', 'true',
  '10 more on another date: 20 held');
select is(public.add_to_cart(repeat('a', 40), 'e0000000-0000-4000-8000-000000009513', 1, 20)
  - 'ok', '{"reason": "cart_limit", "limit": 20, "held": 20}'::jsonb, 'a 21st place on a third date is refused');
select is(public.change_cart_line(repeat('a', 40), (select line_id from public.cart_contents(repeat('a', 40))
  where date_uuid = 'e0000000-0000-4000-8000-000000009512'), 4, 20) ->> 'quantity', '4', 'shrinking a line frees room');
select is(public.add_to_cart(repeat('a', 40), 'e0000000-0000-4000-8000-000000009513', 6, 20) ->> 'ok', 'true',
  'the room can be used on another date');
select is(public.add_to_cart(repeat('a', 40), 'e0000000-0000-4000-8000-000000009513', 1, 20) ->> 'reason',
  'cart_limit', 'and no more');

-- The session's own setting.
select is(public.add_to_cart(repeat('b', 40), 'e0000000-0000-4000-8000-000000009521', 3, 20)
  - 'ok', '{"reason": "date_limit", "limit": 2, "held": 0}'::jsonb, 'a session set to 2 places per cart refuses 3');
select is(public.add_to_cart(repeat('b', 40), 'e0000000-0000-4000-8000-000000009521', 2, 20) ->> 'ok', 'true',
  'and takes 2');
select tests.reset_role();
select throws_ok($$update public.workshop_sessions set max_places_per_date = 0 where id = 951$$, '23514', null,
  'the setting is at least 1');

-- The cool-down: a lapsed hold cannot be taken again by the same cart for 15 minutes.
update public.cart_lines set expires_at = now() - interval '1 minute'
where cart_id = (select id from public.carts where token_hash = encode(sha256(convert_to(repeat('b', 40), 'UTF8')), 'hex'));
select tests.act_as_cart();
select is(public.add_to_cart(repeat('b', 40), 'e0000000-0000-4000-8000-000000009521', 1, 20) ->> 'reason', 'cooldown',
  'the cart whose hold lapsed waits');
select is((public.add_to_cart(repeat('b', 40), 'e0000000-0000-4000-8000-000000009521', 1, 20) ->> 'until')::bigint,
  ceil(extract(epoch from now() + interval '15 minutes'))::bigint, 'until 15 minutes after the lapse');
select is((select places_left from public.session_dates where id = 9521), 10, 'the lapsed places are back on sale');
select is(public.add_to_cart(repeat('c', 40), 'e0000000-0000-4000-8000-000000009521', 2, 20) ->> 'ok', 'true',
  'another visitor takes them');
select tests.reset_role();
update public.cart_hold_lapses set lapsed_at = now() - interval '16 minutes';
select tests.act_as_cart();
select is(public.add_to_cart(repeat('b', 40), 'e0000000-0000-4000-8000-000000009521', 1, 20) ->> 'ok', 'true',
  'after the cool-down the cart holds the date again');

-- A waiting-list offer is claimed within the cart's limits too (the offer stays open when refused).
select tests.reset_role();
insert into public.seat_alerts (id, date_id, email, optin) values
  ('f0000000-0000-4000-8000-000000000001', 9521, 'waiting@test.invalid', true);
insert into public.seat_offers (id, alert_id, date_id, expires_at) values
  ('f0000000-0000-4000-8000-000000000002', 'f0000000-0000-4000-8000-000000000001', 9521, now() + interval '1 hour');
select tests.act_as_cart();
select is(public.claim_seat_offer(repeat('a', 40), 'f0000000-0000-4000-8000-000000000002', 20) ->> 'reason',
  'cart_limit', 'a cart holding 20 places cannot claim an offered place');
select tests.reset_role();
select is((select status from public.seat_offers where id = 'f0000000-0000-4000-8000-000000000002'), 'offered',
  'the offer stays open for its subscriber');

-- Customers: the same limits, and a merge at login trimmed to them.
select tests.act_as_cart('customer_a');
select is(public.add_to_cart(null, 'e0000000-0000-4000-8000-000000009512', 11, 20) ->> 'reason', 'date_limit',
  'a customer cannot take 11 either');
select is(public.add_to_cart(null, 'e0000000-0000-4000-8000-000000009512', 6, 20) ->> 'ok', 'true',
  'a customer holds 6');
select tests.act_as_cart();
select is(public.add_to_cart(repeat('m', 40), 'e0000000-0000-4000-8000-000000009512', 8, 20) ->> 'ok', 'true',
  'the same person, anonymous, holds 8 more of that date');
select tests.act_as_cart('customer_a');
select is(public.merge_cart(repeat('m', 40)), 1, 'at login the anonymous line moves');
select is((select quantity from public.cart_lines where date_id = 9512 and cart_id = (select id from public.carts where user_id = tests.user_id('customer_a'))),
  10, 'the merged line keeps 10 places, the limit');
select tests.reset_role();
select is((select places_left from public.session_dates where id = 9512), 30 - 4 - 10,
  'the 4 places above the limit are back on sale');

-- Checkout refuses a cart over the limit (lines written around the functions, as a backstop test).
insert into public.cart_lines (cart_id, date_id, quantity, expires_at)
select c.id, 9513, 15, now() + interval '10 minutes' from public.carts c where c.user_id = tests.user_id('customer_a');
select tests.act_as_service();
select throws_ok(format($$select public.create_cart_order(%L, %L::jsonb, 20)$$, tests.user_id('customer_a'),
  (select jsonb_agg(jsonb_build_object('lineId', l.id, 'label', 'x', 'unitAmount', 1, 'amount', 1))
   from public.cart_lines l join public.carts c on c.id = l.cart_id where c.user_id = tests.user_id('customer_a'))),
  '23514', null, 'an order of more than 20 held places is refused');

select * from finish();
rollback;
