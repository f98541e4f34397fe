-- Identity: the identity schema (credentials, sessions, login_attempts, password_reset_tokens) is
-- reached only by the service role; anon and authenticated (admins included) get 42501 on every
-- table. identity.change_own_password() changes only the caller's password, ends the caller's other
-- sessions, and refuses anon, claims without a user and impersonation. identity.purge_expired()
-- belongs to the service role. Users and identity switches come from supabase/tests/helpers.sql.
begin;
select plan(96);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Customer', 'customer_b'), tests.create_user('Company', 'partner_a'),
  tests.create_user('Company', 'partner_b');

insert into identity.credentials (user_id, password_hash, updated_at) values
  (tests.user_id('admin'), 'hash-admin', '2020-01-01'),
  (tests.user_id('customer_a'), 'hash-a', '2020-01-01'),
  (tests.user_id('customer_b'), 'hash-b', '2020-01-01'),
  (tests.user_id('partner_a'), 'hash-pa', '2020-01-01'),
  (tests.user_id('partner_b'), 'hash-pb', '2020-01-01');
insert into identity.sessions (id_hash, user_id, impersonator_id, expires_at) values
  ('sess-admin', tests.user_id('admin'), null, now() + interval '1 day'),
  ('sess-a-current', tests.user_id('customer_a'), null, now() + interval '1 day'),
  ('sess-a-phone', tests.user_id('customer_a'), null, now() + interval '1 day'),
  ('sess-b-current', tests.user_id('customer_b'), null, now() + interval '1 day'),
  ('sess-b-laptop', tests.user_id('customer_b'), null, now() + interval '1 day'),
  ('sess-b-impersonated', tests.user_id('customer_b'), tests.user_id('admin'),
   now() + interval '1 day'),
  ('sess-pa', tests.user_id('partner_a'), null, now() + interval '1 day'),
  ('sess-pb', tests.user_id('partner_b'), null, now() + interval '1 day'),
  ('sess-pb-expired', tests.user_id('partner_b'), null, now() - interval '1 second');
insert into identity.login_attempts (email, attempted_at, succeeded) values
  ('customer_a@test.invalid', now() - interval '1 hour', true),
  ('customer_b@test.invalid', now() - interval '2 days', false);
insert into identity.password_reset_tokens (token_hash, user_id, expires_at) values
  ('reset-a', tests.user_id('customer_a'), now() + interval '1 hour'),
  ('reset-b-old', tests.user_id('customer_b'), now() - interval '2 days');

-- ---------------------------------------------------------------------------------------------
-- Structure: RLS on, no policy at all, no table privilege for anon or authenticated.
-- ---------------------------------------------------------------------------------------------
select ok((select bool_and(relrowsecurity) from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'identity' and c.relkind = 'r'),
  'RLS is enabled on every identity table');
select results_eq($$select count(*)::int from pg_policies where schemaname = 'identity'$$, array[0],
  'the identity schema has no policy (only a BYPASSRLS role reads it)');
select policies_are('identity', 'credentials', array[]::name[], 'identity.credentials has no policy');
select policies_are('identity', 'sessions', array[]::name[], 'identity.sessions has no policy');
select policies_are('identity', 'login_attempts', array[]::name[], 'identity.login_attempts has no policy');
select policies_are('identity', 'password_reset_tokens', array[]::name[],
  'identity.password_reset_tokens has no policy');
select schema_privs_are('identity', 'anon', array[]::text[], 'anon has no privilege on the identity schema');
select schema_privs_are('identity', 'authenticated', array['USAGE'],
  'authenticated only has USAGE on the identity schema (to call change_own_password)');
select table_privs_are('identity', 'credentials', 'anon', array[]::text[],
  'anon has no privilege on identity.credentials');
select table_privs_are('identity', 'sessions', 'anon', array[]::text[],
  'anon has no privilege on identity.sessions');
select table_privs_are('identity', 'login_attempts', 'anon', array[]::text[],
  'anon has no privilege on identity.login_attempts');
select table_privs_are('identity', 'password_reset_tokens', 'anon', array[]::text[],
  'anon has no privilege on identity.password_reset_tokens');
select table_privs_are('identity', 'credentials', 'authenticated', array[]::text[],
  'authenticated has no privilege on identity.credentials');
select table_privs_are('identity', 'sessions', 'authenticated', array[]::text[],
  'authenticated has no privilege on identity.sessions');
select table_privs_are('identity', 'login_attempts', 'authenticated', array[]::text[],
  'authenticated has no privilege on identity.login_attempts');
select table_privs_are('identity', 'password_reset_tokens', 'authenticated', array[]::text[],
  'authenticated has no privilege on identity.password_reset_tokens');
select function_privs_are('identity', 'change_own_password', array['text', 'text'], 'anon', array[]::text[],
  'anon cannot execute identity.change_own_password');
select function_privs_are('identity', 'change_own_password', array['text', 'text'], 'authenticated',
  array['EXECUTE'], 'authenticated can execute identity.change_own_password');
select function_privs_are('identity', 'purge_expired', array[]::text[], 'authenticated', array[]::text[],
  'authenticated cannot execute identity.purge_expired');

-- Every table of the identity schema refuses the caller with 42501: anon fails on the schema
-- itself (no USAGE), authenticated on each table (no privilege).
create function pg_temp.identity_is_unreachable(who text, anon boolean) returns setof text
language plpgsql as $fn$
declare
  t text;
  denied text;
begin
  foreach t in array array['credentials', 'sessions', 'login_attempts', 'password_reset_tokens'] loop
    denied := case when anon then 'permission denied for schema identity' else 'permission denied for table ' || t end;
    return next throws_ok(format('select * from identity.%I', t), '42501', denied,
      format('%s cannot read identity.%s', who, t));
    return next throws_ok(format('delete from identity.%I', t), '42501', denied,
      format('%s cannot delete from identity.%s', who, t));
  end loop;
  return next throws_ok(
    $$update identity.credentials set password_hash = 'pirate' where user_id = tests.user_id('customer_b')$$,
    '42501', case when anon then 'permission denied for schema identity' else 'permission denied for table credentials' end,
    who || ' cannot overwrite a password hash');
  return next throws_ok(
    $$insert into identity.sessions (id_hash, user_id, expires_at)
      values ('forged', tests.user_id('admin'), now() + interval '1 day')$$,
    '42501', case when anon then 'permission denied for schema identity' else 'permission denied for table sessions' end,
    who || ' cannot forge a session');
  return next throws_ok(
    $$insert into identity.password_reset_tokens (token_hash, user_id, expires_at)
      values ('forged', tests.user_id('admin'), now() + interval '1 day')$$,
    '42501',
    case when anon then 'permission denied for schema identity' else 'permission denied for table password_reset_tokens' end,
    who || ' cannot forge a password-reset token');
  return next throws_ok($$select identity.purge_expired()$$, '42501',
    case when anon then 'permission denied for schema identity' else 'permission denied for function purge_expired' end,
    who || ' cannot run identity.purge_expired()');
end $fn$;

-- The superuser's view of the passwords, by user label, to check what a call changed.
create function pg_temp.hashes() returns table (label text, password_hash text) language sql as $fn$
  select t.label, c.password_hash from identity.credentials c join tests.users t on t.id = c.user_id
  order by t.label
$fn$;

-- ---------------------------------------------------------------------------------------------
-- Anonymous visitor
-- ---------------------------------------------------------------------------------------------
select tests.act_as_anon();
select * from pg_temp.identity_is_unreachable('anon', true);
select throws_ok($$select identity.change_own_password('hash-anon', 'x')$$, '42501',
  'permission denied for schema identity', 'anon cannot call identity.change_own_password');
-- Even with a user's claims, the anon role cannot reach the function.
select tests.set_claims('anon', jsonb_build_object('role', 'anon', 'sub', tests.user_id('customer_a')),
  'anon carrying customer_a''s claims');
select throws_ok($$select identity.change_own_password('hash-anon', 'x')$$, '42501',
  'permission denied for schema identity', 'the anon role cannot call identity.change_own_password whatever its claims');

-- ---------------------------------------------------------------------------------------------
-- Signed-in users, the admin included: no table of the identity schema.
-- ---------------------------------------------------------------------------------------------
select tests.act_as('customer_a');
select * from pg_temp.identity_is_unreachable('customer A', false);

select tests.act_as('partner_b');
select * from pg_temp.identity_is_unreachable('partner B', false);

select tests.act_as('admin');
select * from pg_temp.identity_is_unreachable('the admin', false);

-- ---------------------------------------------------------------------------------------------
-- change_own_password: customer A changes only their own password and ends their other sessions.
-- ---------------------------------------------------------------------------------------------
select tests.act_as('customer_a');
select lives_ok($$select identity.change_own_password('new-hash-a', 'sess-a-current')$$,
  'customer A changes their own password');

select tests.reset_role();
select results_eq($$select * from pg_temp.hashes()$$,
  $$values ('admin', 'hash-admin'), ('customer_a', 'new-hash-a'), ('customer_b', 'hash-b'), ('partner_a', 'hash-pa'),
           ('partner_b', 'hash-pb')$$,
  'only customer A''s password hash changed');
select ok((select updated_at > '2020-01-01' from identity.credentials
           where user_id = tests.user_id('customer_a')),
  'customer A''s credentials updated_at moved');
select set_eq($$select id_hash from identity.sessions where user_id = tests.user_id('customer_a')$$,
  array['sess-a-current'], 'customer A''s other sessions ended, the current one kept');
select set_eq($$select id_hash from identity.sessions where user_id <> tests.user_id('customer_a')$$,
  array['sess-admin', 'sess-b-current', 'sess-b-laptop', 'sess-b-impersonated', 'sess-pa', 'sess-pb',
        'sess-pb-expired'],
  'nobody else''s sessions were touched');

-- Customer B, then partner A: again only their own row.
select tests.act_as('customer_b');
select lives_ok($$select identity.change_own_password('new-hash-b', 'sess-b-current')$$,
  'customer B changes their own password');
select tests.act_as('partner_a');
select lives_ok($$select identity.change_own_password('new-hash-pa', 'sess-pa')$$,
  'partner A changes their own password');

select tests.reset_role();
select results_eq($$select * from pg_temp.hashes()$$,
  $$values ('admin', 'hash-admin'), ('customer_a', 'new-hash-a'), ('customer_b', 'new-hash-b'), ('partner_a', 'new-hash-pa'),
           ('partner_b', 'hash-pb')$$,
  'customer B and partner A changed only their own password hashes');
select set_eq($$select id_hash from identity.sessions$$,
  array['sess-admin', 'sess-a-current', 'sess-b-current', 'sess-pa', 'sess-pb', 'sess-pb-expired'],
  'customer B''s other sessions (the impersonation one included) ended, nobody else''s');

-- ---------------------------------------------------------------------------------------------
-- change_own_password refuses impersonation and claims without a user.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_impersonating('admin', 'partner_b');
select throws_ok($$select identity.change_own_password('hash-chosen-by-admin', 'sess-pb')$$, '42501',
  'password change refused while impersonating', 'an impersonating admin cannot change the user''s password');

select tests.set_claims('authenticated', '{"role":"authenticated"}', 'authenticated without sub');
select throws_ok($$select identity.change_own_password('hash-nobody', 'x')$$, '42501', 'not authenticated',
  'authenticated claims without a user cannot change a password');

select tests.set_claims('authenticated', null, 'authenticated without claims');
select throws_ok($$select identity.change_own_password('hash-nobody', 'x')$$, '42501', 'not authenticated',
  'the authenticated role without any claims cannot change a password');

select tests.reset_role();
select results_eq(
  $$select password_hash from identity.credentials where user_id = tests.user_id('partner_b')$$,
  $$values ('hash-pb')$$, 'partner B''s password is unchanged after the refused impersonated change');
select set_eq($$select id_hash from identity.sessions where user_id = tests.user_id('partner_b')$$,
  array['sess-pb', 'sess-pb-expired'], 'partner B''s sessions are untouched by the refused change');
select results_eq($$select count(*)::int from identity.credentials where password_hash = 'hash-nobody'$$,
  array[0], 'no password was set by a caller without a user');

-- The admin changes their own password (not impersonating).
select tests.act_as('admin');
select lives_ok($$select identity.change_own_password('new-hash-admin', 'sess-admin')$$,
  'the admin changes their own password');
select tests.reset_role();
select results_eq($$select * from pg_temp.hashes()$$,
  $$values ('admin', 'new-hash-admin'), ('customer_a', 'new-hash-a'), ('customer_b', 'new-hash-b'), ('partner_a', 'new-hash-pa'),
           ('partner_b', 'hash-pb')$$,
  'the admin changed only their own password hash');

-- ---------------------------------------------------------------------------------------------
-- service_role (the auth service) bypasses RLS on every identity table and runs purge_expired().
-- ---------------------------------------------------------------------------------------------
select tests.act_as_service();
select results_eq($$select count(*)::int from identity.credentials$$, array[5],
  'service_role reads every credential without any policy');
select results_eq($$select count(*)::int from identity.sessions$$, array[6], 'service_role reads every session');
select results_eq($$select count(*)::int from identity.login_attempts$$, array[2],
  'service_role reads every login attempt');
select results_eq($$select count(*)::int from identity.password_reset_tokens$$, array[2],
  'service_role reads every password-reset token');
select results_eq(
  $$insert into identity.login_attempts (email, succeeded) values ('customer_a@test.invalid', false) returning succeeded$$,
  $$values (false)$$, 'service_role records a login attempt (identity column included)');
select results_eq(
  $$update identity.credentials set password_hash = 'reset-hash' where user_id = tests.user_id('partner_b')
    returning password_hash$$,
  $$values ('reset-hash')$$, 'service_role resets a password');
select lives_ok($$select identity.purge_expired()$$, 'service_role runs identity.purge_expired()');
select set_eq($$select id_hash from identity.sessions where user_id = tests.user_id('partner_b')$$,
  array['sess-pb'], 'purge_expired() removed the expired session only');
select results_eq($$select email, succeeded from identity.login_attempts order by attempted_at$$,
  $$values ('customer_a@test.invalid', true), ('customer_a@test.invalid', false)$$,
  'purge_expired() removed the login attempts older than a day only');
select set_eq($$select token_hash from identity.password_reset_tokens$$, array['reset-a'],
  'purge_expired() removed the reset tokens expired for more than a day only');

select * from finish();
rollback;
