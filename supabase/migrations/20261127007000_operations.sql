-- Operations: the admin logs page and HubSpot kept in step both ways.
--
-- Logs (table public.logs, 20261121000000_platform.sql; policies 20261121000100_accounts.sql: admins
-- read and delete, nobody else): indexes for the page's filters (newest first, by service or type),
-- and purge_old_logs(), which deletes rows older than 30 days — run nightly by the job registry as the
-- system; an admin's 'Nettoyer les anciens' deletes the same rows under the admin's own claims (RLS).
--
-- HubSpot: every change of a deal's synchronised fields (name, status, amount, properties, HubSpot id)
-- queues one job 'crm-sync' keyed by the deal in the outbox, in the transaction that made the change:
-- a trigger, so that no path (a use case, a payment recorded by an SQL function, an admin's PATCH)
-- is forgotten. While a job of the deal is pending, further changes coalesce into it; the worker then
-- pushes the deal's state as it is when the job runs. A change that comes from HubSpot itself (the
-- inbound sync sets `app.crm_origin` to 'hubspot' for its transaction) queues nothing: no echo.
-- public.crm_deal_sync keeps, per deal, the HubSpot property values both sides last agreed on, so that
-- a sync sends only what changed here and takes only what changed there.
-- The older public.crm_outbox (one 'deal_accepted' row per acceptance) is replaced: its pending rows
-- become sync jobs.

create index logs_created_id_idx on public.logs (created_at desc, id desc);
create index logs_service_created_idx on public.logs (service, created_at desc, id desc);
create index logs_type_created_idx on public.logs (type, created_at desc, id desc);

-- The page's counts (stat cards, the services list, a filter's total) without scanning the table: rows
-- per service and type, kept by statement-level triggers (one upsert per service and type a statement
-- touches). Today's count is a range of the created_at index.
create table public.log_counts (
  service text not null,
  type text not null,
  n bigint not null default 0 check (n >= 0),
  primary key (service, type)
);
alter table public.log_counts enable row level security;
create policy "Admins can read the log counts" on public.log_counts
  for select to authenticated using ((select public.is_admin()));
grant select on public.log_counts to authenticated;
grant select on public.log_counts to service_role;

create function public.count_logs() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    insert into public.log_counts as c (service, type, n)
    select r.service, r.type, count(*) from new_rows r group by r.service, r.type
    on conflict (service, type) do update set n = c.n + excluded.n;
  elsif tg_op = 'DELETE' then
    update public.log_counts c set n = greatest(c.n - d.n, 0)
    from (select r.service, r.type, count(*) as n from old_rows r group by r.service, r.type) d
    where c.service = d.service and c.type = d.type;
    delete from public.log_counts c where c.n = 0;
  else
    -- An update that moves a row to another service or type (nobody does; kept exact anyway).
    update public.log_counts c set n = greatest(c.n - d.n, 0)
    from (select r.service, r.type, count(*) as n from old_rows r group by r.service, r.type) d
    where c.service = d.service and c.type = d.type;
    insert into public.log_counts as c (service, type, n)
    select r.service, r.type, count(*) from new_rows r group by r.service, r.type
    on conflict (service, type) do update set n = c.n + excluded.n;
    delete from public.log_counts c where c.n = 0;
  end if;
  return null;
end $$;
revoke execute on function public.count_logs() from public, anon, authenticated;
create trigger logs_count_insert after insert on public.logs
  referencing new table as new_rows for each statement execute function public.count_logs();
create trigger logs_count_delete after delete on public.logs
  referencing old table as old_rows for each statement execute function public.count_logs();
create trigger logs_count_update after update on public.logs
  referencing old table as old_rows new table as new_rows for each statement execute function public.count_logs();
insert into public.log_counts (service, type, n)
select service, type, count(*) from public.logs group by service, type;

create function public.purge_old_logs() returns integer
language sql volatile security definer set search_path = '' as $$
  with gone as (delete from public.logs where created_at < now() - interval '30 days' returning 1)
  select count(*)::integer from gone
$$;
revoke execute on function public.purge_old_logs() from public, anon, authenticated;
grant execute on function public.purge_old_logs() to service_role;

-- Jobs run by pg_cron fail inside the database (cron.job_run_details), where no admin looks: every 5
-- minutes the registry's 'log-cron-failures' copies the failed runs finished since the last pass into
-- the logs (service 'jobs'). Without pg_cron (the app's scheduler runs the jobs and logs their
-- failures itself) it does nothing. The runs already seen are remembered in public.ops_state.
create table public.ops_state (
  key text primary key check (key ~ '^[a-z0-9_]{1,64}$'),
  value bigint not null default 0
);
alter table public.ops_state enable row level security;
grant select, insert, update, delete on public.ops_state to service_role;

create function public.log_cron_failures() returns integer
language plpgsql volatile security definer set search_path = '' as $$
declare
  seen bigint;
  upto bigint;
  logged integer;
begin
  if to_regclass('cron.job_run_details') is null then
    return 0;
  end if;
  insert into public.ops_state (key, value) values ('cron_runs_seen', 0) on conflict (key) do nothing;
  select s.value into seen from public.ops_state s where s.key = 'cron_runs_seen' for update;
  -- Up to the last run before one still going: a run that fails later is not skipped.
  execute $q$
    select coalesce(
      (select min(d.runid) - 1 from cron.job_run_details d where d.runid > $1 and d.status in ('starting', 'running', 'sending', 'connecting')),
      (select max(d.runid) from cron.job_run_details d where d.runid > $1),
      $1)
  $q$ into upto using seen;
  execute $q$
    with ins as (
      insert into public.logs (service, type, message, context)
      select 'jobs', 'error', 'Tâche pg_cron en échec : ' || coalesce(j.jobname, d.jobid::text),
             jsonb_build_object('runid', d.runid, 'job', coalesce(j.jobname, d.jobid::text),
                                'error', left(coalesce(d.return_message, ''), 1000), 'endedAt', d.end_time)
      from cron.job_run_details d left join cron.job j on j.jobid = d.jobid
      where d.runid > $1 and d.runid <= $2 and d.status = 'failed'
      order by d.runid
      returning 1
    )
    select count(*)::integer from ins
  $q$ into logged using seen, upto;
  update public.ops_state s set value = greatest(upto, seen) where s.key = 'cron_runs_seen';
  return logged;
end $$;
revoke execute on function public.log_cron_failures() from public, anon, authenticated;
grant execute on function public.log_cron_failures() to service_role;

-- ---------------------------------------------------------------------------------------------------
-- HubSpot sync state: the values (HubSpot property name → text) both sides last agreed on.
create table public.crm_deal_sync (
  deal_id bigint primary key references public.deals (id) on delete cascade,
  synced jsonb not null default '{}' check (jsonb_typeof(synced) = 'object'),
  synced_at timestamptz not null default now()
);
alter table public.crm_deal_sync enable row level security;
create policy "Admins can read the HubSpot sync state" on public.crm_deal_sync
  for select to authenticated using ((select public.is_admin()));
grant select on public.crm_deal_sync to authenticated;
grant select, insert, update, delete on public.crm_deal_sync to service_role;

-- Queues the deal's sync unless the change came from HubSpot. Security definer: any role that may
-- change a deal (an admin, its partner, its customer choosing cocktails, the system) queues it.
create function public.queue_crm_sync() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if coalesce(current_setting('app.crm_origin', true), '') = 'hubspot' then
    return null;
  end if;
  if tg_op = 'UPDATE' and new.name is not distinct from old.name and new.status is not distinct from old.status
     and new.total_ht is not distinct from old.total_ht and new.properties is not distinct from old.properties
     and new.hubspot_id is not distinct from old.hubspot_id then
    return null;
  end if;
  -- Linked to another HubSpot deal (an admin's edit): what was agreed with the former one no longer
  -- holds; the next sync starts afresh (ours is sent, HubSpot's fills only what ours lacks).
  if tg_op = 'UPDATE' and new.hubspot_id is distinct from old.hubspot_id then
    delete from public.crm_deal_sync where deal_id = new.id;
  end if;
  perform outbox.enqueue('crm-sync', jsonb_build_object('dealId', new.id), 'deal-' || new.id);
  return null;
end $$;
revoke execute on function public.queue_crm_sync() from public, anon, authenticated;

create trigger deals_queue_crm_sync after insert or update on public.deals
  for each row execute function public.queue_crm_sync();

-- The HubSpot webhook (supabase/functions/_shared/hubspot_webhook.ts, as the service role): a deal
-- created or changed in HubSpot queues the sync of our deal of that HubSpot id, or its import.
create index deals_hubspot_id_idx on public.deals (hubspot_id) where hubspot_id is not null;
create function public.queue_crm_pull(hubspot_id text) returns bigint
language plpgsql volatile security definer set search_path = '' as $$
declare
  deal bigint;
begin
  if coalesce(btrim(queue_crm_pull.hubspot_id), '') !~ '^[0-9]{1,30}$' then
    raise exception 'queue_crm_pull: invalid HubSpot id' using errcode = '22023';
  end if;
  select d.id into deal from public.deals d where d.hubspot_id = btrim(queue_crm_pull.hubspot_id) order by d.id limit 1;
  if deal is null then
    return outbox.enqueue('crm-sync', jsonb_build_object('hubspotId', btrim(queue_crm_pull.hubspot_id)),
                          'hubspot-' || btrim(queue_crm_pull.hubspot_id));
  end if;
  return outbox.enqueue('crm-sync', jsonb_build_object('dealId', deal), 'deal-' || deal);
end $$;
revoke execute on function public.queue_crm_pull(text) from public, anon, authenticated;
grant execute on function public.queue_crm_pull(text) to service_role;

-- The former CRM outbox: what it still had to send becomes a sync of the deal.
select outbox.enqueue('crm-sync', jsonb_build_object('dealId', o.deal_id), 'deal-' || o.deal_id)
from (select distinct deal_id from public.crm_outbox where status = 'pending' and deal_id is not null) o;
drop table public.crm_outbox;
