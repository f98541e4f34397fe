-- Personal data a customer controls (issue "Invoices…" §2, GDPR art. 15, 17, 20).
-- Erasure: after the 14-day grace, purge_deleted_accounts() now erases, besides the account row, the
-- copies of the person's identity made elsewhere: the contact copied on their deals, their surname in
-- deal names, chat author names, voucher names and addresses, emails to third parties quoting them,
-- log lines, queued jobs, the admin search text. Issued invoices and credit notes (public.invoices,
-- their stored PDFs) are kept unchanged: 10 years, Code de commerce L123-22. Emails sent to the
-- account itself are deleted by the trigger of 20261128009100_email_secrets.sql.

-- Replaces each needle (literal, case-insensitive) with '[anonymisé]'. Needles are tried in the
-- order given (longest first is the caller's job); needles shorter than 2 characters are ignored.
-- `p_words`: needles matched as whole words only (a surname such as "Petit" must not eat "petite").
create or replace function public.erase_needles(p_text text, p_needles text[], p_words text[] default '{}')
returns text
language plpgsql immutable set search_path = '' as $$
declare
  n text;
  result text := p_text;
begin
  if result is null then
    return null;
  end if;
  foreach n in array coalesce(p_needles, '{}') loop
    if n is not null and length(btrim(n)) >= 2 then
      result := regexp_replace(result, regexp_replace(n, '([^[:alnum:][:space:]])', '\\\1', 'g'),
        '[anonymisé]', 'gi');
    end if;
  end loop;
  foreach n in array coalesce(p_words, '{}') loop
    if n is not null and length(btrim(n)) >= 2 then
      result := regexp_replace(result,
        '\m' || regexp_replace(n, '([^[:alnum:][:space:]])', '\\\1', 'g') || '\M', '[anonymisé]', 'gi');
    end if;
  end loop;
  return result;
end $$;
revoke execute on function public.erase_needles(text, text[], text[]) from public, anon, authenticated;
grant execute on function public.erase_needles(text, text[], text[]) to service_role;

-- The same on every string value of a JSON document (keys and structure untouched).
create or replace function public.erase_needles_jsonb(p jsonb, p_needles text[], p_words text[] default '{}')
returns jsonb
language plpgsql immutable set search_path = '' as $$
begin
  return case jsonb_typeof(p)
    when 'string' then to_jsonb(public.erase_needles(p #>> '{}', p_needles, p_words))
    when 'object' then coalesce((select jsonb_object_agg(e.key, public.erase_needles_jsonb(e.value, p_needles, p_words))
                                 from jsonb_each(p) e), '{}'::jsonb)
    when 'array' then coalesce((select jsonb_agg(public.erase_needles_jsonb(a.value, p_needles, p_words) order by a.n)
                                from jsonb_array_elements(p) with ordinality a(value, n)), '[]'::jsonb)
    else p
  end;
end $$;
revoke execute on function public.erase_needles_jsonb(jsonb, text[], text[]) from public, anon, authenticated;
grant execute on function public.erase_needles_jsonb(jsonb, text[], text[]) to service_role;

-- Erases one account (called by purge_deleted_accounts once the grace period is over).
create or replace function public.erase_account(p_user uuid) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  u public.users%rowtype;
  gone_email text := 'supprime+' || p_user || '@invalid.invalid';
  emails text[];
  phones text[];
  strong text[];   -- identify the person anywhere: emails, full names, phones, company name
  local text[];    -- within the person's own deals and vouchers: also their postal address
  words text[];    -- whole words: surname, company name
  patterns text[]; -- ilike patterns of `strong` and of their deal names: the rows worth rewriting
  deal_ids bigint[];
begin
  select * into u from public.users where id = p_user and anonymized_at is null for update;
  if not found then
    return false;
  end if;
  emails := array(select distinct lower(e) from unnest(array[u.email] || u.emails) e where e <> '');
  -- Phones as stored (E.164) and as French people write them (0612345678, 06 12 34 56 78).
  phones := array(select p from unnest(array[
      u.phone,
      case when u.phone like '+33%' then '0' || substr(u.phone, 4) end,
      case when u.phone like '+33%' then regexp_replace('0' || substr(u.phone, 4), '(\d\d)(?=\d)', '\1 ', 'g') end,
      case when u.phone like '+33%' then regexp_replace('0' || substr(u.phone, 4), '(\d\d)(?=\d)', '\1.', 'g') end
    ]) p where p is not null and length(p) >= 6);
  deal_ids := array(select d.id from public.deals d where d.customer_id = p_user or d.company_id = p_user);
  strong := array(select s from unnest(
      emails || phones || array[
        btrim(u.firstname || ' ' || u.lastname), btrim(u.lastname || ' ' || u.firstname),
        case when u.type <> 'Company' then null else u.name end
      ]) s where s is not null and length(btrim(s)) >= 3
    order by length(s) desc);
  local := strong || array(select a from unnest(array[u.address1, u.address2]) a where length(btrim(a)) >= 5);
  words := array(select w from unnest(array[u.lastname, u.name]) w where w is not null and length(btrim(w)) >= 2);
  -- Rows quoting them (an email to the partner names the deal, 'Anniversaire – Dupont – 12/06/2027').
  patterns := array(select '%' || replace(replace(replace(s, '\', '\\'), '%', '\%'), '_', '\_') || '%'
    from unnest(strong || array(select d.name from public.deals d where d.customer_id = p_user and length(d.name) >= 6)) s);

  -- The contact copied on the deals at request time, and the deals' own texts.
  update public.deal_contacts c set firstname = '', lastname = '', email = '', phone = '',
    service_address = public.erase_needles(c.service_address, local, words)
  where c.deal_id = any(deal_ids) and exists (select from public.deals d where d.id = c.deal_id and d.customer_id = p_user);
  update public.deals d set
    name = public.erase_needles(d.name, local, words),
    description = public.erase_needles(d.description, local, words),
    admin_description = public.erase_needles(d.admin_description, local, words),
    admin_comments = public.erase_needles(d.admin_comments, local, words),
    refusal_reason = public.erase_needles(d.refusal_reason, local, words),
    custom_field_1 = public.erase_needles(d.custom_field_1, local, words),
    custom_field_2 = public.erase_needles(d.custom_field_2, local, words),
    settings = public.erase_needles_jsonb(d.settings, local, words),
    admin_settings = public.erase_needles_jsonb(d.admin_settings, local, words),
    parameters = public.erase_needles_jsonb(d.parameters, local, words),
    properties = public.erase_needles_jsonb(d.properties, local, words),
    choices = public.erase_needles_jsonb(d.choices, local, words),
    lines = public.erase_needles_jsonb(d.lines, local, words)
  where d.id = any(deal_ids);
  update public.chat_messages m set
    author_name = case when m.author_id = p_user then 'Compte supprimé'
                       else public.erase_needles(m.author_name, local, words) end,
    text = public.erase_needles(m.text, local, words)
  where m.deal_id = any(deal_ids) or m.author_id = p_user;
  update public.deal_status_changes s set reason = public.erase_needles(s.reason, local, words)
  where s.deal_id = any(deal_ids) and s.reason is not null;
  update public.deal_notifications n set data = public.erase_needles_jsonb(n.data, local, words),
    last_error = public.erase_needles(n.last_error, local, words)
  where n.deal_id = any(deal_ids);
  update public.scheduled_emails e set data = public.erase_needles_jsonb(e.data, local, words)
  where e.entity_id = any(deal_ids);
  update public.crm_deal_sync s set synced = public.erase_needles_jsonb(s.synced, local, words)
  where s.deal_id = any(deal_ids);

  -- Vouchers: the name they bought under; the name, address and message of those they received.
  update public.vouchers v set sender_name = '[anonymisé]', message = public.erase_needles(v.message, local, words)
  where v.buyer_id = p_user;
  update public.vouchers v set recipient_name = '[anonymisé]', recipient_email = gone_email,
    message = public.erase_needles(v.message, local, words)
  where v.recipient_email = any(emails);
  update public.order_lines l set label = public.erase_needles(l.label, strong, words),
    detail = public.erase_needles_jsonb(l.detail, strong, words)
  where l.label ilike any(patterns) or l.detail::text ilike any(patterns);

  -- Waiting-list alerts, a partner's application, login traces.
  delete from public.seat_alerts a where a.user_id = p_user or a.email = any(emails);
  -- Their applications to become a partner go whole: nothing references them, and a phone is required
  -- there (an anonymised row would have to invent one).
  delete from public.partner_applications a where lower(a.email) = any(emails);
  delete from identity.login_attempts a where lower(a.email) = any(emails);
  delete from identity.rate_limits r where r.bucket ilike any(patterns);

  -- The emails sent to them go (as the trigger users_erase_emails does, which would no longer find them
  -- once rewritten below); wherever else they are quoted: emails to others (partners, admins), logs,
  -- queued jobs, replays.
  delete from public.email_outbox o where lower(o.recipient) = any(emails);
  update public.email_outbox o set
    subject = public.erase_needles(o.subject, strong, words),
    text_body = public.erase_needles(o.text_body, strong, words),
    html_body = public.erase_needles(o.html_body, strong, words),
    last_error = public.erase_needles(o.last_error, strong, words)
  where o.subject ilike any(patterns) or o.text_body ilike any(patterns) or o.html_body ilike any(patterns)
     or o.last_error ilike any(patterns);
  update public.logs l set message = public.erase_needles(l.message, strong, words),
    context = public.erase_needles_jsonb(l.context, strong, words)
  where l.message ilike any(patterns) or l.context::text ilike any(patterns);
  update outbox.jobs j set payload = public.erase_needles_jsonb(j.payload, strong, words),
    last_error = public.erase_needles(j.last_error, strong, words)
  where j.payload::text ilike any(patterns) or j.last_error ilike any(patterns);
  delete from public.idempotency_keys k where k.response_body ilike any(patterns);
  update public.simulated_payment_intents i set metadata = public.erase_needles_jsonb(i.metadata, strong, words)
  where i.metadata::text ilike any(patterns);

  -- The account itself (its emails go with it: trigger users_erase_emails), then its credentials.
  update public.users set
    email = gone_email, firstname = 'Compte', lastname = 'supprimé',
    name = null, siren = null, vat_number = null, address1 = null, address2 = null, zipcode = null,
    city = null, phone = null, birthdate = null, emails = '{}', optin = false, anonymized_at = now()
  where id = p_user;
  delete from identity.credentials c where c.user_id = p_user;
  delete from identity.sessions s where s.user_id = p_user;
  delete from identity.password_reset_tokens t where t.user_id = p_user;

  -- The admin list's search text, rebuilt as lib/deals/store.ts refreshSearchText does.
  update public.deal_contacts c set search_text = translate(lower(concat_ws(' ', d.id, d.name, c.firstname,
      c.lastname, c.email, c.phone, p.name, p.email, p.firstname, p.lastname, d.hubspot_id)),
      'àáâãäåçèéêëìíîïñòóôõöùúûüýÿ', 'aaaaaaceeeeiiiinooooouuuuyy')
  from public.deals d left join public.users p on p.id = d.company_id
  where d.id = c.deal_id and d.id = any(deal_ids);
  return true;
end $$;
revoke execute on function public.erase_account(uuid) from public, anon, authenticated;
grant execute on function public.erase_account(uuid) to service_role;

-- Same contract as before (accounts deleted more than 14 days ago; returns how many; one log line),
-- each account now erased by erase_account().
create or replace function public.purge_deleted_accounts() returns integer
language plpgsql security definer set search_path = '' as $$
declare
  purged integer := 0;
  target uuid;
begin
  for target in
    select id from public.users
    where deleted_at < now() - interval '14 days' and anonymized_at is null
    order by deleted_at
    for update skip locked
  loop
    if public.erase_account(target) then
      purged := purged + 1;
    end if;
  end loop;
  if purged > 0 then
    insert into public.logs (service, type, message, context)
    values ('accounts', 'info', 'Comptes supprimés après le délai de 14 jours', jsonb_build_object('count', purged));
  end if;
  return purged;
end $$;
revoke execute on function public.purge_deleted_accounts() from public, anon, authenticated;
grant execute on function public.purge_deleted_accounts() to service_role;
