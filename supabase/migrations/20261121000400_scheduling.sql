-- Scheduling: where pg_cron is available in this database, it runs the housekeeping functions every
-- minute. Elsewhere (PGlite, a database other than cron.database_name) the app's ticker calls the
-- same functions; lib/scheduling/ticker.ts checks for these jobs before starting.

do $$
begin
  if exists (select from pg_available_extensions where name = 'pg_cron')
     and current_setting('cron.database_name', true) = current_database() then
    create extension if not exists pg_cron;
    perform cron.schedule('purge-deleted-accounts', '* * * * *', 'select public.purge_deleted_accounts()');
    perform cron.schedule('purge-expired-identity', '* * * * *', 'select identity.purge_expired()');
  end if;
end $$;

-- Whether pg_cron runs the housekeeping here; the API roles cannot read the cron schema, so the app
-- asks through this function before deciding to start its own ticker.
create or replace function public.housekeeping_scheduled_by_pg_cron() returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  if not exists (select from pg_extension where extname = 'pg_cron') then
    return false;
  end if;
  return exists (select from cron.job where jobname = 'purge-deleted-accounts');
end $$;
revoke execute on function public.housekeeping_scheduled_by_pg_cron() from public;
grant execute on function public.housekeeping_scheduled_by_pg_cron() to service_role;
