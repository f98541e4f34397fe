-- What partners and customers must not reach (issue "Quotes and payments, second pass" §3).
--   * The quote engine's settings (commission tiers, rates, texts) are the admins'. A partner reads
--     only what pricing its own quotes needs — the base grid its grid starts from and the commission
--     tiers its totals are computed with (lib/deals/use_cases/quote_lines.ts, in the partner's own
--     transaction); the API serves it the grid only. Customers and visitors read none: what their
--     pages and documents show of the settings is read by the system.
--   * The admin's edit lock (adminSettings.disableQuoteEdits) also covers the deal's settings — the
--     deposit (hasDeposit, depositPercentage) and the cocktail list — and emptying the customer's
--     chosen cocktails ('Demander un nouveau choix'): a partner changes neither on a locked deal.

drop policy "Anyone can read the quote settings" on public.settings;
revoke select on public.settings from anon;
create policy "Admins can read the quote settings" on public.settings for select to authenticated
  using ((select public.is_admin()));
create policy "Partners can read what pricing their quotes needs" on public.settings for select to authenticated
  using (key in ('deviseur_pricing', 'deviseur_fixed_commission_tiers')
         and (select public.current_user_type()) = 'Company');

-- The guard trigger of 20261123000000_deals.sql, with the lock extended to settings and choices.
create or replace function public.guard_deal_update() returns trigger
language plpgsql set search_path = '' as $$
declare
  locked boolean := coalesce((old.admin_settings ->> 'disableQuoteEdits')::boolean, false);
  caller text := public.current_user_type();
begin
  if current_user not in ('anon', 'authenticated') or caller = 'Admin' then
    return new;
  end if;
  -- Columns only admins (or the system, for payments) change.
  if new.company_id is distinct from old.company_id or new.customer_id is distinct from old.customer_id
     or new.admin_settings is distinct from old.admin_settings or new.admin_description is distinct from old.admin_description
     or new.admin_comments is distinct from old.admin_comments or new.hubspot_id is distinct from old.hubspot_id
     or new.custom_field_1 is distinct from old.custom_field_1 or new.custom_field_2 is distinct from old.custom_field_2
     or new.parameters is distinct from old.parameters or new.token is distinct from old.token
     or new.deposit_paid_at is distinct from old.deposit_paid_at or new.deposit_amount is distinct from old.deposit_amount
     or new.paid_at is distinct from old.paid_at or new.total_amount_paid is distinct from old.total_amount_paid
     or new.created_at is distinct from old.created_at then
    raise exception 'only an admin may change these fields of a deal' using errcode = '42501';
  end if;
  if caller = 'Company' then
    -- The 'sent' markers (envoi_devis…) are set by validating, which a locked deal still allows.
    if locked and (new.lines is distinct from old.lines
                   or (new.properties - 'envoi_devis' - 'envoi_devis_partenaire') is distinct from (old.properties - 'envoi_devis' - 'envoi_devis_partenaire')
                   or new.description is distinct from old.description or new.map_url is distinct from old.map_url
                   or new.settings is distinct from old.settings or new.choices is distinct from old.choices) then
      raise exception 'edits of this deal are disabled by an admin' using errcode = '42501';
    end if;
    if new.status is distinct from old.status and not (
         (old.status = 'new' and new.status = 'send') or (old.status = 'pending' and new.status = 'edited')
         or (not locked and old.status in ('send', 'edited') and new.status = 'pending')
         or (not locked and old.status in ('new', 'pending', 'send', 'edited') and new.status = 'refused_partner')) then
      raise exception 'a partner cannot move a deal from % to %', old.status, new.status using errcode = '42501';
    end if;
    if new.choices is distinct from old.choices and new.choices <> '{"cocktails": []}'::jsonb then
      raise exception 'a partner can only empty the customer''s choices' using errcode = '42501';
    end if;
    return new;
  end if;
  if caller = 'Customer' then
    -- A customer chooses cocktails and may refuse; nothing else.
    if new.lines is distinct from old.lines or new.properties is distinct from old.properties
       or new.description is distinct from old.description or new.map_url is distinct from old.map_url
       or new.settings is distinct from old.settings or new.name is distinct from old.name
       or new.calculations is distinct from old.calculations or new.totals is distinct from old.totals then
      raise exception 'a customer cannot change the quote' using errcode = '42501';
    end if;
    if new.status is distinct from old.status and not (
         new.status = 'refused_client'
         and old.status not in ('accepted', 'pay_partial', 'pay_total', 'win', 'refused', 'refused_client', 'refused_partner')) then
      raise exception 'a customer cannot move a deal from % to %', old.status, new.status using errcode = '42501';
    end if;
    return new;
  end if;
  raise exception 'not allowed' using errcode = '42501';
end $$;
