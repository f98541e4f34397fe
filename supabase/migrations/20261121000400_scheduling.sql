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
