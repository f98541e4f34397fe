-- Identity: the identity schema (credentials, sessions, login_attempts, password_reset_tokens) is
-- reached only by the service role; anon and authenticated (admins included) get 42501 on every
-- table. identity.change_own_password() changes only the caller's password, ends the caller's other
-- sessions, and refuses anon, claims without a user and impersonation. identity.purge_expired()
-- belongs to the service role. Identity switches mirror lib/db/database.ts.
begin;
select plan(88);

insert into public.users (id, type, email, firstname, lastname, name) values
  ('a0000000-0000-4000-8000-000000000001', 'Admin', 'admin@example.com', 'Ada', 'Admin', null),
  ('c0000000-0000-4000-8000-00000000000a', 'Customer', 'client.a@example.com', 'Alice', 'Client', null),
  ('c0000000-0000-4000-8000-00000000000b', 'Customer', 'client.b@example.com', 'Bruno', 'Client', null),
  ('b0000000-0000-4000-8000-00000000000a', 'Company', 'partenaire.a@example.com', 'Paul', 'Partenaire', 'Bar A'),
  ('b0000000-0000-4000-8000-00000000000b', 'Company', 'partenaire.b@example.com', 'Pia', 'Partenaire', 'Bar B');

insert into identity.credentials (user_id, password_hash, updated_at) values
  ('a0000000-0000-4000-8000-000000000001', 'hash-admin', '2020-01-01'),
  ('c0000000-0000-4000-8000-00000000000a', 'hash-a', '2020-01-01'),
  ('c0000000-0000-4000-8000-00000000000b', 'hash-b', '2020-01-01'),
  ('b0000000-0000-4000-8000-00000000000a', 'hash-pa', '2020-01-01'),
  ('b0000000-0000-4000-8000-00000000000b', 'hash-pb', '2020-01-01');
insert into identity.sessions (id_hash, user_id, impersonator_id, expires_at) values
  ('sess-admin', 'a0000000-0000-4000-8000-000000000001', null, now() + interval '1 day'),
  ('sess-a-current', 'c0000000-0000-4000-8000-00000000000a', null, now() + interval '1 day'),
  ('sess-a-phone', 'c0000000-0000-4000-8000-00000000000a', null, now() + interval '1 day'),
  ('sess-b-current', 'c0000000-0000-4000-8000-00000000000b', null, now() + interval '1 day'),
  ('sess-b-laptop', 'c0000000-0000-4000-8000-00000000000b', null, now() + interval '1 day'),
  ('sess-b-impersonated', 'c0000000-0000-4000-8000-00000000000b', 'a0000000-0000-4000-8000-000000000001',
   now() + interval '1 day'),
  ('sess-pa', 'b0000000-0000-4000-8000-00000000000a', null, now() + interval '1 day'),
  ('sess-pb', 'b0000000-0000-4000-8000-00000000000b', null, now() + interval '1 day'),
  ('sess-pb-expired', 'b0000000-0000-4000-8000-00000000000b', null, now() - interval '1 second');
insert into identity.login_attempts (email, attempted_at, succeeded) values
  ('client.a@example.com', now() - interval '1 hour', true),
  ('client.b@example.com', now() - interval '2 days', false);
insert into identity.password_reset_tokens (token_hash, user_id, expires_at) values
  ('reset-a', 'c0000000-0000-4000-8000-00000000000a', now() + interval '1 hour'),
  ('reset-b-old', 'c0000000-0000-4000-8000-00000000000b', now() - interval '2 days');

-- ---------------------------------------------------------------------------------------------
-- Structure: RLS on, no policy at all, no table privilege for anon or authenticated.
-- ---------------------------------------------------------------------------------------------
select ok((select bool_and(relrowsecurity) from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'identity' and c.relkind = 'r'),
  'RLS is enabled on every identity table');
select results_eq($$select count(*)::int from pg_policies where schemaname = 'identity'$$, array[0],
  'the identity schema has no policy (only a BYPASSRLS role reads it)');
select schema_privs_are('identity', 'anon', array[]::text[], 'anon has no privilege on the identity schema');
select schema_privs_are('identity', 'authenticated', array['USAGE'],
  'authenticated only has USAGE on the identity schema (to call change_own_password)');
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
    $$update identity.credentials set password_hash = 'pirate' where user_id = 'c0000000-0000-4000-8000-00000000000b'$$,
    '42501', case when anon then 'permission denied for schema identity' else 'permission denied for table credentials' end,
    who || ' cannot overwrite a password hash');
  return next throws_ok(
    $$insert into identity.sessions (id_hash, user_id, expires_at)
      values ('forged', 'a0000000-0000-4000-8000-000000000001', now() + interval '1 day')$$,
    '42501', case when anon then 'permission denied for schema identity' else 'permission denied for table sessions' end,
    who || ' cannot forge a session');
  return next throws_ok(
    $$insert into identity.password_reset_tokens (token_hash, user_id, expires_at)
      values ('forged', 'a0000000-0000-4000-8000-000000000001', now() + interval '1 day')$$,
    '42501',
    case when anon then 'permission denied for schema identity' else 'permission denied for table password_reset_tokens' end,
    who || ' cannot forge a password-reset token');
  return next throws_ok($$select identity.purge_expired()$$, '42501',
    case when anon then 'permission denied for schema identity' else 'permission denied for function purge_expired' end,
    who || ' cannot run identity.purge_expired()');
end $fn$;

-- The superuser's view of the passwords and sessions, to check what a call changed.
create function pg_temp.hashes() returns table (user_id uuid, password_hash text) language sql as $fn$
  select user_id, password_hash from identity.credentials order by user_id
$fn$;

-- ---------------------------------------------------------------------------------------------
-- Anonymous visitor
-- ---------------------------------------------------------------------------------------------
set local role anon;
select diag('as anon: ' || set_config('request.jwt.claims', '{"role":"anon"}', true));
select * from pg_temp.identity_is_unreachable('anon', true);
select throws_ok($$select identity.change_own_password('hash-anon', 'x')$$, '42501',
  'permission denied for schema identity', 'anon cannot call identity.change_own_password');
-- Even with a user's claims, the anon role cannot reach the function.
select diag('as anon carrying customer A''s claims: ' || set_config('request.jwt.claims',
  '{"role":"anon","sub":"c0000000-0000-4000-8000-00000000000a"}', true));
select throws_ok($$select identity.change_own_password('hash-anon', 'x')$$, '42501',
  'permission denied for schema identity', 'the anon role cannot call identity.change_own_password whatever its claims');

-- ---------------------------------------------------------------------------------------------
-- Signed-in users, the admin included: no table of the identity schema.
-- ---------------------------------------------------------------------------------------------
set local role authenticated;
select diag('as customer A: ' || set_config('request.jwt.claims',
  '{"role":"authenticated","sub":"c0000000-0000-4000-8000-00000000000a"}', true));
select * from pg_temp.identity_is_unreachable('customer A', false);

set local role authenticated;
select diag('as partner B: ' || set_config('request.jwt.claims',
  '{"role":"authenticated","sub":"b0000000-0000-4000-8000-00000000000b"}', true));
select * from pg_temp.identity_is_unreachable('partner B', false);

set local role authenticated;
select diag('as admin: ' || set_config('request.jwt.claims',
  '{"role":"authenticated","sub":"a0000000-0000-4000-8000-000000000001"}', true));
select * from pg_temp.identity_is_unreachable('the admin', false);

-- ---------------------------------------------------------------------------------------------
-- change_own_password: customer A changes only their own password and ends their other sessions.
-- ---------------------------------------------------------------------------------------------
set local role authenticated;
select diag('as customer A: ' || set_config('request.jwt.claims',
  '{"role":"authenticated","sub":"c0000000-0000-4000-8000-00000000000a"}', true));
select lives_ok($$select identity.change_own_password('new-hash-a', 'sess-a-current')$$,
  'customer A changes their own password');

reset role;
select diag('as superuser: ' || set_config('request.jwt.claims', '', true));
select results_eq($$select * from pg_temp.hashes()$$,
  $$values ('a0000000-0000-4000-8000-000000000001'::uuid, 'hash-admin'),
           ('b0000000-0000-4000-8000-00000000000a', 'hash-pa'), ('b0000000-0000-4000-8000-00000000000b', 'hash-pb'),
           ('c0000000-0000-4000-8000-00000000000a', 'new-hash-a'), ('c0000000-0000-4000-8000-00000000000b', 'hash-b')$$,
  'only customer A''s password hash changed');
select ok((select updated_at > '2020-01-01' from identity.credentials
           where user_id = 'c0000000-0000-4000-8000-00000000000a'),
  'customer A''s credentials updated_at moved');
select set_eq($$select id_hash from identity.sessions where user_id = 'c0000000-0000-4000-8000-00000000000a'$$,
  array['sess-a-current'], 'customer A''s other sessions ended, the current one kept');
select set_eq($$select id_hash from identity.sessions where user_id <> 'c0000000-0000-4000-8000-00000000000a'$$,
  array['sess-admin', 'sess-b-current', 'sess-b-laptop', 'sess-b-impersonated', 'sess-pa', 'sess-pb',
        'sess-pb-expired'],
  'nobody else''s sessions were touched');

-- Customer B, then partner A: again only their own row.
set local role authenticated;
select diag('as customer B: ' || set_config('request.jwt.claims',
  '{"role":"authenticated","sub":"c0000000-0000-4000-8000-00000000000b"}', true));
select lives_ok($$select identity.change_own_password('new-hash-b', 'sess-b-current')$$,
  'customer B changes their own password');
set local role authenticated;
select diag('as partner A: ' || set_config('request.jwt.claims',
  '{"role":"authenticated","sub":"b0000000-0000-4000-8000-00000000000a"}', true));
select lives_ok($$select identity.change_own_password('new-hash-pa', 'sess-pa')$$,
  'partner A changes their own password');

reset role;
select diag('as superuser: ' || set_config('request.jwt.claims', '', true));
select results_eq($$select * from pg_temp.hashes()$$,
  $$values ('a0000000-0000-4000-8000-000000000001'::uuid, 'hash-admin'),
           ('b0000000-0000-4000-8000-00000000000a', 'new-hash-pa'), ('b0000000-0000-4000-8000-00000000000b', 'hash-pb'),
           ('c0000000-0000-4000-8000-00000000000a', 'new-hash-a'), ('c0000000-0000-4000-8000-00000000000b', 'new-hash-b')$$,
  'customer B and partner A changed only their own password hashes');
select set_eq($$select id_hash from identity.sessions$$,
  array['sess-admin', 'sess-a-current', 'sess-b-current', 'sess-pa', 'sess-pb', 'sess-pb-expired'],
  'customer B''s other sessions (the impersonation one included) ended, nobody else''s');

-- ---------------------------------------------------------------------------------------------
-- change_own_password refuses impersonation and claims without a user.
-- ---------------------------------------------------------------------------------------------
set local role authenticated;
select diag('as admin impersonating partner B: ' || set_config('request.jwt.claims',
  '{"role":"authenticated","sub":"b0000000-0000-4000-8000-00000000000b","act":{"sub":"a0000000-0000-4000-8000-000000000001"}}',
  true));
select throws_ok($$select identity.change_own_password('hash-chosen-by-admin', 'sess-pb')$$, '42501',
  'password change refused while impersonating', 'an impersonating admin cannot change the user''s password');

set local role authenticated;
select diag('as authenticated without sub: ' || set_config('request.jwt.claims', '{"role":"authenticated"}', true));
select throws_ok($$select identity.change_own_password('hash-nobody', 'x')$$, '42501', 'not authenticated',
  'authenticated claims without a user cannot change a password');

set local role authenticated;
select diag('as authenticated without claims: ' || set_config('request.jwt.claims', '', true));
select throws_ok($$select identity.change_own_password('hash-nobody', 'x')$$, '42501', 'not authenticated',
  'the authenticated role without any claims cannot change a password');

reset role;
select diag('as superuser: ' || set_config('request.jwt.claims', '', true));
select results_eq(
  $$select password_hash from identity.credentials where user_id = 'b0000000-0000-4000-8000-00000000000b'$$,
  $$values ('hash-pb')$$, 'partner B''s password is unchanged after the refused impersonated change');
select set_eq($$select id_hash from identity.sessions where user_id = 'b0000000-0000-4000-8000-00000000000b'$$,
  array['sess-pb', 'sess-pb-expired'], 'partner B''s sessions are untouched by the refused change');
select results_eq($$select count(*)::int from identity.credentials where password_hash = 'hash-nobody'$$,
  array[0], 'no password was set by a caller without a user');

-- The admin changes their own password (not impersonating).
set local role authenticated;
select diag('as admin: ' || set_config('request.jwt.claims',
  '{"role":"authenticated","sub":"a0000000-0000-4000-8000-000000000001"}', true));
select lives_ok($$select identity.change_own_password('new-hash-admin', 'sess-admin')$$,
  'the admin changes their own password');
reset role;
select results_eq($$select * from pg_temp.hashes()$$,
  $$values ('a0000000-0000-4000-8000-000000000001'::uuid, 'new-hash-admin'),
           ('b0000000-0000-4000-8000-00000000000a', 'new-hash-pa'), ('b0000000-0000-4000-8000-00000000000b', 'hash-pb'),
           ('c0000000-0000-4000-8000-00000000000a', 'new-hash-a'), ('c0000000-0000-4000-8000-00000000000b', 'new-hash-b')$$,
  'the admin changed only their own password hash');

-- ---------------------------------------------------------------------------------------------
-- service_role (the auth service) bypasses RLS on every identity table and runs purge_expired().
-- ---------------------------------------------------------------------------------------------
set local role service_role;
select diag('as service_role: ' || set_config('request.jwt.claims', '{"role":"service_role"}', true));
select results_eq($$select count(*)::int from identity.credentials$$, array[5],
  'service_role reads every credential without any policy');
select results_eq($$select count(*)::int from identity.sessions$$, array[6], 'service_role reads every session');
select results_eq($$select count(*)::int from identity.login_attempts$$, array[2],
  'service_role reads every login attempt');
select results_eq($$select count(*)::int from identity.password_reset_tokens$$, array[2],
  'service_role reads every password-reset token');
select results_eq(
  $$insert into identity.login_attempts (email, succeeded) values ('client.a@example.com', false) returning succeeded$$,
  $$values (false)$$, 'service_role records a login attempt (identity column included)');
select results_eq(
  $$update identity.credentials set password_hash = 'reset-hash' where user_id = 'b0000000-0000-4000-8000-00000000000b'
    returning password_hash$$,
  $$values ('reset-hash')$$, 'service_role resets a password');
select lives_ok($$select identity.purge_expired()$$, 'service_role runs identity.purge_expired()');
select set_eq($$select id_hash from identity.sessions where user_id = 'b0000000-0000-4000-8000-00000000000b'$$,
  array['sess-pb'], 'purge_expired() removed the expired session only');
select results_eq($$select email, succeeded from identity.login_attempts order by attempted_at$$,
  $$values ('client.a@example.com', true), ('client.a@example.com', false)$$,
  'purge_expired() removed the login attempts older than a day only');
select set_eq($$select token_hash from identity.password_reset_tokens$$, array['reset-a'],
  'purge_expired() removed the reset tokens expired for more than a day only');

select * from finish();
rollback;
