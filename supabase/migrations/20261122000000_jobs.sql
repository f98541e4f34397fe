-- Jobs: the app hands its SQL jobs (lib/jobs/registry.ts) to pg_cron through sync_cron_jobs() when
-- pg_cron serves this database, and takes leases for the jobs it runs itself so that several
-- instances do not run one job twice at once.

-- The extension exists in a database only if pg_cron serves it (it cannot be created elsewhere).
create or replace function public.sync_cron_jobs(jobs jsonb) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  job jsonb;
  stale text;
begin
  if not exists (select from pg_extension where extname = 'pg_cron') then
    return false;
  end if;
  for job in select value from jsonb_array_elements(jobs) loop
    -- Only a call of one of our functions without arguments: nothing else may reach the scheduler.
    if coalesce(job ->> 'command', '') !~ '^select (public|identity)\.[a-z_]+\(\)$' or coalesce(job ->> 'name', '') !~ '^[a-z0-9-]+$' then
      raise exception 'tâche refusée : %', job using errcode = '22023';
    end if;
    perform cron.schedule('app:' || (job ->> 'name'), job ->> 'schedule', job ->> 'command');
  end loop;
  for stale in
    select j.jobname from cron.job j
    where (j.jobname like 'app:%' and not exists (
             select from jsonb_array_elements(jobs) k where 'app:' || (k.value ->> 'name') = j.jobname))
       or j.jobname in ('purge-deleted-accounts', 'purge-expired-identity') -- the first version's names
  loop
    perform cron.unschedule(stale);
  end loop;
  return true;
end $$;
revoke execute on function public.sync_cron_jobs(jsonb) from public;
grant execute on function public.sync_cron_jobs(jsonb) to service_role;

drop function if exists public.housekeeping_scheduled_by_pg_cron();

create table public.job_leases (
  name text primary key,
  locked_until timestamptz not null default '-infinity',
  last_started_at timestamptz,
  last_finished_at timestamptz
);
alter table public.job_leases enable row level security;
grant select, insert, update, delete on public.job_leases to service_role;

create or replace function public.take_job_lease(job_name text, seconds integer) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  taken boolean;
begin
  insert into public.job_leases (name) values (job_name) on conflict (name) do nothing;
  update public.job_leases set locked_until = now() + make_interval(secs => seconds), last_started_at = now()
  where name = job_name and locked_until < now()
  returning true into taken;
  return coalesce(taken, false);
end $$;

create or replace function public.release_job_lease(job_name text) returns void
language sql security definer set search_path = '' as $$
  update public.job_leases set locked_until = '-infinity', last_finished_at = now() where name = job_name;
$$;
revoke execute on function public.take_job_lease(text, integer) from public;
revoke execute on function public.release_job_lease(text) from public;
grant execute on function public.take_job_lease(text, integer) to service_role;
grant execute on function public.release_job_lease(text) to service_role;
