-- The chat on a deal (spec 000 §3, §6, 001 §2.6): messages written by the deal's customer, admins and
-- (when the admin's flag allows) the deal's partner, and 'notification' entries written by the
-- database itself in the transaction of what they tell (status changes, payments, invoices,
-- refusals). Every new entry is announced with NOTIFY 'app_chat' ('m:<deal id>'); every change of who
-- may read a deal's chat with 'a:<deal id>': each app instance listens once and fans out to its
-- server-sent event streams (lib/chat/hub.ts). Read markers per user feed the unread digest email.

-- Who may read (and write in) a deal's chat: admins, the deal's customer, and the deal's partner once
-- the deal reached it (status past 'start') when either chat flag is on (showChatForPartner on the
-- back office's page, showChatToPartner on the customer's page: one right, two places).
create or replace function public.can_read_deal_chat(target bigint) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select from public.deals d
    where d.id = target and (
      (select public.is_admin())
      or d.customer_id = (select auth.uid())
      or (d.company_id = (select auth.uid()) and d.status <> 'start'
          and (select public.current_user_type()) = 'Company'
          and (coalesce((d.admin_settings ->> 'showChatForPartner')::boolean, false)
               or coalesce((d.admin_settings ->> 'showChatToPartner')::boolean, false)))))
$$;
revoke execute on function public.can_read_deal_chat(bigint) from public;
grant execute on function public.can_read_deal_chat(bigint) to authenticated, service_role;

create table public.chat_messages (
  id bigint generated always as identity primary key,
  deal_id bigint not null references public.deals (id) on delete cascade,
  entity_type text not null default 'DealCompany' check (entity_type = 'DealCompany'),
  type text not null check (type in ('message', 'notification')),
  text text not null check (length(text) between 1 and 2000),
  -- Set from the author's account by the insert trigger, never from the request; null for the
  -- database's own notifications.
  author_id uuid references public.users (id) on delete set null,
  author_type text check (author_type in ('Admin', 'Customer', 'Company')),
  author_name text not null default '' check (length(author_name) <= 300),
  created_at timestamptz not null default now(),
  -- What a notification tells ('status:<id>', 'payment:<id>', 'invoice:<id>'): one entry each.
  source text unique,
  check (type <> 'message' or btrim(text, E' \t\r\n\u00a0') <> '')
);
create index chat_messages_deal_idx on public.chat_messages (deal_id, id);
create index chat_messages_recent_idx on public.chat_messages (created_at) where type = 'message';

-- One row per reader and deal: what they have read (the page, the stream) and what the last digest
-- email told them about.
create table public.chat_reads (
  deal_id bigint not null references public.deals (id) on delete cascade,
  user_id uuid not null references public.users (id) on delete cascade,
  last_read_id bigint not null default 0,
  digest_through_id bigint not null default 0,
  read_at timestamptz not null default now(),
  primary key (deal_id, user_id)
);
create index chat_reads_user_idx on public.chat_reads (user_id);

alter table public.chat_messages enable row level security;
alter table public.chat_reads enable row level security;

-- The deal sets are subqueries over deals under the caller's own RLS (see the deals migration): a
-- partner reads only its deals past 'start', a customer its own.
create policy "Chat readers can read a deal's chat" on public.chat_messages for select to authenticated
  using ((select public.is_admin()) or deal_id in (
    select d.id from public.deals d
    where d.customer_id = (select auth.uid())
       or (d.company_id = (select auth.uid())
           and (coalesce((d.admin_settings ->> 'showChatForPartner')::boolean, false)
                or coalesce((d.admin_settings ->> 'showChatToPartner')::boolean, false)))));
create policy "Chat readers can write messages as themselves" on public.chat_messages for insert to authenticated
  with check (type = 'message' and author_id = (select auth.uid()) and (select public.can_read_deal_chat(deal_id)));

create policy "Chat readers can read their own read markers" on public.chat_reads for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Chat readers can add their own read markers" on public.chat_reads for insert to authenticated
  with check (user_id = (select auth.uid()) and digest_through_id = 0 and (select public.can_read_deal_chat(deal_id)));
create policy "Chat readers can move their own read markers" on public.chat_reads for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()) and (select public.can_read_deal_chat(deal_id)));

grant select on public.chat_messages to authenticated;
grant insert (deal_id, entity_type, type, text, author_id) on public.chat_messages to authenticated;
grant select, insert (deal_id, user_id, last_read_id, read_at), update (last_read_id, read_at)
  on public.chat_reads to authenticated;
grant select, insert, update, delete on public.chat_messages, public.chat_reads to service_role;

-- The author's type and name come from their account: a request cannot pose as someone else.
create or replace function public.chat_message_author() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.type = 'message' then
    new.created_at := now();
    select u.type, case when u.type = 'Company' and coalesce(u.name, '') <> '' then u.name
                        else btrim(u.firstname || ' ' || u.lastname) end
      into new.author_type, new.author_name
      from public.users u where u.id = new.author_id;
    if new.author_type is null then
      raise exception 'chat message without an author' using errcode = '42501';
    end if;
  end if;
  return new;
end $$;
revoke execute on function public.chat_message_author() from public;
create trigger chat_messages_author before insert on public.chat_messages
  for each row execute function public.chat_message_author();

create or replace function public.notify_chat_message() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform pg_notify('app_chat', 'm:' || new.deal_id);
  return null;
end $$;
revoke execute on function public.notify_chat_message() from public;
create trigger chat_messages_notify after insert on public.chat_messages
  for each row execute function public.notify_chat_message();

-- Who may read a deal's chat changed: streams re-check their viewer's right (and close).
create or replace function public.notify_chat_access() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform pg_notify('app_chat', 'a:' || coalesce(new.id, old.id));
  return null;
end $$;
revoke execute on function public.notify_chat_access() from public;
create trigger deals_notify_chat_access
  after update of admin_settings, company_id, customer_id, status on public.deals
  for each row
  when (old.company_id is distinct from new.company_id or old.customer_id is distinct from new.customer_id
        or (old.status = 'start') <> (new.status = 'start')
        or (old.admin_settings ->> 'showChatForPartner') is distinct from (new.admin_settings ->> 'showChatForPartner')
        or (old.admin_settings ->> 'showChatToPartner') is distinct from (new.admin_settings ->> 'showChatToPartner'))
  execute function public.notify_chat_access();
create trigger deals_notify_chat_deleted after delete on public.deals
  for each row execute function public.notify_chat_access();

-- ---------------------------------------------------------------------------------------------------
-- Notifications in the timeline, written in the transaction of what they tell.

create or replace function public.chat_euros(cents bigint) returns text
language sql immutable set search_path = '' as $$
  -- Literal separators (no locale), then the French ones: 1 234,56 € (U+202F and U+00A0, as Intl's fr-FR).
  select replace(replace(to_char(cents / 100.0, 'FM999,999,990.00'), ',', chr(8239)), '.', ',') || chr(160) || '€'
$$;

-- The author shown is who caused it when known (the request's user, or the user a system function
-- acts for), none otherwise (a card payment reported by the provider).
create or replace function public.chat_author_name(u public.users) returns text
language sql stable set search_path = '' as $$
  select case when u.id is null then '' when u.type = 'Company' and coalesce(u.name, '') <> '' then u.name
              else btrim(u.firstname || ' ' || u.lastname) end
$$;

create or replace function public.add_chat_notification(
  p_deal_id bigint, p_text text, p_source text, p_actor uuid default null, p_at timestamptz default now()
) returns void
language plpgsql security definer set search_path = '' as $$
declare
  actor uuid := coalesce(p_actor, (select auth.uid()), nullif(current_setting('app.deal_actor', true), '')::uuid);
begin
  insert into public.chat_messages (deal_id, type, text, author_id, author_type, author_name, created_at, source)
  select p_deal_id, 'notification', left(p_text, 2000), u.id, u.type, public.chat_author_name(u),
         coalesce(p_at, now()), p_source
  from (select 1) one left join public.users u on u.id = actor
  on conflict (source) do nothing;
end $$;
revoke execute on function public.add_chat_notification(bigint, text, text, uuid, timestamptz) from public;

create or replace function public.chat_status_label(s text) returns text
language sql immutable set search_path = '' as $$
  select case s
    when 'start' then 'Devis généré' when 'new' then 'Nouvelle demande'
    when 'pending' then 'Attente revalidation partenaire' when 'send' then 'Devis envoyé'
    when 'edited' then 'Devis modifié et envoyé' when 'accepted' then 'Devis accepté'
    when 'pay_partial' then 'Accepté / paiement partiel' when 'pay_total' then 'Accepté / paiement complet'
    when 'win' then 'Gagné soldé' when 'refused' then 'Refusé'
    when 'refused_client' then 'Refusé par le client' when 'refused_partner' then 'Refusé par le partenaire'
    else s end
$$;

create or replace function public.chat_on_status_change() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.from_status is null then
    return null; -- the deal's creation
  end if;
  if tg_op = 'UPDATE' then
    -- The history row was dated or attributed afterwards (the demo data does): its entry follows.
    update public.chat_messages m
    set created_at = new.created_at, author_id = u.id, author_type = u.type, author_name = public.chat_author_name(u)
    from (select 1) one left join public.users u on u.id = new.actor_id
    where m.source = 'status:' || new.id;
    return null;
  end if;
  if new.to_status in ('refused', 'refused_client', 'refused_partner') then
    perform public.add_chat_notification(new.deal_id,
      'Le devis a été refusé (' || public.chat_status_label(new.to_status) || ').', 'status:' || new.id, new.actor_id, new.created_at);
  else
    perform public.add_chat_notification(new.deal_id,
      'Statut du devis : ' || public.chat_status_label(new.to_status) || '.', 'status:' || new.id, new.actor_id,
      new.created_at);
  end if;
  return null;
end $$;
revoke execute on function public.chat_on_status_change() from public;
create trigger deal_status_changes_chat after insert on public.deal_status_changes
  for each row execute function public.chat_on_status_change();
create trigger deal_status_changes_chat_fixed after update of created_at, actor_id on public.deal_status_changes
  for each row execute function public.chat_on_status_change();

create or replace function public.chat_on_payment() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.overpayment then
    perform public.add_chat_notification(new.deal_id,
      'Paiement reçu en trop : ' || public.chat_euros(new.amount) || ', remboursé intégralement.', 'payment:' || new.id,
      new.recorded_by, new.paid_at);
  else
    perform public.add_chat_notification(new.deal_id,
      case new.kind when 'deposit' then 'Acompte reçu : ' when 'balance' then 'Solde reçu : '
                    else 'Paiement intégral reçu : ' end
      || public.chat_euros(new.amount) || case when new.method = 'card' then ' (carte bancaire).' else '.' end,
      'payment:' || new.id, new.recorded_by, new.paid_at);
  end if;
  return null;
end $$;
revoke execute on function public.chat_on_payment() from public;
-- A deal's payments and documents only: a workshop order's (order_id, no deal) has no deal chat.
create trigger deal_payments_chat after insert on public.deal_payments
  for each row when (new.deal_id is not null) execute function public.chat_on_payment();

-- Customer invoices and credit notes only: commission documents are between the platform and the partner.
create or replace function public.chat_on_invoice() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform public.add_chat_notification(new.deal_id,
    case when new.series = 'AV' then 'Avoir émis : ' || new.number || ' (' || public.chat_euros(abs(new.total_ttc)) || ').'
         else 'Facture émise : ' || new.number || ' (' || public.chat_euros(new.total_ttc) || ').' end,
    'invoice:' || new.id, null, new.issued_at);
  return null;
end $$;
revoke execute on function public.chat_on_invoice() from public;
create trigger invoices_chat after insert on public.invoices
  for each row when (new.series in ('FA', 'AV') and new.deal_id is not null)
  execute function public.chat_on_invoice();

-- ---------------------------------------------------------------------------------------------------
-- The unread digest (lib/chat/use_cases/send_digests.ts, through the job registry): each party of a
-- deal (its customer; its partner while it may read the chat) with messages from others that it has
-- neither read nor been emailed about, the oldest of them at least p_minutes old. Service role only.
create or replace function public.chat_digest_candidates(p_minutes integer)
returns table (deal_id bigint, user_id uuid, through_id bigint, unread integer)
language sql stable security definer set search_path = '' as $$
  with recent as (
    select distinct m.deal_id from public.chat_messages m
    where m.type = 'message' and m.created_at > now() - interval '7 days'),
  parties as (
    select d.id as deal_id, d.customer_id as user_id from public.deals d join recent r on r.deal_id = d.id
    where d.customer_id is not null
    union
    select d.id, d.company_id from public.deals d join recent r on r.deal_id = d.id
    where d.company_id is not null and d.status <> 'start'
      and (coalesce((d.admin_settings ->> 'showChatForPartner')::boolean, false)
           or coalesce((d.admin_settings ->> 'showChatToPartner')::boolean, false)))
  select p.deal_id, p.user_id, max(m.id), count(*)::int
  from parties p
  join public.chat_messages m on m.deal_id = p.deal_id and m.type = 'message'
    and m.author_id is distinct from p.user_id
  left join public.chat_reads r on r.deal_id = p.deal_id and r.user_id = p.user_id
  where m.id > greatest(coalesce(r.last_read_id, 0), coalesce(r.digest_through_id, 0))
  group by p.deal_id, p.user_id
  having min(m.created_at) <= now() - make_interval(mins => p_minutes)
$$;
revoke execute on function public.chat_digest_candidates(integer) from public;
grant execute on function public.chat_digest_candidates(integer) to service_role;
