-- Platform: the Supabase roles and auth helpers (created only where they do not exist, so the schema
-- stays pushable to a hosted Supabase), the shared `set_updated_at` trigger and the `logs` table.

do $$
begin
  if not exists (select from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end $$;

-- On a hosted Supabase the auth schema and its helpers already exist, owned by the platform: the
-- migration then creates nothing there and grants nothing (Supabase has granted it already).
create schema if not exists auth;
grant usage on schema public to anon, authenticated, service_role;

-- auth.jwt(), auth.uid() and auth.role() read the claims the app sets per request transaction.
do $$
begin
  if not exists (select from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                 where n.nspname = 'auth' and p.proname = 'jwt') then
    execute $f$
      create function auth.jwt() returns jsonb language sql stable as $b$
        select coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb
      $b$ $f$;
  end if;
  if not exists (select from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                 where n.nspname = 'auth' and p.proname = 'uid') then
    execute $f$
      create function auth.uid() returns uuid language sql stable as $b$
        select nullif(auth.jwt() ->> 'sub', '')::uuid
      $b$ $f$;
  end if;
  if not exists (select from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                 where n.nspname = 'auth' and p.proname = 'role') then
    execute $f$
      create function auth.role() returns text language sql stable as $b$
        select nullif(auth.jwt() ->> 'role', '')
      $b$ $f$;
  end if;
end $$;

do $$
begin
  if exists (select from pg_namespace where nspname = 'auth' and nspowner = (select oid from pg_roles where rolname = current_user)) then
    grant usage on schema auth to anon, authenticated, service_role;
    grant execute on all functions in schema auth to anon, authenticated, service_role;
  end if;
end $$;

create or replace function public.set_updated_at() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.updated_at := now();
  return new;
end $$;

-- Logs: every capability writes here through lib/log/logger.ts.
create table public.logs (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default now(),
  service text not null,
  type text not null check (type in ('error', 'warning', 'info')),
  message text not null,
  context jsonb not null default '{}'::jsonb
);
create index logs_created_at_idx on public.logs (created_at desc);
create index logs_service_type_idx on public.logs (service, type);
alter table public.logs enable row level security;
grant select, insert, update, delete on public.logs to service_role;
grant usage on all sequences in schema public to service_role;
