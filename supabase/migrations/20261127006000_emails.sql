-- Emails: every automatic email is queued in the transaction of the action that causes it, and the
-- reminder policy's scheduled emails (spec 001 §3 'Scheduled email', §2.14).
--
-- 1. deal_notifications takes more kinds: the worker (lib/deals/notifications.ts, as the system) turns
--    each into emails, reading recipients a partner may not read itself. The triggers below queue the
--    ones that follow a deal's status or its payments, whichever use case or SQL function changed them
--    (the status dialog, refusals, card and manual payments); admins queue the manual templates.
-- 2. scheduled_emails: a row per reminder, written by the same triggers when the waiting starts, deleted
--    when the wait ends (the partner validated, the deposit was paid, the deal was refused). pg_cron
--    (or the app's ticker, lib/jobs/registry.ts) marks due rows ready with mark_scheduled_emails_ready();
--    the worker sends ready rows through the email outbox and marks them sent in the same transaction.

alter table public.deal_notifications drop constraint if exists deal_notifications_kind_check;
alter table public.deal_notifications add constraint deal_notifications_kind_check check (kind in (
  'new_deal_partner', 'quote_ready', 'quote_updated',
  'availability_validated', 'payment_received', 'refused',
  'deal-reminder-manual-partner', 'deal-reminder-manual-customer', 'deal-invoice-customer'));
-- What a notification refers to besides its deal (the payment of a 'payment_received').
alter table public.deal_notifications add column if not exists data jsonb not null default '{}'
  check (jsonb_typeof(data) = 'object');

-- Admins queue the manual templates (POST /api/deal/send-mail/{id}); partners keep queueing only the
-- kinds of their own actions. The earlier policy allowed any kind to both.
drop policy "Admins and the deal's partner can queue its notifications" on public.deal_notifications;
create policy "Admins and the deal's partner can queue its notifications" on public.deal_notifications
  for insert to authenticated
  with check (status = 'pending' and attempts = 0 and (
    (select public.is_admin())
    or ((select public.is_deal_partner(deal_id)) and kind in ('new_deal_partner', 'quote_ready', 'quote_updated'))));

create table public.scheduled_emails (
  id bigint generated always as identity primary key,
  template text not null check (template in (
    'deal-reminder-manual-partner', 'deal-reminder-manual-customer', 'deal-invoice-customer')),
  entity_id bigint not null references public.deals (id) on delete cascade,
  -- data.hubspotId (spec 001 §3): the deal's CRM id when the row was written.
  data jsonb not null default '{}' check (jsonb_typeof(data) = 'object'),
  schedule_at timestamptz not null,
  created_at timestamptz not null default now(),
  is_ready boolean not null default false,
  is_sent boolean not null default false,
  sent_at timestamptz,
  email_id uuid,
  check (is_sent = (sent_at is not null))
);
-- One waiting reminder of a kind per deal: a new wait replaces the old one.
create unique index scheduled_emails_waiting_key on public.scheduled_emails (entity_id, template) where not is_sent;
create index scheduled_emails_due_idx on public.scheduled_emails (schedule_at) where not is_sent;
create index scheduled_emails_sent_idx on public.scheduled_emails (sent_at) where is_sent;

alter table public.scheduled_emails enable row level security;
create policy "Admins can read scheduled emails" on public.scheduled_emails
  for select to authenticated using ((select public.is_admin()));
create policy "Admins can delete sent scheduled emails" on public.scheduled_emails
  for delete to authenticated using ((select public.is_admin()) and is_sent);
grant select, delete on public.scheduled_emails to authenticated;
grant select, insert, update, delete on public.scheduled_emails to service_role;

-- Writes (or moves) the waiting reminder `template` of a deal.
create or replace function public.schedule_deal_email(p_deal_id bigint, p_template text, p_at timestamptz)
returns void
language sql security definer set search_path = '' as $$
  insert into public.scheduled_emails (template, entity_id, data, schedule_at)
  select p_template, d.id, jsonb_build_object('hubspotId', d.hubspot_id), p_at
  from public.deals d where d.id = p_deal_id
  on conflict (entity_id, template) where not is_sent
  do update set schedule_at = excluded.schedule_at, data = excluded.data, is_ready = false;
$$;
revoke execute on function public.schedule_deal_email(bigint, text, timestamptz) from public;
grant execute on function public.schedule_deal_email(bigint, text, timestamptz) to service_role;

/** Whether a scheduled email still makes sense now (checked again by the sender). */
create or replace function public.scheduled_email_relevant(p_template text, p_deal_id bigint) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select case p_template
      when 'deal-reminder-manual-partner' then d.status in ('new', 'pending') and d.company_id is not null
      when 'deal-reminder-manual-customer' then d.status in ('send', 'edited', 'accepted')
        and d.deposit_paid_at is null and d.paid_at is null
      when 'deal-invoice-customer' then d.status in ('pay_partial', 'pay_total', 'win')
      else false
    end
    from public.deals d where d.id = p_deal_id), false)
$$;
revoke execute on function public.scheduled_email_relevant(text, bigint) from public;
grant execute on function public.scheduled_email_relevant(text, bigint) to service_role;

-- The day after the event, 09:00 Paris time (at once if that is already past).
create or replace function public.invoice_email_time(p_service_date date) returns timestamptz
language sql stable set search_path = '' as $$
  select greatest(((p_service_date + 1)::timestamp + interval '9 hours') at time zone 'Europe/Paris', now())
$$;
grant execute on function public.invoice_email_time(date) to service_role, authenticated;

-- The reminder policy and the status emails, on every status change of a deal (and a new event date).
create or replace function public.deal_emails_on_status() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  -- Demo data (lib/seed/, the system with reason 'seed') writes history: it emails nobody about it.
  seeding boolean := coalesce((select auth.jwt()) ->> 'reason', '') = 'seed';
begin
  if new.status is distinct from old.status and not seeding then
    -- Emails that follow the change.
    if old.status in ('new', 'pending') and new.status in ('send', 'edited') then
      insert into public.deal_notifications (deal_id, kind, data)
      values (new.id, 'availability_validated', jsonb_build_object('revalidated', new.status = 'edited'));
    end if;
    if new.status in ('refused_client', 'refused_partner', 'refused')
       and old.status not in ('refused_client', 'refused_partner', 'refused') then
      insert into public.deal_notifications (deal_id, kind, data)
      values (new.id, 'refused', jsonb_build_object('status', new.status, 'reason', new.refusal_reason, 'from', old.status));
    end if;
  end if;
  if new.status is distinct from old.status then
    -- The partner has 48 hours to validate a deal sent to it (or to revalidate an edited quote).
    if new.status = 'new' or (new.status = 'pending' and not exists (
         select from public.scheduled_emails s
         where s.entity_id = new.id and s.template = 'deal-reminder-manual-partner' and not s.is_sent)) then
      perform public.schedule_deal_email(new.id, 'deal-reminder-manual-partner', now() + interval '48 hours');
    elsif new.status <> 'pending' then
      delete from public.scheduled_emails
      where entity_id = new.id and template = 'deal-reminder-manual-partner' and not is_sent;
    end if;
    -- The customer has 3 days to pay the deposit of a quote sent (or sent again).
    if new.status in ('send', 'edited') and new.deposit_paid_at is null and new.paid_at is null then
      perform public.schedule_deal_email(new.id, 'deal-reminder-manual-customer', now() + interval '3 days');
    elsif new.status <> 'accepted' or new.deposit_paid_at is not null or new.paid_at is not null then
      delete from public.scheduled_emails
      where entity_id = new.id and template = 'deal-reminder-manual-customer' and not is_sent;
    end if;
  end if;
  -- The invoice email, the day after the event, once something is paid.
  if new.status in ('pay_partial', 'pay_total', 'win') and new.service_date is not null then
    if new.status is distinct from old.status
       or new.service_date is distinct from old.service_date then
      perform public.schedule_deal_email(new.id, 'deal-invoice-customer', public.invoice_email_time(new.service_date));
    end if;
  elsif new.status is distinct from old.status or new.service_date is distinct from old.service_date then
    delete from public.scheduled_emails
    where entity_id = new.id and template = 'deal-invoice-customer' and not is_sent;
  end if;
  return new;
end $$;
create trigger deals_emails_on_status after update of status, service_date on public.deals
  for each row execute function public.deal_emails_on_status();

-- A payment counted by the deal: the customer's receipt and the partner's notice.
create or replace function public.deal_emails_on_payment() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if not new.overpayment and coalesce((select auth.jwt()) ->> 'reason', '') <> 'seed' then
    insert into public.deal_notifications (deal_id, kind, data)
    values (new.deal_id, 'payment_received', jsonb_build_object('paymentId', new.id));
  end if;
  return new;
end $$;
-- Only a deal's payments: a workshop order's payment (order_id, no deal) has its own confirmation email.
create trigger deal_payments_emails after insert on public.deal_payments
  for each row when (new.deal_id is not null) execute function public.deal_emails_on_payment();

/** The registry's job (pg_cron, or the app's ticker): marks due scheduled emails ready. */
create or replace function public.mark_scheduled_emails_ready() returns integer
language sql security definer set search_path = '' as $$
  with due as (
    update public.scheduled_emails set is_ready = true
    where not is_sent and not is_ready and schedule_at <= now()
    returning 1)
  select count(*)::integer from due
$$;
revoke execute on function public.mark_scheduled_emails_ready() from public;
grant execute on function public.mark_scheduled_emails_ready() to service_role;

/** Sent scheduled emails older than 30 days (spec 001 §9), nightly; admins run it from the page too. */
create or replace function public.purge_scheduled_emails() returns integer
language sql security definer set search_path = '' as $$
  with gone as (
    delete from public.scheduled_emails where is_sent and sent_at < now() - interval '30 days'
    returning 1)
  select count(*)::integer from gone
$$;
revoke execute on function public.purge_scheduled_emails() from public;
grant execute on function public.purge_scheduled_emails() to service_role;

-- SMTP delivery (lib/mail/delivery.ts): each claim of an email gets a fresh token; only the worker
-- holding it settles the email, so a worker whose lease lapsed cannot mark sent or failed an email
-- another worker has claimed since.
alter table public.email_outbox add column if not exists claim_token uuid;
