-- Deal spec pass (issue "Quotes and payments, second pass", section 4).
--
-- 1. Flash messages kept on the server, per session (spec 000 §2 'shows flash messages', §3 'Flash
--    message: type, message', §7 GET /api/user/flash-messages): what an action reports to the page that
--    comes after a redirect or a reload (a card payment's 'Paiement intégral effectué avec succès !…').
--    A message belongs to the signed-in session that caused it (session_key = identity.sessions.id_hash)
--    or, for a visitor (after logout, before a login completes), to the SHA-256 of a random `flash`
--    cookie. It is read once: taking it deletes it. Reached only by the service role (the system actor
--    "auth"), like every identity table: no policy, nothing granted to anon or authenticated.
create table identity.flash_messages (
  id bigint generated always as identity primary key,
  session_key text not null check (session_key ~ '^[0-9a-f]{64}$'),
  type text not null check (type in ('success', 'error', 'warning', 'info')),
  message text not null check (length(message) between 1 and 500),
  created_at timestamptz not null default now()
);
create index flash_messages_session_key_idx on identity.flash_messages (session_key, id);
create index flash_messages_created_at_idx on identity.flash_messages (created_at);
alter table identity.flash_messages enable row level security;
revoke all on identity.flash_messages from anon, authenticated;
grant select, insert, delete on identity.flash_messages to service_role;
grant usage on sequence identity.flash_messages_id_seq to service_role;

-- 2. The admin list's search text now holds the deal's HubSpot id (spec 001 §2.12 'Recherche par
--    client, partenaire ou ID...'): deals already stored get it appended; the app writes it from now on
--    (lib/deals/store.ts refreshSearchText).
update public.deal_contacts c
set search_text = c.search_text || ' ' || lower(d.hubspot_id)
from public.deals d
where d.id = c.deal_id and d.hubspot_id is not null and d.hubspot_id <> ''
  and position(lower(d.hubspot_id) in c.search_text) = 0;
