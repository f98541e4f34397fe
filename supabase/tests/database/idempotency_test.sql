-- Idempotency keys (migration 20261128003000_idempotency.sql): public.idempotency_keys is the system's
-- alone (no policy, no privilege for anon or authenticated); idempotency.record_creation is the one way
-- a user's transaction touches it, and only with the request's token; the purge is the system's. Also
-- the stored Message-ID of the email outbox (20261128003001_email_message_id.sql).
begin;
select plan(33);

select tests.create_user('Customer', 'customer_a'), tests.create_user('Admin', 'admin');

-- ---------------------------------------------------------------------------------------------
-- Structure
-- ---------------------------------------------------------------------------------------------
select ok((select relrowsecurity from pg_class where oid = 'public.idempotency_keys'::regclass),
  'RLS is enabled on idempotency_keys');
select policies_are('public', 'idempotency_keys', array[]::text[], 'idempotency_keys has no policy');
select table_privs_are('public', 'idempotency_keys', 'anon', array[]::text[], 'anon has no privilege');
select table_privs_are('public', 'idempotency_keys', 'authenticated', array[]::text[],
  'authenticated has no privilege');
select table_privs_are('public', 'idempotency_keys', 'service_role', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
  'service_role reads and writes idempotency_keys');
select schema_privs_are('idempotency', 'anon', array['USAGE'], 'anon uses the idempotency schema');
select schema_privs_are('idempotency', 'authenticated', array['USAGE'], 'authenticated uses the idempotency schema');
select function_privs_are('idempotency', 'record_creation', array['text', 'text', 'uuid'], 'anon', array['EXECUTE'],
  'anon: record_creation (a visitor''s quote request marks its key)');
select function_privs_are('idempotency', 'record_creation', array['text', 'text', 'uuid'], 'authenticated',
  array['EXECUTE'], 'authenticated: record_creation');
select function_privs_are('idempotency', 'record_creation', array['text', 'text', 'uuid'], 'service_role',
  array['EXECUTE'], 'service_role: record_creation');
select is_definer('idempotency', 'record_creation', array['text', 'text', 'uuid'], 'record_creation is security definer');
select function_privs_are('public', 'purge_idempotency_keys', array[]::name[], 'anon', array[]::text[], 'anon: no purge');
select function_privs_are('public', 'purge_idempotency_keys', array[]::name[], 'authenticated', array[]::text[],
  'authenticated: no purge');
select function_privs_are('public', 'purge_idempotency_keys', array[]::name[], 'service_role', array['EXECUTE'],
  'service_role: purge');
select is_definer('public', 'purge_idempotency_keys', array[]::name[], 'purge_idempotency_keys is security definer');
select has_column('public', 'email_outbox', 'message_id', 'the email outbox keeps each email''s Message-ID');

-- Keys: 1 to 255 printable ASCII characters.
select throws_ok($$insert into public.idempotency_keys (scope, key, fingerprint, token, locked_until)
  values ('ip:1', repeat('k', 256), 'f', gen_random_uuid(), now())$$, '23514', null, 'a key of 256 characters is refused');
select throws_ok($$insert into public.idempotency_keys (scope, key, fingerprint, token, locked_until)
  values ('ip:1', 'clé', 'f', gen_random_uuid(), now())$$, '23514', null, 'a key outside printable ASCII is refused');
select throws_ok($$insert into public.idempotency_keys (scope, key, fingerprint, token, locked_until, state)
  values ('ip:1', 'k', 'f', gen_random_uuid(), now(), 'completed')$$, '23514', null,
  'a completed key has its response');

insert into public.idempotency_keys (scope, key, fingerprint, token, locked_until) values
  ('ip:10.0.0.1', 'visitor-key', 'POST /api/deal/request x', '00000000-0000-4000-8000-000000000001', now() + interval '1 minute'),
  ('user:' || tests.user_id('customer_a'), 'customer-key', 'POST /api/chat/messages x',
   '00000000-0000-4000-8000-000000000002', now() + interval '1 minute');
insert into public.idempotency_keys (scope, key, fingerprint, token, locked_until, state, response_status, response_body,
  completed_at, created_at) values
  ('ip:10.0.0.1', 'old-key', 'f', gen_random_uuid(), now() - interval '25 hours', 'completed', 200, '{}',
   now() - interval '25 hours', now() - interval '25 hours'),
  ('ip:10.0.0.1', 'done-key', 'f', '00000000-0000-4000-8000-000000000003', now(), 'completed', 200, '{}', now(), now());

-- ---------------------------------------------------------------------------------------------
-- Anonymous visitor
-- ---------------------------------------------------------------------------------------------
select tests.act_as_anon();
select tests.denied($$select * from public.idempotency_keys$$, 'anon cannot read keys');
select tests.denied($$insert into public.idempotency_keys (scope, key, fingerprint, token, locked_until)
  values ('ip:x', 'k', 'f', gen_random_uuid(), now())$$, 'anon cannot write keys');
select throws_ok($$select idempotency.record_creation('ip:10.0.0.1', 'visitor-key', gen_random_uuid())$$, 'IK409', null,
  'without the request''s token, record_creation changes nothing and raises');
select lives_ok($$select idempotency.record_creation('ip:10.0.0.1', 'visitor-key', '00000000-0000-4000-8000-000000000001')$$,
  'with its token, the visitor''s transaction marks its key');
select throws_ok($$select idempotency.record_creation('ip:10.0.0.1', 'done-key', '00000000-0000-4000-8000-000000000003')$$,
  'IK409', null, 'a completed key is not marked again');
select tests.denied($$select public.purge_idempotency_keys()$$, 'anon cannot purge');

-- ---------------------------------------------------------------------------------------------
-- Signed-in users
-- ---------------------------------------------------------------------------------------------
select tests.act_as('customer_a');
select tests.denied($$select * from public.idempotency_keys$$, 'a customer cannot read keys, even their own');
select tests.denied($$update public.idempotency_keys set state = 'pending'$$, 'a customer cannot write keys');
select lives_ok(format($$select idempotency.record_creation('user:%s', 'customer-key', '00000000-0000-4000-8000-000000000002')$$,
  tests.user_id('customer_a')), 'the customer''s transaction marks its key');
select tests.act_as('admin');
select tests.denied($$delete from public.idempotency_keys$$, 'an admin cannot delete keys');
select tests.denied($$select public.purge_idempotency_keys()$$, 'an admin cannot purge');

-- ---------------------------------------------------------------------------------------------
-- The system
-- ---------------------------------------------------------------------------------------------
select tests.reset_role();
select is((select array_agg(state order by key) from public.idempotency_keys where key in ('customer-key', 'visitor-key')),
  array['committed', 'committed'], 'both marks were written');
select tests.act_as_service();
select is(public.purge_idempotency_keys(), 1, 'service_role purges the keys older than 24 hours');
select tests.reset_role();
select is((select count(*)::int from public.idempotency_keys where key = 'old-key'), 0, 'the old key is gone');

select * from finish();
rollback;
