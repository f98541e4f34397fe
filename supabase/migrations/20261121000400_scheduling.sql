-- Scheduling: pg_cron, where this database can have it. pg_cron can only be created in the database it
-- serves (cron.database_name), by a role allowed to; elsewhere (PGlite, another database, a hosted
-- database without the right) the attempt fails quietly and the app's scheduler runs the jobs.
-- (The first version read cron.database_name here, which a hosted database's owner may not do.)
-- Which jobs run and when is decided by lib/jobs/registry.ts: see 20261122000000_jobs.sql.

do $$
begin
  if exists (select from pg_available_extensions where name = 'pg_cron') then
    begin
      create extension if not exists pg_cron;
    exception when others then
      raise notice 'pg_cron not available in this database: %', sqlerrm;
    end;
  end if;
end $$;
