-- Accounts: users (customers, partner companies, admins), and the `identity` schema that only the
-- app's auth service (role service_role) reaches: password hashes, sessions, login attempts and
-- password-reset tokens. Policies for `logs` live here too because they need `is_admin()`.

create table public.users (
  id uuid primary key default gen_random_uuid(),
  type text not null check (type in ('Admin', 'Company', 'Customer')),
  email text not null check (email = lower(email) and email like '%_@_%._%'),
  firstname text not null default '',
  lastname text not null default '',
  name text,
  siren text check (siren is null or siren ~ '^[0-9]{9}$'),
  vat_number text check (vat_number is null or vat_number ~ '^[A-Z]{2}[A-Z0-9]{2,12}$'),
  vat_exemption boolean not null default false,
  address1 text,
  address2 text,
  zipcode text,
  city text,
  phone text,
  birthdate date,
  emails text[] not null default '{}' check (cardinality(emails) <= 5),
  optin boolean not null default false,
  terms_accepted_at timestamptz,
  deleted_at timestamptz,
  anonymized_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_email_key on public.users (email);
create unique index users_phone_key on public.users (phone) where phone is not null and anonymized_at is null;
create index users_type_idx on public.users (type);
create trigger users_set_updated_at before update on public.users
  for each row execute function public.set_updated_at();

-- A deletion request is always dated now: a user (or a stolen session) cannot back-date it to skip
-- the 14-day grace period.
create or replace function public.guard_deleted_at() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new.deleted_at is distinct from old.deleted_at and new.deleted_at is not null
     and current_user in ('anon', 'authenticated') then
    new.deleted_at := now();
  end if;
  return new;
end $$;
create trigger users_guard_deleted_at before update of deleted_at on public.users
  for each row execute function public.guard_deleted_at();

-- Role helpers, security definer so that policies can read users without recursing into its RLS.
create or replace function public.current_user_type() returns text
language sql stable security definer set search_path = '' as $$
  select u.type from public.users u
  where u.id = (select auth.uid()) and u.anonymized_at is null
$$;

create or replace function public.is_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(public.current_user_type() = 'Admin', false)
$$;

revoke execute on function public.current_user_type() from public;
revoke execute on function public.is_admin() from public;
grant execute on function public.current_user_type() to anon, authenticated, service_role;
grant execute on function public.is_admin() to anon, authenticated, service_role;

alter table public.users enable row level security;

create policy "Users can read their own account" on public.users
  for select to authenticated using (id = (select auth.uid()));
create policy "Admins can read every account" on public.users
  for select to authenticated using ((select public.is_admin()));
create policy "Users can update their own account" on public.users
  for update to authenticated
  using (id = (select auth.uid())) with check (id = (select auth.uid()));
create policy "Admins can update every account" on public.users
  for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));

-- Users change their own details, never their type, email or consent records.
grant select on public.users to authenticated;
grant update (firstname, lastname, name, siren, vat_number, vat_exemption, address1, address2, zipcode,
  city, phone, birthdate, emails, optin, deleted_at) on public.users to authenticated;
grant select, insert, update, delete on public.users to service_role;

create policy "Admins can read logs" on public.logs
  for select to authenticated using ((select public.is_admin()));
create policy "Admins can delete logs" on public.logs
  for delete to authenticated using ((select public.is_admin()));
grant select, delete on public.logs to authenticated;

-- The identity schema: no table is granted to anon or authenticated; the only function they may call
-- is identity.change_own_password (below). Functions are not executable by default here.
create schema if not exists identity;
revoke all on schema identity from public;
grant usage on schema identity to service_role;
alter default privileges in schema identity revoke execute on functions from public;

create table identity.credentials (
  user_id uuid primary key references public.users (id) on delete cascade,
  password_hash text not null,
  updated_at timestamptz not null default now()
);

create table identity.sessions (
  -- SHA-256 of the cookie value: a leaked table does not give usable session ids.
  id_hash text primary key,
  user_id uuid not null references public.users (id) on delete cascade,
  impersonator_id uuid references public.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null,
  user_agent text
);
create index sessions_user_id_idx on identity.sessions (user_id);

create table identity.login_attempts (
  id bigint generated always as identity primary key,
  email text not null,
  attempted_at timestamptz not null default now(),
  succeeded boolean not null
);
create index login_attempts_email_idx on identity.login_attempts (email, attempted_at desc);

create table identity.password_reset_tokens (
  token_hash text primary key,
  user_id uuid not null references public.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index password_reset_tokens_user_idx on identity.password_reset_tokens (user_id);

alter table identity.credentials enable row level security;
alter table identity.sessions enable row level security;
alter table identity.login_attempts enable row level security;
alter table identity.password_reset_tokens enable row level security;
grant select, insert, update, delete on all tables in schema identity to service_role;
grant usage on all sequences in schema identity to service_role;

-- Housekeeping, run every minute by pg_cron or by the app's ticker where pg_cron is absent.
-- Accounts whose deletion was requested more than 14 days ago are anonymised (records such as
-- invoices must outlive the account), and their credentials and sessions removed.
create or replace function public.purge_deleted_accounts() returns integer
language plpgsql security definer set search_path = '' as $$
declare
  purged integer;
begin
  with gone as (
    update public.users set
      email = 'supprime+' || id || '@invalid.invalid', firstname = 'Compte', lastname = 'supprimé',
      name = null, siren = null, vat_number = null, address1 = null, address2 = null, zipcode = null,
      city = null, phone = null, birthdate = null, emails = '{}', optin = false, anonymized_at = now()
    where deleted_at < now() - interval '14 days' and anonymized_at is null
    returning id
  ), creds as (
    delete from identity.credentials c using gone where c.user_id = gone.id
  ), sess as (
    delete from identity.sessions s using gone where s.user_id = gone.id
  ), tokens as (
    delete from identity.password_reset_tokens t using gone where t.user_id = gone.id
  )
  select count(*) into purged from gone;
  if purged > 0 then
    insert into public.logs (service, type, message, context)
    values ('accounts', 'info', 'Comptes supprimés après le délai de 14 jours', jsonb_build_object('count', purged));
  end if;
  return purged;
end $$;

create or replace function identity.purge_expired() returns void
language sql security definer set search_path = '' as $$
  delete from identity.sessions where expires_at < now();
  delete from identity.login_attempts where attempted_at < now() - interval '1 day';
  delete from identity.password_reset_tokens where expires_at < now() - interval '1 day';
$$;

revoke execute on function public.purge_deleted_accounts() from public;
revoke execute on function identity.purge_expired() from public;
grant execute on function public.purge_deleted_accounts() to service_role;
grant execute on function identity.purge_expired() to service_role;

-- A signed-in user changes their own password (profile), in the same transaction as the rest of
-- the profile. Not while an admin impersonates them: an admin must not learn a user's password.
create or replace function identity.change_own_password(new_hash text, keep_session text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if (select auth.uid()) is null then
    raise exception 'not authenticated' using errcode = '42501';
  end if;
  if (select auth.jwt()) ? 'act' then
    raise exception 'password change refused while impersonating' using errcode = '42501';
  end if;
  update identity.credentials set password_hash = new_hash, updated_at = now()
  where user_id = (select auth.uid());
  delete from identity.sessions where user_id = (select auth.uid()) and id_hash is distinct from keep_session;
end $$;
revoke execute on function identity.change_own_password(text, text) from public;
grant usage on schema identity to authenticated;
grant execute on function identity.change_own_password(text, text) to authenticated;
