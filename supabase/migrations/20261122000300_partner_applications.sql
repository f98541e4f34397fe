-- Partner applications ('Devenir partenaire'): anyone may apply (a fresh, undecided application, with
-- the columns of the form only); admins read them and decide. Accepting one creates the partner's
-- account through the auth server (service role), with an invitation email whose link sets the
-- password: like password-reset emails, admins cannot read it in the outbox.

create table public.partner_applications (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  company_name text not null check (length(company_name) between 1 and 255),
  siren text not null check (siren ~ '^[0-9]{9}$'),
  firstname text not null check (length(firstname) between 1 and 255),
  lastname text not null check (length(lastname) between 1 and 255),
  email text not null check (email = lower(email) and email like '%_@_%._%' and length(email) <= 254),
  phone text not null check (phone ~ '^\+[1-9][0-9]{7,14}$'),
  city text not null check (length(city) between 1 and 255),
  message text not null default '' check (length(message) <= 2000),
  status text not null default 'pending' check (status in ('pending', 'accepted', 'rejected')),
  decided_at timestamptz,
  decided_by uuid references public.users (id) on delete set null,
  user_id uuid references public.users (id) on delete set null,
  check ((status = 'pending') = (decided_at is null))
);
create index partner_applications_status_idx on public.partner_applications (status, created_at desc);

alter table public.partner_applications enable row level security;

create policy "Anyone can apply to become a partner" on public.partner_applications
  for insert to anon, authenticated
  with check (status = 'pending' and decided_at is null and decided_by is null and user_id is null);
create policy "Admins can read partner applications" on public.partner_applications
  for select to authenticated using ((select public.is_admin()));
create policy "Admins can decide partner applications" on public.partner_applications
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));

grant insert (company_name, siren, firstname, lastname, email, phone, city, message)
  on public.partner_applications to anon, authenticated;
grant select, update (status, decided_at, decided_by, user_id) on public.partner_applications to authenticated;
grant select, insert, update, delete on public.partner_applications to service_role;

-- Emails whose link opens an account stay hidden from admins.
drop policy "Admins can read the email outbox" on public.email_outbox;
create policy "Admins can read the email outbox" on public.email_outbox
  for select to authenticated
  using ((select public.is_admin()) and template not in ('password-reset', 'partner-invitation'));
