-- The cart remembers an expired hold (migration 20261128008500_cart_hold_expired.sql): a line deleted
-- after its expiry marks its cart, a new line clears the mark, a line removed while still live does not
-- mark it; cart_hold_expired() answers for the caller's cart only, and only to the service role.
begin;
select plan(10);

insert into public.workshop_sessions (id, slug, title, city, published) overriding system value values
  (951, 'atelier-expiration', 'Atelier expiration', 'Paris', true);
insert into public.session_dates (id, uuid, session_id, dtstart, places, places_left, price_ttc, soon, state)
  overriding system value values
  (961, 'a0000000-0000-4000-8000-000000000961', 951, now() + interval '10 days', 10, 10, 4500, false, 'open'),
  (962, 'a0000000-0000-4000-8000-000000000962', 951, now() + interval '11 days', 10, 10, 4500, false, 'open');

select is(public.cart_hold_expired(repeat('e', 40)), false, 'no cart: nothing expired');
select is((public.add_to_cart(repeat('e', 40), 'a0000000-0000-4000-8000-000000000961', 2, 20)) ->> 'quantity', '2',
  'a visitor holds 2 places');
select is(public.cart_hold_expired(repeat('e', 40)), false, 'a live hold: nothing expired');

update public.cart_lines set expires_at = now() - interval '1 minute'
where cart_id = (select id from public.carts where token_hash = encode(sha256(convert_to(repeat('e', 40), 'UTF8')), 'hex'));
select is(public.cart_hold_expired(repeat('e', 40)), true, 'expired, not yet released: the cart says so');
select ok(public.release_expired_holds() >= 2, 'the job releases it');
select is(public.cart_hold_expired(repeat('e', 40)), true, 'released: the cart still says so');
select is(public.cart_hold_expired(repeat('f', 40)), false, 'another token knows nothing of it');

select is((public.add_to_cart(repeat('e', 40), 'a0000000-0000-4000-8000-000000000962', 1, 20)) ->> 'quantity', '1',
  'a new hold');
select is(public.remove_cart_line(repeat('e', 40), (select line_id from public.cart_contents(repeat('e', 40)))) ->> 'ok',
  'true', 'removed while live');
select is(public.cart_hold_expired(repeat('e', 40)), false, 'a new hold cleared the mark; removing a live one sets none');

select * from finish();
rollback;
