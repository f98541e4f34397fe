-- Growth: costs that stay flat as the data grows (issue "Production, part 2" §6).
--
-- 1. The admin deals list's search (deal_contacts.search_text, kept by lib/deals/store.ts
--    refreshSearchText: deal number, name, contact, partner, HubSpot id, lower-case without accents) is
--    a `like '%word%'` per word: a trigram GIN index (pg_trgm) answers it without reading every deal.
--    pg_trgm lives in schema `extensions` where that schema exists (hosted Supabase), else in `public`;
--    the index names its operator class by the extension's schema, whatever the search_path. Where
--    pg_trgm is not available at all (an embedded database built without it), the index is skipped and
--    the search still works, by a scan.
-- 2. The admin list's sort keys are indexed with the list's tie-breaker (id), in the order the list
--    reads them ('nulls last' in both directions for the service date), so that a page reads its 25
--    rows from an index instead of sorting every deal.
-- 3. HubSpot sync switch: public.integration_switches says whether the CRM sync is on; the app writes
--    it at start from its configuration (HUBSPOT_TOKEN), through set_crm_sync(). While it is off, a
--    change of a deal queues no 'crm-sync' job, and turning it off purges the pending ones (they would
--    otherwise wait forever: one per deal). No row means on (the behaviour before this migration).
-- 4. The admin list's search and count as two security-definer functions (the trigram index cannot serve
--    a `like` under RLS), and the chat's read policy split so that each deal set reads its own index.

do $$
begin
  if not exists (select from pg_available_extensions where name = 'pg_trgm') then
    raise notice 'pg_trgm is not available: the deals search runs without its trigram index';
    return;
  end if;
  if exists (select from pg_namespace where nspname = 'extensions') then
    create extension if not exists pg_trgm with schema extensions;
  else
    create extension if not exists pg_trgm;
  end if;
  execute format(
    'create index if not exists deal_contacts_search_trgm_idx on public.deal_contacts using gin (search_text %I.gin_trgm_ops)',
    (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'));
end $$;

-- The list's sorts (created_at already has deals_created_at_idx (created_at desc, id desc)).
create index deals_total_ht_id_idx on public.deals (total_ht, id);
create index deals_service_date_asc_idx on public.deals (service_date asc nulls last, id asc);
create index deals_service_date_desc_idx on public.deals (service_date desc nulls last, id desc);
-- 'Mes devis' of a partner and of a customer: the page and its count from the owner's index alone
-- (index-only: the columns the deals policies read are included), not one heap row per deal.
create index deals_company_list_idx on public.deals (company_id, created_at desc, id desc)
  include (status, customer_id);
create index deals_customer_list_idx on public.deals (customer_id, created_at desc, id desc)
  include (company_id, status);

-- ---------------------------------------------------------------------------------------------------
-- The HubSpot sync switch.

create table public.integration_switches (
  name text primary key check (name in ('crm_sync')),
  enabled boolean not null,
  updated_at timestamptz not null default now()
);
alter table public.integration_switches enable row level security;
create policy "Admins can read the integration switches" on public.integration_switches
  for select to authenticated using ((select public.is_admin()));
grant select on public.integration_switches to authenticated;
grant select, insert, update, delete on public.integration_switches to service_role;

-- Whether a deal's change queues its HubSpot sync (no row: on).
create function public.crm_sync_enabled() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((select s.enabled from public.integration_switches s where s.name = 'crm_sync'), true)
$$;
revoke execute on function public.crm_sync_enabled() from public, anon, authenticated;
grant execute on function public.crm_sync_enabled() to service_role;

-- The app's start (lib/crm/switch.ts): records whether the sync is on; off purges the pending sync jobs
-- (a running one finishes). Answers the number of jobs purged.
create function public.set_crm_sync(enabled boolean) returns integer
language plpgsql volatile security definer set search_path = '' as $$
declare
  purged integer := 0;
begin
  if set_crm_sync.enabled is null then
    raise exception 'set_crm_sync: enabled is required' using errcode = '22023';
  end if;
  insert into public.integration_switches (name, enabled) values ('crm_sync', set_crm_sync.enabled)
  on conflict (name) do update set enabled = excluded.enabled, updated_at = now()
    where public.integration_switches.enabled is distinct from excluded.enabled;
  if not set_crm_sync.enabled then
    with gone as (delete from outbox.jobs where queue = 'crm-sync' and state = 'pending' returning 1)
    select count(*)::integer into purged from gone;
  end if;
  return purged;
end $$;
revoke execute on function public.set_crm_sync(boolean) from public, anon, authenticated;
grant execute on function public.set_crm_sync(boolean) to service_role;

-- The deals trigger of 20261127007000_operations.sql, which now asks the switch before queueing.
create or replace function public.queue_crm_sync() returns trigger
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
  if not public.crm_sync_enabled() then
    return null;
  end if;
  perform outbox.enqueue('crm-sync', jsonb_build_object('dealId', new.id), 'deal-' || new.id);
  return null;
end $$;
revoke execute on function public.queue_crm_sync() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- The admin deals list's search and count (lib/deals/store.ts listAllDeals).
--
-- Under row-level security a `like` (not leakproof) is never an index condition: the trigram index
-- would serve no one but the table's owner. These two functions run as their owner after checking that
-- the caller is an admin, and answer only deal ids and a count; the rows themselves are then read under
-- the admin's own claims (RLS). The count without a search reads the created_at index only (no policy
-- to evaluate on each of 100 000 rows).

-- The ids of the deals whose search text contains every pattern (`like`, '%…%' given by the caller) and,
-- for each of `numbers` (digits), whose id or HubSpot id is that number.
create function public.admin_deal_search(patterns text[], numbers text[]) returns table (id bigint)
language plpgsql stable security definer set search_path = '' rows 100 as $$
declare
  conditions text[] := '{}';
begin
  if not public.is_admin() then
    raise exception 'admin_deal_search: admins only' using errcode = '42501';
  end if;
  if coalesce(cardinality(admin_deal_search.patterns), 0) > 8 or coalesce(cardinality(admin_deal_search.numbers), 0) > 8
     or exists (select from unnest(admin_deal_search.numbers) n where n !~ '^[0-9]{1,18}$') then
    raise exception 'admin_deal_search: invalid search' using errcode = '22023';
  end if;
  for i in 1 .. coalesce(cardinality(admin_deal_search.patterns), 0) loop
    conditions := conditions || format('c.search_text like $1[%s]', i);
  end loop;
  for i in 1 .. coalesce(cardinality(admin_deal_search.numbers), 0) loop
    conditions := conditions || format('(d.id = $2[%s]::bigint or d.hubspot_id = $2[%s])', i, i);
  end loop;
  if cardinality(conditions) = 0 then
    return;
  end if;
  return query execute format(
    'select d.id from public.deals d join public.deal_contacts c on c.deal_id = d.id where %s',
    array_to_string(conditions, ' and ')) using admin_deal_search.patterns, admin_deal_search.numbers;
end $$;
revoke execute on function public.admin_deal_search(text[], text[]) from public, anon;
grant execute on function public.admin_deal_search(text[], text[]) to authenticated, service_role;

-- How many deals the admin list shows for a search (as admin_deal_search) and creation dates (from and
-- to included, null: open).
create function public.admin_deal_count(patterns text[], numbers text[], created_from date, created_to date)
returns integer
language plpgsql stable security definer set search_path = '' as $$
begin
  if not public.is_admin() then
    raise exception 'admin_deal_count: admins only' using errcode = '42501';
  end if;
  if coalesce(cardinality(admin_deal_count.patterns), 0) + coalesce(cardinality(admin_deal_count.numbers), 0) = 0 then
    return (select count(*) from public.deals d
            where (admin_deal_count.created_from is null or d.created_at >= admin_deal_count.created_from)
              and (admin_deal_count.created_to is null or d.created_at < admin_deal_count.created_to + 1));
  end if;
  return (select count(*) from public.admin_deal_search(admin_deal_count.patterns, admin_deal_count.numbers) s
          join public.deals d on d.id = s.id
          where (admin_deal_count.created_from is null or d.created_at >= admin_deal_count.created_from)
            and (admin_deal_count.created_to is null or d.created_at < admin_deal_count.created_to + 1));
end $$;
revoke execute on function public.admin_deal_count(text[], text[], date, date) from public, anon;
grant execute on function public.admin_deal_count(text[], text[], date, date) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------
-- The chat's read policy of 20261127005000_chat.sql, the same two deal sets as two subqueries: each
-- reads its own index (deals_customer_idx, deals_company_idx). The single subquery with an OR read every
-- deal (164 ms at 100 000 deals for each chat read).
alter policy "Chat readers can read a deal's chat" on public.chat_messages
  using ((select public.is_admin())
    or deal_id in (select d.id from public.deals d where d.customer_id = (select auth.uid()))
    or deal_id in (
      select d.id from public.deals d
      where d.company_id = (select auth.uid())
        and (coalesce((d.admin_settings ->> 'showChatForPartner')::boolean, false)
             or coalesce((d.admin_settings ->> 'showChatToPartner')::boolean, false))));
