-- Mail: the outbox every email goes through. Rows are written in the same transaction as the action
-- that causes them; a worker (the email capability) delivers them. Admins can read it, except the
-- password-reset emails: their live links would let an admin take over an account.

create table public.email_outbox (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  recipient text not null,
  template text not null,
  subject text not null,
  text_body text not null,
  html_body text,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  sent_at timestamptz,
  last_error text
);
create index email_outbox_pending_idx on public.email_outbox (next_attempt_at) where status = 'pending';
create index email_outbox_created_idx on public.email_outbox (created_at desc);

alter table public.email_outbox enable row level security;
create policy "Admins can read the email outbox" on public.email_outbox
  for select to authenticated using ((select public.is_admin()) and template <> 'password-reset');
grant select on public.email_outbox to authenticated;
grant select, insert, update, delete on public.email_outbox to service_role;
