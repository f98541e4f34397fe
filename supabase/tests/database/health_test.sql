-- Readiness (supabase/migrations/20261128001000_health.sql): public.migration_applied tells whether a
-- migration is recorded, to the service role only.
begin;
select plan(6);

select ok(public.migration_applied('20261128001000'), 'this migration is recorded');
select ok(not public.migration_applied('29991231000000'), 'a version never applied is not');
select ok(not public.migration_applied(null), 'null is not applied');

select ok(has_function_privilege('service_role', 'public.migration_applied(text)', 'execute'),
  'service_role may ask');
select ok(not has_function_privilege('anon', 'public.migration_applied(text)', 'execute'), 'anon may not');
select ok(not has_function_privilege('authenticated', 'public.migration_applied(text)', 'execute'),
  'authenticated may not');

select * from finish();
rollback;
