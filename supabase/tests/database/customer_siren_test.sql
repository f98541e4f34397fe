-- Customers' SIREN (migration 20261128008000_customer_siren.sql, spec 001 §5): a partner's SIREN is
-- exactly 9 digits; a customer's is free text of at most 9 characters; the row check holds for the
-- users themselves (column privilege) and for the service role alike.
begin;
select plan(7);

select tests.create_user('Customer', 'customer_a'), tests.create_user('Company', 'partner_a');

select tests.act_as('customer_a');
select lives_ok($$update public.users set siren = '12' where id = tests.user_id('customer_a')$$,
  'a customer may keep a SIREN of fewer than 9 digits');
select lives_ok($$update public.users set siren = 'B12345678' where id = tests.user_id('customer_a')$$,
  'a customer''s SIREN is 9 characters at most, not necessarily digits');
select throws_ok($$update public.users set siren = '1234567890' where id = tests.user_id('customer_a')$$,
  '23514', null, 'a customer''s SIREN of 10 characters is refused');
select throws_ok($$update public.users set siren = '' where id = tests.user_id('customer_a')$$,
  '23514', null, 'an empty SIREN is stored as null, never as an empty string');

select tests.act_as('partner_a');
select throws_ok($$update public.users set siren = '12' where id = tests.user_id('partner_a')$$,
  '23514', null, 'a partner''s SIREN of 2 digits is refused');
select lives_ok($$update public.users set siren = '123456789' where id = tests.user_id('partner_a')$$,
  'a partner''s SIREN of 9 digits is kept');

select tests.reset_role();
select is((select siren from public.users where id = tests.user_id('customer_a')), 'B12345678',
  'the customer''s SIREN as written');

select * from finish();
rollback;
