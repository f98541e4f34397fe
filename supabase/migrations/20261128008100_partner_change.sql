-- A change of partner (issue "Invoices…" §3): both partners hear of it. The use case
-- (lib/deals/use_cases/update_deal.ts) sends a quote the customer already received back to 'new' for
-- the new partner; this trigger queues the emails, whichever path changed the partner:
--   'partner_removed' to the previous partner (its id in data, as the deal names the new one now),
--   'new_deal_partner' to the new one,
-- when the deal had been sent to a partner and is still alive (not 'start', not refused, not won).

alter table public.deal_notifications drop constraint if exists deal_notifications_kind_check;
alter table public.deal_notifications add constraint deal_notifications_kind_check check (kind in (
  'new_deal_partner', 'quote_ready', 'quote_updated',
  'availability_validated', 'payment_received', 'refused',
  'deal-reminder-manual-partner', 'deal-reminder-manual-customer', 'deal-invoice-customer',
  'partner_removed'));

create or replace function public.deal_emails_on_partner() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.company_id is distinct from old.company_id
     and old.status in ('new', 'pending', 'send', 'edited', 'accepted')
     and coalesce((select auth.jwt()) ->> 'reason', '') <> 'seed' then
    if old.company_id is not null then
      insert into public.deal_notifications (deal_id, kind, data)
      values (new.id, 'partner_removed', jsonb_build_object('companyId', old.company_id));
    end if;
    if new.company_id is not null then
      insert into public.deal_notifications (deal_id, kind) values (new.id, 'new_deal_partner');
    end if;
  end if;
  return new;
end $$;
revoke execute on function public.deal_emails_on_partner() from public, anon, authenticated;

create trigger deals_emails_on_partner after update of company_id on public.deals
  for each row execute function public.deal_emails_on_partner();
