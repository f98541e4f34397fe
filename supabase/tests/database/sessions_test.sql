-- Cocktail-workshop sessions (supabase/migrations/20261127001000_sessions.sql): exactly these policies
-- and table privileges; who reads sessions, dates, carts, lines, registrations and alerts (everyone:
-- published sessions and their dates; a customer: its own cart, lines, registrations, alerts; a
-- partner: none of it; admins: everything); only admins write sessions and dates, and places_left
-- follows their capacity; the cart functions hold places under the date's lock and never oversell
-- (the check constraint refuses it anyway); an anonymous cart is reached only with its token; expired
-- holds give their places back; the anonymous cart joins the customer's at login.
begin;
select plan(80);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Customer', 'customer_b'), tests.create_user('Company', 'partner_a');

insert into public.workshop_sessions (id, slug, title, city, published) overriding system value values
  (901, 'atelier-mojito', 'Atelier Mojito', 'Paris', true),
  (902, 'atelier-secret', 'Atelier secret', 'Lyon', false);
insert into public.session_dates (id, uuid, session_id, dtstart, places, places_left, price_ttc, soon, state)
  overriding system value values
  (911, 'a0000000-0000-4000-8000-000000000911', 901, now() + interval '10 days', 10, 10, 4500, false, 'open'),
  (912, 'a0000000-0000-4000-8000-000000000912', 901, now() + interval '20 days', 10, 10, 4500, true, 'open'),
  (913, 'a0000000-0000-4000-8000-000000000913', 901, now() + interval '30 days', 2, 0, 4500, false, 'open'),
  (914, 'a0000000-0000-4000-8000-000000000914', 902, now() + interval '10 days', 5, 5, 4500, false, 'open');
insert into public.registrations (id, user_id, date_id, quantity, amount, status) values
  ('b0000000-0000-4000-8000-000000000001', tests.user_id('customer_a'), 913, 2, 9000, 'pending');
insert into public.seat_alerts (date_id, email, optin, user_id) values
  (913, 'customer_b@test.invalid', true, tests.user_id('customer_b'));

select policies_are('public', 'workshop_sessions', array[
  'Everyone can read published sessions', 'Admins can read every session', 'Admins can create sessions',
  'Admins can change sessions'], 'public.workshop_sessions has exactly the expected policies');
select policies_are('public', 'session_dates', array[
  'Everyone can read the dates of published sessions', 'Admins can read every date', 'Admins can create dates',
  'Admins can change dates'], 'public.session_dates has exactly the expected policies');
select policies_are('public', 'carts', array['Customers can read their cart', 'Admins can read every cart'],
  'public.carts has exactly the expected policies');
select policies_are('public', 'cart_lines', array['Customers can read their cart lines',
  'Admins can read every cart line'], 'public.cart_lines has exactly the expected policies');
select policies_are('public', 'registrations', array['Customers can read their registrations',
  'Admins can read every registration'], 'public.registrations has exactly the expected policies');
select policies_are('public', 'seat_alerts', array['Users can read their seat alerts',
  'Admins can read every seat alert'], 'public.seat_alerts has exactly the expected policies');

create function pg_temp.privileges_are_exact() returns setof text language plpgsql as $fn$
declare
  r record;
begin
  for r in select * from (values
      ('workshop_sessions', array['SELECT'], array['INSERT', 'SELECT', 'UPDATE']),
      ('session_dates', array['SELECT'], array['INSERT', 'SELECT', 'UPDATE']),
      ('carts', array[]::text[], array['SELECT']),
      ('cart_lines', array[]::text[], array['SELECT']),
      ('registrations', array[]::text[], array['SELECT']),
      ('seat_alerts', array[]::text[], array['SELECT'])) t (name, anon, auth) loop
    return next table_privs_are('public', r.name, 'anon', r.anon, format('anon privileges on %s', r.name));
    return next table_privs_are('public', r.name, 'authenticated', r.auth,
      format('authenticated privileges on %s', r.name));
    return next table_privs_are('public', r.name, 'service_role', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
      format('service_role privileges on %s', r.name));
  end loop;
end $fn$;
select * from pg_temp.privileges_are_exact();

select function_privs_are('public', 'release_expired_holds', array[]::text[], 'anon', array[]::text[],
  'anon cannot run release_expired_holds');
select function_privs_are('public', 'release_expired_holds', array[]::text[], 'authenticated', array[]::text[],
  'authenticated cannot run release_expired_holds');
select function_privs_are('public', 'resolve_cart', array['text', 'boolean'], 'anon', array[]::text[],
  'resolve_cart is internal');
select function_privs_are('public', 'merge_cart', array['text'], 'anon', array[]::text[],
  'anon cannot merge a cart');

-- Reading.
select tests.act_as_anon();
select is((select array_agg(slug order by slug) from public.workshop_sessions), array['atelier-mojito'],
  'anon reads published sessions only');
select is((select count(*)::int from public.session_dates), 3, 'anon reads the dates of published sessions only');
select * from tests.denied($$select * from public.registrations$$, 'anon cannot read registrations');
select * from tests.denied($$insert into public.workshop_sessions (slug, title, city) values ('x', 'X', 'Paris')$$,
  'anon cannot create a session');
select * from tests.denied($$update public.session_dates set places = 100 where id = 911$$,
  'anon cannot change a date');

select tests.act_as('partner_a');
select is((select count(*)::int from public.registrations), 0, 'a partner reads no registration');
select is((select count(*)::int from public.seat_alerts), 0, 'a partner reads no seat alert');
select is((select count(*)::int from public.carts), 0, 'a partner reads no cart');
select * from tests.denied($$insert into public.workshop_sessions (slug, title, city) values ('x', 'X', 'Paris')$$,
  'a partner cannot create a session');
select * from tests.changes($$update public.session_dates set price_ttc = 1 where id = 911$$, 0,
  'a partner changes no date');
-- The cart functions are the system's, on the shopper's behalf (20261128009000_function_privileges.sql).
select tests.act_as_cart('partner_a');
select throws_ok($$select public.add_to_cart(null, 'a0000000-0000-4000-8000-000000000911', 1, 20)$$, '42501',
  null, 'a partner has no cart to add to');

select tests.act_as('customer_a');
select is((select count(*)::int from public.registrations), 1, 'a customer reads its registrations');
select tests.act_as('customer_b');
select is((select count(*)::int from public.registrations), 0, 'another customer reads none of them');
select is((select count(*)::int from public.seat_alerts), 1, 'a customer reads its own seat alerts');
select * from tests.changes($$update public.session_dates set places = 100 where id = 911$$, 0,
  'a customer changes no date');

select tests.act_as('admin');
select is((select count(*)::int from public.workshop_sessions), 2, 'an admin reads every session');
select is((select count(*)::int from public.registrations), 1, 'an admin reads every registration');
select is((select count(*)::int from public.seat_alerts), 1, 'an admin reads every seat alert');
select * from tests.changes($$insert into public.workshop_sessions (slug, title, city) values ('neuf', 'Neuf', 'Nice')$$,
  1, 'an admin creates a session');

-- places_left follows the capacity an admin sets; a capacity below what is taken is refused.
insert into public.session_dates (session_id, dtstart, places, places_left, price_ttc)
  values (901, now() + interval '40 days', 8, 0, 5000);
select is((select places_left from public.session_dates where session_id = 901 and places = 8), 8,
  'a new date starts with every place free, whatever places_left it was given');
update public.session_dates set places = 12, places_left = 0 where id = 911;
select is((select places_left from public.session_dates where id = 911), 12,
  'raising the capacity frees as many places (places_left written by an admin is ignored)');
update public.session_dates set places = 10 where id = 911;
select throws_ok($$update public.session_dates set places = 1 where id = 913$$, '23514', null,
  'a capacity below the places taken is refused');

-- Holds: anonymous visitors by token, customers by their id (the system on their behalf).
select tests.act_as_cart();
select is((public.add_to_cart(null, 'a0000000-0000-4000-8000-000000000911', 1, 20)) ->> 'reason', 'no_cart',
  'an anonymous hold needs a cart token');
select is((public.add_to_cart('short', 'a0000000-0000-4000-8000-000000000911', 1, 20)) ->> 'reason', 'no_cart',
  'a token too short is no token');
select is((public.add_to_cart(repeat('a', 40), 'a0000000-0000-4000-8000-000000000911', 3, 20)) ->> 'places_left',
  '7', 'an anonymous visitor holds 3 places: 7 left');
select is((public.add_to_cart(repeat('a', 40), 'a0000000-0000-4000-8000-000000000911', 2, 20)) ->> 'quantity',
  '5', 'holding the same date again adds up on one line');
select is((public.add_to_cart(repeat('a', 40), 'a0000000-0000-4000-8000-000000000911', 6, 20)) ->> 'reason',
  'quantity', 'more than the places left is refused');
select is((public.add_to_cart(repeat('a', 40), 'a0000000-0000-4000-8000-000000000911', 0, 20)) ->> 'reason',
  'quantity', 'zero places is refused');
select is((public.add_to_cart(repeat('a', 40), 'a0000000-0000-4000-8000-000000000912', 1, 20)) ->> 'reason',
  'soon', 'a soon date takes no hold');
select is((public.add_to_cart(repeat('a', 40), 'a0000000-0000-4000-8000-000000000913', 1, 20)) ->> 'reason',
  'full', 'a full date takes no hold');
select is((public.add_to_cart(repeat('a', 40), 'a0000000-0000-4000-8000-000000000914', 1, 20)) ->> 'reason',
  'not_found', 'an unpublished session''s date cannot be held');
select is((select count(*)::int from public.cart_contents(repeat('a', 40))), 1, 'the token reads its cart');
select is((select quantity from public.cart_contents(repeat('a', 40))), 5, 'with the held quantity');
select is((select count(*)::int from public.cart_contents(repeat('b', 40))), 0, 'another token reads nothing');
select is((select count(*)::int from public.cart_contents(null)), 0, 'no token reads nothing');
select is((public.remove_cart_line(repeat('b', 40), (select line_id from public.cart_contents(repeat('a', 40)))))
  ->> 'reason', 'not_found', 'another token cannot remove the line');
select is((public.change_cart_line(repeat('a', 40), (select line_id from public.cart_contents(repeat('a', 40))), 11, 20))
  ->> 'reason', 'quantity', 'a line cannot grow past the places left');
select is((public.change_cart_line(repeat('a', 40), (select line_id from public.cart_contents(repeat('a', 40))), 4, 20))
  ->> 'places_left', '6', 'shrinking a line gives places back');
select tests.act_as_anon();
select throws_ok($$update public.session_dates set places_left = 0 where id = 911$$, '42501', null,
  'anon cannot write places_left');

-- The check constraint is the backstop: nobody, not even the owner, takes more than there is.
select tests.reset_role();
select throws_ok($$update public.session_dates set places_left = places_left - 7 where id = 911$$, '23514', null,
  'places_left never goes below zero');

-- Login: the anonymous cart joins the customer's.
select tests.act_as_cart('customer_a');
select is(public.add_to_cart(null, 'a0000000-0000-4000-8000-000000000911', 1, 20) ->> 'places_left', '5',
  'a customer holds a place in its own cart');
select is(public.merge_cart(repeat('a', 40)), 1, 'at login the anonymous line moves');
select is((select quantity from public.cart_lines where date_id = 911), 5,
  'into the customer''s line of the same date, added up (places already held)');
select tests.act_as('customer_a');
select is((select count(*)::int from public.carts), 1, 'the customer reads one cart, its own');
select tests.reset_role();
select is((select count(*)::int from public.carts where token_hash is not null), 0, 'the anonymous cart is gone');
select is((select places_left from public.session_dates where id = 911), 5, 'no place changed hands at login');

-- Customer B cannot touch A's line.
select tests.reset_role();
select set_config('tests.line', (select id::text from public.cart_lines limit 1), true);
select tests.act_as_cart('customer_b');
select is((public.remove_cart_line(null, current_setting('tests.line')::uuid)) ->> 'reason', 'not_found',
  'another customer cannot remove a line');
select tests.act_as('customer_b');
select is((select count(*)::int from public.cart_lines), 0, 'another customer reads no line of A');

-- Expiry: the job gives places back; nobody but the service role runs it.
select tests.reset_role();
update public.cart_lines set expires_at = now() - interval '1 minute' where date_id = 911;
select tests.act_as_cart('customer_a');
select is((select count(*)::int from public.cart_contents(null)), 0, 'an expired hold is no longer in the cart');
select tests.act_as_service();
select is(public.release_expired_holds(), 5, 'the job releases the 5 expired places');
select is((select places_left from public.session_dates where id = 911), 10, 'every place is free again');
select is((select count(*)::int from public.cart_lines where date_id = 911), 0, 'the expired line is gone');

select * from finish();
rollback;
