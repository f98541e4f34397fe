-- Auth limits: identity.rate_limits (counters shared by every app instance) and
-- identity.hit_rate_limit() belong to the service role (the auth service); anon and authenticated,
-- admins included, reach neither. identity.login_attempts remembers the client address (ip).
-- Users and identity switches come from supabase/tests/helpers.sql.
begin;
select plan(56);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Company', 'partner_a');

-- ---------------------------------------------------------------------------------------------
-- Structure
-- ---------------------------------------------------------------------------------------------
select ok((select relrowsecurity from pg_class where oid = 'identity.rate_limits'::regclass),
  'RLS is enabled on identity.rate_limits');
select policies_are('identity', 'rate_limits', array[]::name[],
  'identity.rate_limits has no policy (only a BYPASSRLS role reads it)');
select table_privs_are('identity', 'rate_limits', 'anon', array[]::text[],
  'anon has no privilege on identity.rate_limits');
select table_privs_are('identity', 'rate_limits', 'authenticated', array[]::text[],
  'authenticated has no privilege on identity.rate_limits');
select table_privs_are('identity', 'rate_limits', 'service_role', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
  'service_role reads and writes identity.rate_limits');
select function_privs_are('identity', 'hit_rate_limit', array['text', 'integer'], 'anon', array[]::text[],
  'anon cannot execute identity.hit_rate_limit');
select function_privs_are('identity', 'hit_rate_limit', array['text', 'integer'], 'authenticated',
  array[]::text[], 'authenticated cannot execute identity.hit_rate_limit');
select function_privs_are('identity', 'hit_rate_limit', array['text', 'integer'], 'service_role',
  array['EXECUTE'], 'service_role can execute identity.hit_rate_limit');
select is_definer('identity', 'hit_rate_limit', array['text', 'integer'],
  'identity.hit_rate_limit is security definer');
select function_privs_are('identity', 'purge_expired', array[]::text[], 'service_role', array['EXECUTE'],
  'service_role can still execute identity.purge_expired (replaced by this migration)');
select has_column('identity', 'login_attempts', 'ip', 'identity.login_attempts has an ip column');
select col_not_null('identity', 'login_attempts', 'ip', 'login_attempts.ip is not null');
select col_default_is('identity', 'login_attempts', 'ip', 'unknown', 'login_attempts.ip defaults to ''unknown''');
select has_index('identity', 'login_attempts', 'login_attempts_ip_idx', array['ip', 'attempted_at'],
  'login attempts are indexed by address and time');

-- Whoever is not the system: 42501 on the table, the function and login_attempts.ip. anon fails on the
-- identity schema itself (no USAGE), authenticated on each object.
create function pg_temp.limits_are_unreachable(who text, anon boolean) returns setof text
language plpgsql as $fn$
declare
  schema_denied constant text := 'permission denied for schema identity';
begin
  return next throws_ok($$select hits from identity.rate_limits$$, '42501',
    case when anon then schema_denied else 'permission denied for table rate_limits' end,
    who || ' cannot read the rate-limit counters');
  return next throws_ok($$insert into identity.rate_limits (bucket, window_start) values ('login', now())$$,
    '42501', case when anon then schema_denied else 'permission denied for table rate_limits' end,
    who || ' cannot add a rate-limit counter');
  return next throws_ok($$update identity.rate_limits set hits = 0$$, '42501',
    case when anon then schema_denied else 'permission denied for table rate_limits' end,
    who || ' cannot reset the rate-limit counters');
  return next throws_ok($$delete from identity.rate_limits$$, '42501',
    case when anon then schema_denied else 'permission denied for table rate_limits' end,
    who || ' cannot remove the rate-limit counters');
  return next throws_ok($$select identity.hit_rate_limit('login', 60)$$, '42501',
    case when anon then schema_denied else 'permission denied for function hit_rate_limit' end,
    who || ' cannot count a hit');
  return next throws_ok($$select ip from identity.login_attempts$$, '42501',
    case when anon then schema_denied else 'permission denied for table login_attempts' end,
    who || ' cannot read the addresses of login attempts');
end $fn$;

-- The start of the fixed window of `seconds` holding now(), computed as hit_rate_limit() does.
create function pg_temp.window_start(seconds integer) returns timestamptz language sql as $fn$
  select to_timestamp(floor(extract(epoch from now()) / seconds) * seconds)
$fn$;

-- ---------------------------------------------------------------------------------------------
-- Anonymous visitor, customer, partner, admin, impersonating admin: nothing.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_anon();
select * from pg_temp.limits_are_unreachable('anon', true);

select tests.act_as('customer_a');
select * from pg_temp.limits_are_unreachable('customer A', false);

select tests.act_as('partner_a');
select * from pg_temp.limits_are_unreachable('partner A', false);

select tests.act_as('admin');
select * from pg_temp.limits_are_unreachable('the admin', false);

select tests.act_as_impersonating('admin', 'customer_a');
select * from pg_temp.limits_are_unreachable('an admin impersonating customer A', false);

select tests.reset_role();
select is_empty($$select bucket from identity.rate_limits$$, 'the refused calls counted nothing');

-- ---------------------------------------------------------------------------------------------
-- service_role: hit_rate_limit() counts hits per bucket and window.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_service();
select is(identity.hit_rate_limit('reset:customer_a@test.invalid', 60), 1::double precision,
  'the first hit of a bucket counts one');
select is(identity.hit_rate_limit('reset:customer_a@test.invalid', 60), 2::double precision,
  'the second hit counts two');
select is(identity.hit_rate_limit('exists:203.0.113.7', 60), 1::double precision,
  'another bucket is counted apart');
select results_eq(
  $$select bucket, window_start = pg_temp.window_start(60), hits from identity.rate_limits order by bucket$$,
  $$values ('exists:203.0.113.7', true, 1), ('reset:customer_a@test.invalid', true, 2)$$,
  'one row per bucket and window holds the hits');

-- The sliding window: the previous fixed window counts in proportion to what the sliding window still
-- covers of it; older windows do not count.
select tests.reset_role();
insert into identity.rate_limits (bucket, window_start, hits) values
  ('login:all', pg_temp.window_start(60) - interval '60 seconds', 10),
  ('login:all', pg_temp.window_start(60) - interval '120 seconds', 1000);
select tests.act_as_service();
select ok(abs(identity.hit_rate_limit('login:all', 60)
              - (1 + 10 * (1 - extract(epoch from now() - pg_temp.window_start(60)) / 60))::double precision) < 1e-9,
  'the previous window''s hits count in proportion to the part of it the sliding window covers');
with hit as materialized (select identity.hit_rate_limit('login:all', 60) as estimate)
select ok(abs(estimate - (2 + 10 * (1 - extract(epoch from now() - pg_temp.window_start(60)) / 60))::double precision)
          < 1e-9,
  'a window older than the previous one does not count')
from hit;

-- identity.purge_expired() removes the counters older than two days, nothing younger.
select tests.reset_role();
insert into identity.rate_limits (bucket, window_start, hits) values
  ('login:all', now() - interval '3 days', 7), ('login:all', now() - interval '1 day', 5);
select tests.act_as_service();
select lives_ok($$select identity.purge_expired()$$, 'service_role runs identity.purge_expired()');
select results_eq($$select count(*)::int from identity.rate_limits where window_start < now() - interval '2 days'$$,
  array[0], 'purge_expired() removed the counters older than two days');
select results_eq($$select count(*)::int from identity.rate_limits$$, array[6],
  'purge_expired() kept the younger counters');

-- login_attempts.ip
select results_eq(
  $$insert into identity.login_attempts (email, succeeded, ip) values ('customer_a@test.invalid', false, '203.0.113.7')
    returning ip$$,
  $$values ('203.0.113.7')$$, 'service_role records the address of a login attempt');
select results_eq(
  $$insert into identity.login_attempts (email, succeeded) values ('customer_a@test.invalid', true) returning ip$$,
  $$values ('unknown')$$, 'an attempt recorded without an address gets ''unknown''');

select * from finish();
rollback;
