-- Jobs: public.job_leases (RLS on, no policy, reached only by the service role) and the functions the
-- app's scheduler calls as the system: take_job_lease()/release_job_lease() (one instance runs a job
-- at a time) and sync_cron_jobs() (hands the SQL jobs to pg_cron where pg_cron serves the database).
-- Users and identity switches come from supabase/tests/helpers.sql.
begin;
select plan(69);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Company', 'partner_a');

-- ---------------------------------------------------------------------------------------------
-- Structure: RLS on, no policy, no privilege for anon or authenticated, functions for service_role.
-- ---------------------------------------------------------------------------------------------
select ok((select relrowsecurity from pg_class where oid = 'public.job_leases'::regclass),
  'RLS is enabled on public.job_leases');
select policies_are('public', 'job_leases', array[]::name[],
  'public.job_leases has no policy (only a BYPASSRLS role reads it)');
select table_privs_are('public', 'job_leases', 'anon', array[]::text[], 'anon has no privilege on job_leases');
select table_privs_are('public', 'job_leases', 'authenticated', array[]::text[],
  'authenticated has no privilege on job_leases');
select table_privs_are('public', 'job_leases', 'service_role', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
  'service_role reads and writes job_leases');

-- Each function: executable by service_role only, and security definer (it runs for the scheduler).
create function pg_temp.service_role_only(fn name, args name[]) returns setof text language plpgsql as $fn$
begin
  return next function_privs_are('public', fn, args, 'anon', array[]::text[],
    format('anon cannot execute public.%s', fn));
  return next function_privs_are('public', fn, args, 'authenticated', array[]::text[],
    format('authenticated cannot execute public.%s', fn));
  return next function_privs_are('public', fn, args, 'service_role', array['EXECUTE'],
    format('service_role can execute public.%s', fn));
  return next is_definer('public', fn, args, format('public.%s is security definer', fn));
end $fn$;
select * from pg_temp.service_role_only('take_job_lease', array['text', 'integer']);
select * from pg_temp.service_role_only('release_job_lease', array['text']);
select * from pg_temp.service_role_only('sync_cron_jobs', array['jsonb']);

-- Whoever is not the system: the table and the three functions are refused with 42501.
create function pg_temp.jobs_are_unreachable(who text) returns setof text language plpgsql as $fn$
begin
  return next throws_ok($$select name from public.job_leases$$, '42501',
    'permission denied for table job_leases', who || ' cannot read the job leases');
  return next throws_ok($$insert into public.job_leases (name) values ('forged')$$, '42501',
    'permission denied for table job_leases', who || ' cannot create a lease');
  return next throws_ok($$update public.job_leases set locked_until = 'infinity'$$, '42501',
    'permission denied for table job_leases', who || ' cannot hold a lease forever');
  return next throws_ok($$delete from public.job_leases$$, '42501',
    'permission denied for table job_leases', who || ' cannot remove a lease');
  return next throws_ok($$select public.take_job_lease('purge-deleted-accounts', 60)$$, '42501',
    'permission denied for function take_job_lease', who || ' cannot take a job lease');
  return next throws_ok($$select public.release_job_lease('purge-deleted-accounts')$$, '42501',
    'permission denied for function release_job_lease', who || ' cannot release a job lease');
  return next throws_ok(
    $$select public.sync_cron_jobs('[{"name":"x","schedule":"* * * * *","command":"select public.x()"}]')$$,
    '42501', 'permission denied for function sync_cron_jobs', who || ' cannot schedule jobs');
end $fn$;

-- ---------------------------------------------------------------------------------------------
-- Anonymous visitor, customer, partner, admin, impersonating admin: nothing.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_anon();
select * from pg_temp.jobs_are_unreachable('anon');

select tests.act_as('customer_a');
select * from pg_temp.jobs_are_unreachable('customer A');

select tests.act_as('partner_a');
select * from pg_temp.jobs_are_unreachable('partner A');

select tests.act_as('admin');
select * from pg_temp.jobs_are_unreachable('the admin');

select tests.act_as_impersonating('admin', 'customer_a');
select * from pg_temp.jobs_are_unreachable('an admin impersonating customer A');

select tests.reset_role();
select is_empty($$select name from public.job_leases$$, 'the refused calls left no lease behind');

-- ---------------------------------------------------------------------------------------------
-- service_role: a lease is taken once, until released or expired.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_service();
select is(public.take_job_lease('purge-deleted-accounts', 60), true, 'service_role takes a free lease');
select is(public.take_job_lease('purge-deleted-accounts', 60), false,
  'a held lease cannot be taken a second time');
select is(public.take_job_lease('send-emails', 30), true, 'another job''s lease is taken independently');
select results_eq(
  $$select name, locked_until = now() + interval '60 seconds', last_started_at = now(), last_finished_at
    from public.job_leases order by name$$,
  $$values ('purge-deleted-accounts', true, true, null::timestamptz),
           ('send-emails', false, true, null::timestamptz)$$,
  'a taken lease is locked for the given seconds and records its start');

select lives_ok($$select public.release_job_lease('purge-deleted-accounts')$$, 'service_role releases a lease');
select results_eq(
  $$select locked_until = '-infinity', last_finished_at = now() from public.job_leases
    where name = 'purge-deleted-accounts'$$,
  $$values (true, true)$$, 'a released lease is unlocked and records its end');
select is(public.take_job_lease('purge-deleted-accounts', 60), true, 'a released lease can be taken again');
select is(public.take_job_lease('purge-deleted-accounts', 60), false, '... and then not a second time');
select is(public.take_job_lease('send-emails', 30), false, 'the other lease is still held');

-- A lease whose holder died expires: simulate the time passing (now() is fixed in a transaction).
select tests.reset_role();
update public.job_leases set locked_until = now() - interval '1 second' where name = 'send-emails';
select tests.act_as_service();
select is(public.take_job_lease('send-emails', 30), true, 'an expired lease can be taken again');
select is(public.take_job_lease('send-emails', 30), false, '... once');

-- ---------------------------------------------------------------------------------------------
-- sync_cron_jobs(): false where pg_cron does not serve the database (the app's scheduler runs the
-- jobs); where it does, only `select schema.function()` commands and plain names are scheduled.
-- The throw-away test database is not pg_cron's database, so the second half is usually skipped.
-- ---------------------------------------------------------------------------------------------
create function pg_temp.sync_cron_jobs_checks() returns setof text language plpgsql as $fn$
declare
  valid jsonb := '[{"name":"purge-deleted-accounts","schedule":"* * * * *",
                    "command":"select public.purge_deleted_accounts()"}]';
  injected jsonb := '[{"name":"evil","schedule":"* * * * *",
                       "command":"select public.purge_deleted_accounts(); drop table public.users"}]';
begin
  if not exists (select from pg_extension where extname = 'pg_cron') then
    return next is(public.sync_cron_jobs(valid), false,
      'without pg_cron, sync_cron_jobs() returns false (the app''s scheduler runs the jobs)');
    return next is(public.sync_cron_jobs(injected), false,
      'without pg_cron, nothing reaches a scheduler: sync_cron_jobs() returns false for any job list');
    return next skip('pg_cron does not serve this database: its refusals cannot be reached', 3);
  else
    return next is(public.sync_cron_jobs(valid), true, 'with pg_cron, sync_cron_jobs() schedules the jobs');
    return next throws_ok(format('select public.sync_cron_jobs(%L)', injected), '22023', null,
      'sync_cron_jobs() refuses a command that is more than one function call');
    return next throws_ok(
      $$select public.sync_cron_jobs('[{"name":"x","schedule":"* * * * *","command":"select public.f(1)"}]')$$,
      '22023', null, 'sync_cron_jobs() refuses a function call with arguments');
    return next throws_ok(
      $$select public.sync_cron_jobs('[{"name":"Bad Name","schedule":"* * * * *","command":"select public.f()"}]')$$,
      '22023', null, 'sync_cron_jobs() refuses a job name that is not lower-case words');
    return next is(public.sync_cron_jobs('[]'), true, 'with pg_cron, an empty list unschedules the app''s jobs');
  end if;
end $fn$;

select tests.act_as_service();
select * from pg_temp.sync_cron_jobs_checks();

select * from finish();
rollback;
