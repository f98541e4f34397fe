-- Accounts: row-level security and column privileges of public.users, the role helpers
-- current_user_type()/is_admin(), and public.purge_deleted_accounts().
--
-- Users and identity switches come from the shared helpers (supabase/tests/helpers.sql): admin,
-- customer_a, customer_b, partner_a and partner_b (emails <label>@test.invalid, firstname <label>,
-- lastname 'Test', partners named <label>). tests.reset_role() goes back to the superuser, which
-- checks the real state of the rows.
begin;
select plan(99);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Customer', 'customer_b'), tests.create_user('Company', 'partner_a'),
  tests.create_user('Company', 'partner_b');

-- ---------------------------------------------------------------------------------------------
-- Structure: RLS on, exactly these policies and grants (a new permissive policy or grant fails here).
-- ---------------------------------------------------------------------------------------------
select ok((select relrowsecurity from pg_class where oid = 'public.users'::regclass),
  'RLS is enabled on public.users');
select policies_are('public', 'users', array[
  'Users can read their own account', 'Admins can read every account',
  'Users can update their own account', 'Admins can update every account'
], 'public.users has exactly the four expected policies');
select table_privs_are('public', 'users', 'anon', array[]::text[], 'anon has no privilege on public.users');
select table_privs_are('public', 'users', 'authenticated', array['SELECT'],
  'authenticated only has SELECT on public.users as a whole (updates are per column)');
select column_privs_are('public', 'users', 'type', 'authenticated', array['SELECT'],
  'authenticated cannot update users.type');
select column_privs_are('public', 'users', 'email', 'authenticated', array['SELECT'],
  'authenticated cannot update users.email');
select column_privs_are('public', 'users', 'firstname', 'authenticated', array['SELECT', 'UPDATE'],
  'authenticated can update users.firstname');
select ok((select rolbypassrls from pg_roles where rolname = 'service_role'), 'service_role bypasses RLS');
select ok(not (select rolbypassrls from pg_roles where rolname = 'authenticated'),
  'authenticated does not bypass RLS');
select ok(not (select rolbypassrls from pg_roles where rolname = 'anon'), 'anon does not bypass RLS');

-- ---------------------------------------------------------------------------------------------
-- Anonymous visitor
-- ---------------------------------------------------------------------------------------------
select tests.act_as_anon();

select throws_ok($$select id from public.users$$, '42501', 'permission denied for table users',
  'anon cannot read public.users');
select throws_ok($$update public.users set firstname = 'X'$$, '42501', 'permission denied for table users',
  'anon cannot update public.users');
select throws_ok($$insert into public.users (type, email) values ('Admin', 'pirate@example.com')$$, '42501',
  'permission denied for table users', 'anon cannot create an account');
select is(public.is_admin(), false, 'anon is not an admin');
select is(public.current_user_type(), null, 'anon has no user type');

-- ---------------------------------------------------------------------------------------------
-- Customer A
-- ---------------------------------------------------------------------------------------------
select tests.act_as('customer_a');

select results_eq($$select id from public.users$$,
  $$values (tests.user_id('customer_a'))$$,
  'customer A reads exactly one account: their own');
select is_empty($$select id from public.users where id = tests.user_id('customer_b')$$,
  'customer A cannot read customer B');
select is_empty($$select id from public.users where type = 'Admin'$$, 'customer A cannot read the admin');
select is(public.current_user_type(), 'Customer', 'customer A is a Customer');
select is(public.is_admin(), false, 'customer A is not an admin');

select results_eq(
  $$update public.users set firstname = 'Alicia', city = 'Lyon', optin = true
    where id = tests.user_id('customer_a') returning firstname, city$$,
  $$values ('Alicia', 'Lyon')$$,
  'customer A updates their own details');
select results_eq(
  $$update public.users set deleted_at = now() where id = tests.user_id('customer_a')
    returning deleted_at is not null$$,
  $$values (true)$$,
  'customer A can request the deletion of their account');
select results_eq(
  $$update public.users set deleted_at = null where id = tests.user_id('customer_a')
    returning deleted_at is null$$,
  $$values (true)$$,
  'customer A can cancel the deletion request');
select results_eq(
  $$update public.users set deleted_at = '2000-01-01' where id = tests.user_id('customer_a')
    returning deleted_at > now() - interval '1 minute'$$,
  $$values (true)$$,
  'customer A cannot back-date a deletion request to skip the 14-day grace period');
select results_eq(
  $$update public.users set deleted_at = null where id = tests.user_id('customer_a')
    returning deleted_at is null$$,
  $$values (true)$$,
  'customer A cancels it again');
select results_eq(
  $$with u as (update public.users set firstname = 'Piraté' where id = tests.user_id('customer_b')
    returning 1) select count(*)::int from u$$,
  array[0], 'customer A cannot update customer B (0 rows)');
-- No where clause and no column read: only the UPDATE policy (not the SELECT one) limits the rows.
select results_eq(
  $$with u as (update public.users set lastname = 'Tous' returning 1) select count(*)::int from u$$,
  array[1], 'an update without a where clause only reaches customer A''s own row');
select throws_ok(
  $$update public.users set type = 'Admin' where id = tests.user_id('customer_a')$$,
  '42501', 'permission denied for table users', 'customer A cannot promote themselves to Admin');
select throws_ok(
  $$update public.users set type = 'Company' where id = tests.user_id('customer_a')$$,
  '42501', 'permission denied for table users', 'customer A cannot change their own type');
select throws_ok(
  $$update public.users set email = 'nouvelle@example.com' where id = tests.user_id('customer_a')$$,
  '42501', 'permission denied for table users', 'customer A cannot change their own email');
select throws_ok(
  $$update public.users set terms_accepted_at = null where id = tests.user_id('customer_a')$$,
  '42501', 'permission denied for table users', 'customer A cannot rewrite their consent record');
select throws_ok(
  $$update public.users set anonymized_at = now() where id = tests.user_id('customer_a')$$,
  '42501', 'permission denied for table users', 'customer A cannot set anonymized_at');
select throws_ok(
  $$update public.users set id = gen_random_uuid() where id = tests.user_id('customer_a')$$,
  '42501', 'permission denied for table users', 'customer A cannot change their id');
select throws_ok($$insert into public.users (type, email) values ('Admin', 'pirate@example.com')$$, '42501',
  'permission denied for table users', 'customer A cannot create an account');
select throws_ok($$delete from public.users where id = tests.user_id('customer_a')$$, '42501',
  'permission denied for table users', 'customer A cannot delete their row (deletion goes through deleted_at)');

select tests.reset_role();
select results_eq(
  $$select firstname, lastname, type, email from public.users where id = tests.user_id('customer_b')$$,
  $$values ('customer_b', 'Test', 'Customer', 'customer_b@test.invalid')$$,
  'customer B''s row was not touched by customer A');
select results_eq(
  $$select firstname, lastname, city, type, email from public.users
    where id = tests.user_id('customer_a')$$,
  $$values ('Alicia', 'Tous', 'Lyon', 'Customer', 'customer_a@test.invalid')$$,
  'customer A''s allowed changes were stored, type and email unchanged');

-- ---------------------------------------------------------------------------------------------
-- Customer B
-- ---------------------------------------------------------------------------------------------
select tests.act_as('customer_b');

select results_eq($$select id from public.users$$,
  $$values (tests.user_id('customer_b'))$$,
  'customer B reads exactly one account: their own');
select is_empty($$select id from public.users where id = tests.user_id('customer_a')$$,
  'customer B cannot read customer A');
select results_eq(
  $$with u as (update public.users set firstname = 'Piraté' where id = tests.user_id('customer_a')
    returning 1) select count(*)::int from u$$,
  array[0], 'customer B cannot update customer A (0 rows)');
select results_eq(
  $$with u as (update public.users set deleted_at = now() - interval '1 year'
    where id = tests.user_id('customer_a') returning 1) select count(*)::int from u$$,
  array[0], 'customer B cannot request the deletion of customer A (0 rows)');
select results_eq(
  $$update public.users set phone = '+33600000022' where id = tests.user_id('customer_b')
    returning phone$$,
  $$values ('+33600000022')$$,
  'customer B updates their own phone');
select throws_ok(
  $$update public.users set type = 'Admin' where id = tests.user_id('customer_b')$$,
  '42501', 'permission denied for table users', 'customer B cannot promote themselves to Admin');

-- ---------------------------------------------------------------------------------------------
-- Partner A (Company)
-- ---------------------------------------------------------------------------------------------
select tests.act_as('partner_a');

select results_eq($$select id from public.users$$,
  $$values (tests.user_id('partner_a'))$$,
  'partner A reads exactly one account: their own');
select is_empty($$select id from public.users where type = 'Customer'$$,
  'partner A cannot read the customers');
select is_empty($$select id from public.users where id = tests.user_id('partner_b')$$,
  'partner A cannot read partner B');
select is(public.current_user_type(), 'Company', 'partner A is a Company');
select is(public.is_admin(), false, 'partner A is not an admin');
select results_eq(
  $$update public.users set name = 'Bar A & Co', siren = '333333333', vat_number = 'FR12345678901'
    where id = tests.user_id('partner_a') returning name, siren, vat_number$$,
  $$values ('Bar A & Co', '333333333', 'FR12345678901')$$,
  'partner A updates their company details');
select results_eq(
  $$with u as (update public.users set name = 'Piraté' where id = tests.user_id('partner_b')
    returning 1) select count(*)::int from u$$,
  array[0], 'partner A cannot update partner B (0 rows)');
select results_eq(
  $$with u as (update public.users set optin = true where type = 'Customer' returning 1)
    select count(*)::int from u$$,
  array[0], 'partner A cannot update the customers (0 rows)');
select throws_ok(
  $$update public.users set type = 'Admin' where id = tests.user_id('partner_a')$$,
  '42501', 'permission denied for table users', 'partner A cannot promote themselves to Admin');
select throws_ok(
  $$update public.users set email = 'autre@example.com' where id = tests.user_id('partner_a')$$,
  '42501', 'permission denied for table users', 'partner A cannot change their own email');

-- ---------------------------------------------------------------------------------------------
-- Partner B (Company)
-- ---------------------------------------------------------------------------------------------
select tests.act_as('partner_b');

select results_eq($$select id from public.users$$,
  $$values (tests.user_id('partner_b'))$$,
  'partner B reads exactly one account: their own');
select is_empty($$select id from public.users where id = tests.user_id('partner_a')$$,
  'partner B cannot read partner A');
select results_eq(
  $$with u as (update public.users set siren = '999999999' where id = tests.user_id('partner_a')
    returning 1) select count(*)::int from u$$,
  array[0], 'partner B cannot update partner A (0 rows)');

select tests.reset_role();
select results_eq(
  $$select name, siren, type from public.users where id = tests.user_id('partner_b')$$,
  $$values ('partner_b', null::text, 'Company')$$,
  'partner B''s row was not touched by partner A');
select results_eq(
  $$select firstname, deleted_at from public.users where id = tests.user_id('customer_a')$$,
  $$values ('Alicia', null::timestamptz)$$,
  'customer A''s row was not touched by customer B');
select results_eq(
  $$select count(*)::int from public.users where type = 'Customer' and optin$$,
  array[1], 'only customer A (themselves) opted in: partner A did not reach the customers');

-- ---------------------------------------------------------------------------------------------
-- Admin
-- ---------------------------------------------------------------------------------------------
select tests.act_as('admin');

select is(public.is_admin(), true, 'the admin is an admin');
select is(public.current_user_type(), 'Admin', 'the admin''s type is Admin');
select set_eq($$select id from public.users$$,
  array[tests.user_id('admin'), tests.user_id('customer_a'), tests.user_id('customer_b'),
        tests.user_id('partner_a'), tests.user_id('partner_b')],
  'the admin reads every account');
select results_eq(
  $$update public.users set firstname = 'Bruno-Admin' where id = tests.user_id('customer_b')
    returning firstname$$,
  $$values ('Bruno-Admin')$$,
  'the admin updates customer B');
select results_eq(
  $$update public.users set address1 = '1 rue du Bar' where id = tests.user_id('partner_b')
    returning address1$$,
  $$values ('1 rue du Bar')$$,
  'the admin updates partner B');
select results_eq(
  $$with u as (update public.users set zipcode = '75001' returning 1) select count(*)::int from u$$,
  array[5], 'the admin updates every account');
select results_eq(
  $$update public.users set deleted_at = now() where id = tests.user_id('customer_b')
    returning deleted_at is not null$$,
  $$values (true)$$,
  'the admin can request the deletion of an account');
select throws_ok(
  $$update public.users set type = 'Admin' where id = tests.user_id('customer_b')$$,
  '42501', 'permission denied for table users', 'even the admin cannot change a type as authenticated');
select throws_ok(
  $$update public.users set email = 'x@example.com' where id = tests.user_id('customer_b')$$,
  '42501', 'permission denied for table users', 'even the admin cannot change an email as authenticated');
select throws_ok($$delete from public.users where id = tests.user_id('customer_b')$$, '42501',
  'permission denied for table users', 'even the admin cannot delete an account row');

select tests.reset_role();
select results_eq(
  $$select firstname, zipcode, deleted_at is not null from public.users
    where id = tests.user_id('customer_b')$$,
  $$values ('Bruno-Admin', '75001', true)$$,
  'the admin''s changes to customer B were stored');

-- ---------------------------------------------------------------------------------------------
-- Admin impersonating customer A: acts as customer A only, with no admin right.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_impersonating('admin', 'customer_a');

select is(public.is_admin(), false, 'an impersonating admin is not an admin');
select is(public.current_user_type(), 'Customer', 'an impersonating admin has the impersonated user''s type');
select results_eq($$select id from public.users$$,
  $$values (tests.user_id('customer_a'))$$,
  'an impersonating admin reads only the impersonated account');
select results_eq(
  $$with u as (update public.users set firstname = 'Piraté' where id = tests.user_id('customer_b')
    returning 1) select count(*)::int from u$$,
  array[0], 'an impersonating admin cannot update another account (0 rows)');
select results_eq(
  $$update public.users set lastname = 'Impersonated' where id = tests.user_id('customer_a')
    returning lastname$$,
  $$values ('Impersonated')$$,
  'an impersonating admin updates the impersonated account');

-- ---------------------------------------------------------------------------------------------
-- Claims without a user (authenticated role, no sub): nothing.
-- ---------------------------------------------------------------------------------------------
select tests.set_claims('authenticated', '{"role":"authenticated"}', 'authenticated without sub');

select is_empty($$select id from public.users$$, 'authenticated without sub reads no account');
select results_eq(
  $$with u as (update public.users set firstname = 'Personne' returning 1) select count(*)::int from u$$,
  array[0], 'authenticated without sub updates no account');
select is(public.is_admin(), false, 'authenticated without sub is not an admin');

-- ---------------------------------------------------------------------------------------------
-- An anonymised admin loses the admin right.
-- ---------------------------------------------------------------------------------------------
select tests.reset_role();
update public.users set anonymized_at = now() where id = tests.user_id('admin');
select tests.act_as('admin');
select is(public.is_admin(), false, 'an anonymised admin is not an admin');
select results_eq($$select id from public.users$$,
  $$values (tests.user_id('admin'))$$,
  'an anonymised admin only reads their own row');
select results_eq(
  $$with u as (update public.users set firstname = 'X' where id <> tests.user_id('admin')
    returning 1) select count(*)::int from u$$,
  array[0], 'an anonymised admin updates no other account');
select tests.reset_role();
update public.users set anonymized_at = null where id = tests.user_id('admin');

-- ---------------------------------------------------------------------------------------------
-- service_role (the app's auth service) bypasses RLS.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_service();

select results_eq($$select count(*)::int from public.users$$, array[5],
  'service_role reads every account without any policy');
select results_eq(
  $$insert into public.users (id, type, email) values
    ('c0000000-0000-4000-8000-00000000000c', 'Customer', 'client.c@example.com') returning type$$,
  $$values ('Customer')$$,
  'service_role creates an account');
select results_eq(
  $$update public.users set email = 'client.c2@example.com', type = 'Company'
    where id = 'c0000000-0000-4000-8000-00000000000c' returning email, type$$,
  $$values ('client.c2@example.com', 'Company')$$,
  'service_role changes email and type');
select results_eq(
  $$with d as (delete from public.users where id = 'c0000000-0000-4000-8000-00000000000c' returning 1)
    select count(*)::int from d$$,
  array[1], 'service_role deletes an account');

-- ---------------------------------------------------------------------------------------------
-- purge_deleted_accounts(): anonymises accounts deleted more than 14 days ago, nothing younger.
-- ---------------------------------------------------------------------------------------------
select tests.reset_role();
update public.users set deleted_at = now() - interval '15 days'
  where id = tests.user_id('customer_a');
update public.users set deleted_at = now() - interval '13 days'
  where id = tests.user_id('customer_b');
update public.users set deleted_at = now() - interval '14 days' + interval '1 minute'
  where id = tests.user_id('partner_a');
update public.users set deleted_at = null where id = tests.user_id('partner_b');
insert into identity.credentials (user_id, password_hash) values
  (tests.user_id('customer_a'), 'hash-a'), (tests.user_id('customer_b'), 'hash-b'),
  (tests.user_id('partner_a'), 'hash-pa');
insert into identity.sessions (id_hash, user_id, expires_at) values
  ('sess-a-1', tests.user_id('customer_a'), now() + interval '1 day'),
  ('sess-a-2', tests.user_id('customer_a'), now() + interval '1 day'),
  ('sess-b-1', tests.user_id('customer_b'), now() + interval '1 day'),
  ('sess-pa-1', tests.user_id('partner_a'), now() + interval '1 day');
delete from public.logs;

-- Nobody but the service role runs it.
select tests.act_as('admin');
select throws_ok($$select public.purge_deleted_accounts()$$, '42501',
  'permission denied for function purge_deleted_accounts', 'the admin cannot run purge_deleted_accounts()');
select tests.act_as_anon();
select throws_ok($$select public.purge_deleted_accounts()$$, '42501',
  'permission denied for function purge_deleted_accounts', 'anon cannot run purge_deleted_accounts()');

select tests.act_as_service();
select is(public.purge_deleted_accounts(), 1, 'purge_deleted_accounts() anonymises exactly one account');

select tests.reset_role();
select results_eq(
  $$select email, firstname, lastname, name, phone, city, zipcode, emails, optin, anonymized_at is not null
    from public.users where id = tests.user_id('customer_a')$$,
  $$values ('supprime+' || tests.user_id('customer_a') || '@invalid.invalid', 'Compte', 'supprimé',
            null::text, null::text, null::text, null::text, '{}'::text[], false, true)$$,
  'the account deleted 15 days ago is anonymised (its row is kept)');
select is_empty($$select 1 from identity.credentials where user_id = tests.user_id('customer_a')$$,
  'the anonymised account''s credentials are removed');
select is_empty($$select 1 from identity.sessions where user_id = tests.user_id('customer_a')$$,
  'the anonymised account''s sessions are removed');
select results_eq(
  $$select email, firstname, phone, anonymized_at from public.users
    where id = tests.user_id('customer_b')$$,
  $$values ('customer_b@test.invalid', 'Bruno-Admin', '+33600000022', null::timestamptz)$$,
  'the account deleted 13 days ago is kept as is');
select results_eq(
  $$select email, name, anonymized_at from public.users where id = tests.user_id('partner_a')$$,
  $$values ('partner_a@test.invalid', 'Bar A & Co', null::timestamptz)$$,
  'an account deleted 14 days minus one minute ago is kept as is');
select results_eq(
  $$select email, anonymized_at from public.users where id = tests.user_id('partner_b')$$,
  $$values ('partner_b@test.invalid', null::timestamptz)$$,
  'an account without deletion request is kept as is');
select set_eq($$select user_id from identity.credentials$$,
  array[tests.user_id('customer_b'), tests.user_id('partner_a')],
  'the credentials of the accounts still in their grace period are kept');
select set_eq($$select id_hash from identity.sessions$$, array['sess-b-1', 'sess-pa-1'],
  'the sessions of the accounts still in their grace period are kept');
select results_eq(
  $$select service, type, context from public.logs$$,
  $$values ('accounts', 'info', '{"count": 1}'::jsonb)$$,
  'the purge is logged once with its count');

select tests.act_as_service();
select is(public.purge_deleted_accounts(), 0, 'a second run anonymises nothing more');
select tests.reset_role();
select results_eq($$select count(*)::int from public.logs$$, array[1], 'an empty run writes no log');

select * from finish();
rollback;
