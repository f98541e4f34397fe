-- The deal chat (migration 20261127005000_chat.sql): who reads and writes a deal's messages (admins,
-- the deal's customer, its partner only with a chat flag and past 'start'), authors taken from the
-- account whatever the insert says, notifications written by the database, read markers per user.
-- Each side as anon, customer A and B, partner A and B, an impersonating admin, the admin and the
-- service role.
begin;
select plan(43);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Customer', 'customer_b'), tests.create_user('Company', 'partner_a'),
  tests.create_user('Company', 'partner_b');

-- 301: no chat flag; 302: showChatForPartner; 303: showChatToPartner; 304: a flag but still 'start'.
insert into public.deals (id, name, status, company_id, customer_id, admin_settings) values
  (301, 'D301', 'send', tests.user_id('partner_a'), tests.user_id('customer_a'), '{}'),
  (302, 'D302', 'send', tests.user_id('partner_a'), tests.user_id('customer_a'), '{"showChatForPartner": true}'),
  (303, 'D303', 'send', tests.user_id('partner_a'), tests.user_id('customer_a'), '{"showChatToPartner": true}'),
  (304, 'D304', 'start', tests.user_id('partner_a'), tests.user_id('customer_a'), '{"showChatForPartner": true}');
insert into public.chat_messages (deal_id, type, text, author_id) values
  (301, 'message', 'm301', tests.user_id('customer_a')),
  (302, 'message', 'm302', tests.user_id('customer_a')),
  (303, 'message', 'm303', tests.user_id('admin')),
  (304, 'message', 'm304', tests.user_id('admin'));

select policies_are('public', 'chat_messages', array[
  'Chat readers can read a deal''s chat', 'Chat readers can write messages as themselves'
], 'public.chat_messages has exactly the expected policies');
select policies_are('public', 'chat_reads', array[
  'Chat readers can read their own read markers', 'Chat readers can add their own read markers',
  'Chat readers can move their own read markers'
], 'public.chat_reads has exactly the expected policies');
select table_privs_are('public', 'chat_messages', 'anon', array[]::text[], 'anon has no privilege on chat_messages');
select table_privs_are('public', 'chat_messages', 'authenticated', array['SELECT'],
  'authenticated reads chat_messages (and inserts named columns only)');
select table_privs_are('public', 'chat_reads', 'anon', array[]::text[], 'anon has no privilege on chat_reads');
select table_privs_are('public', 'chat_reads', 'authenticated', array['SELECT'],
  'authenticated reads chat_reads (and writes named columns only)');

-- The author's name and type come from the account.
select is((select author_type || '/' || author_name from public.chat_messages where text = 'm301'),
  'Customer/customer_a Test', 'the author type and name come from the account');
select is((select author_name from public.chat_messages where text = 'm303'), 'admin Test', 'an admin''s name');

-- ---------------------------------------------------------------------------------------------
-- Reading.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok($$select * from public.chat_messages$$, '42501', 'permission denied for table chat_messages',
  'anon reads no chat');
select throws_ok($$select public.can_read_deal_chat(302)$$, '42501', null, 'anon cannot even ask');
select tests.act_as('customer_a');
select set_eq($$select text from public.chat_messages where type = 'message'$$,
  array['m301', 'm302', 'm303', 'm304'], 'customer A reads the chat of each of its deals');
select tests.act_as('customer_b');
select is_empty($$select text from public.chat_messages$$, 'customer B reads nothing');
select tests.act_as('partner_a');
select set_eq($$select text from public.chat_messages where type = 'message'$$, array['m302', 'm303'],
  'partner A reads the deals with a chat flag, past start');
select is(public.can_read_deal_chat(301), false, 'partner A: no flag, no chat');
select is(public.can_read_deal_chat(304), false, 'partner A: start, no chat');
select tests.act_as('partner_b');
select is_empty($$select text from public.chat_messages$$, 'partner B reads nothing');
select tests.act_as_impersonating('admin', 'customer_a');
select set_eq($$select text from public.chat_messages where type = 'message'$$,
  array['m301', 'm302', 'm303', 'm304'], 'an admin impersonating customer A reads what A reads');
select tests.act_as_impersonating('admin', 'partner_b');
select is_empty($$select text from public.chat_messages$$, 'an admin impersonating partner B reads nothing');
select tests.act_as('admin');
select set_eq($$select text from public.chat_messages where type = 'message'$$,
  array['m301', 'm302', 'm303', 'm304'], 'the admin reads every chat');
select is(public.can_read_deal_chat(999), false, 'no chat for a deal that does not exist');

-- ---------------------------------------------------------------------------------------------
-- Writing: as oneself, where one reads, messages only; nobody rewrites or deletes.
-- ---------------------------------------------------------------------------------------------
select tests.act_as('customer_a');
select tests.changes($$insert into public.chat_messages (deal_id, type, text, author_id)
  values (301, 'message', 'ok', (select auth.uid()))$$, 1, 'customer A writes on its deal');
select tests.denied($$insert into public.chat_messages (deal_id, type, text, author_id)
  values (301, 'message', 'faux', tests.user_id('admin'))$$, 'customer A cannot write as the admin');
select tests.denied($$insert into public.chat_messages (deal_id, type, text, author_id)
  values (301, 'notification', 'faux', (select auth.uid()))$$, 'customer A cannot write a notification');
select tests.denied($$insert into public.chat_messages (deal_id, type, text, author_id, author_type)
  values (301, 'message', 'faux', (select auth.uid()), 'Admin')$$, 'nor choose its author type');
select tests.denied($$update public.chat_messages set text = 'x'$$, 'customer A cannot rewrite a message');
select tests.denied($$delete from public.chat_messages$$, 'customer A cannot delete a message');
select throws_ok($$insert into public.chat_messages (deal_id, type, text, author_id)
  values (301, 'message', '   ', (select auth.uid()))$$, '23514', null, 'a blank message is refused');
select tests.act_as('customer_b');
select tests.denied($$insert into public.chat_messages (deal_id, type, text, author_id)
  values (301, 'message', 'intrus', (select auth.uid()))$$, 'customer B cannot write on A''s deal');
select tests.act_as('partner_a');
select tests.denied($$insert into public.chat_messages (deal_id, type, text, author_id)
  values (301, 'message', 'sans drapeau', (select auth.uid()))$$, 'partner A cannot write without the flag');
select tests.changes($$insert into public.chat_messages (deal_id, type, text, author_id)
  values (302, 'message', 'avec drapeau', (select auth.uid()))$$, 1, 'partner A writes with the flag');
select tests.act_as('partner_b');
select tests.denied($$insert into public.chat_messages (deal_id, type, text, author_id)
  values (302, 'message', 'intrus', (select auth.uid()))$$, 'partner B cannot write on A''s deal');

-- ---------------------------------------------------------------------------------------------
-- Read markers: one's own, on a chat one reads; the digest's column is the system's.
-- ---------------------------------------------------------------------------------------------
select tests.act_as('customer_a');
select tests.changes($$insert into public.chat_reads (deal_id, user_id, last_read_id)
  values (301, (select auth.uid()), 5)$$, 1, 'customer A marks its chat read');
select tests.denied($$insert into public.chat_reads (deal_id, user_id, last_read_id)
  values (301, tests.user_id('customer_b'), 5)$$, 'nobody marks for someone else');
select tests.denied($$insert into public.chat_reads (deal_id, user_id, digest_through_id)
  values (301, (select auth.uid()), 5)$$, 'the digest marker is not the user''s');
select tests.act_as('partner_a');
select tests.denied($$insert into public.chat_reads (deal_id, user_id, last_read_id)
  values (301, (select auth.uid()), 5)$$, 'partner A marks nothing where it cannot read');

-- ---------------------------------------------------------------------------------------------
-- Notifications: written by the database in the action's transaction, for every reader.
-- ---------------------------------------------------------------------------------------------
select tests.act_as('admin');
update public.deals set status = 'accepted' where id = 302;
select is((select text from public.chat_messages where deal_id = 302 and type = 'notification' order by id desc limit 1),
  'Statut du devis : Devis accepté.', 'a status change posts a notification');
select is((select author_type from public.chat_messages where deal_id = 302 and type = 'notification' order by id desc limit 1),
  'Admin', 'by the admin who made it');
select tests.act_as('partner_a');
select ok(exists (select from public.chat_messages where deal_id = 302 and type = 'notification'),
  'the partner with the flag reads it');
select tests.act_as('admin');
update public.deals set admin_settings = '{}' where id = 302;
select tests.act_as('partner_a');
select is_empty($$select text from public.chat_messages where deal_id = 302$$,
  'once the flag is off, partner A reads nothing of it');
-- A customer invoice and a payment post theirs; a commission invoice (platform ↔ partner) does not.
select tests.reset_role();
insert into public.deal_payments (deal_id, kind, amount, method, recorded_by)
values (301, 'deposit', 35000, 'manual', tests.user_id('admin'));
insert into public.invoices (series, issuer, year, sequence, number, kind, deal_id, total_ht, total_vat, total_ttc, document)
values ('FA', 'platform', 2026, 1, 'FA-2026-T-1', 'deposit', 301, 100000, 20000, 120000, '{}'),
       ('CO', 'platform', 2026, 1, 'CO-2026-T-1', 'deposit', 301, 5000, 1000, 6000, '{}');
select is((select text from public.chat_messages where deal_id = 301 and text like 'Acompte%'),
  'Acompte reçu : 350,00' || chr(160) || '€.', 'a payment posts a notification, amount the French way');
select is((select text from public.chat_messages where deal_id = 301 and text like 'Facture%'),
  'Facture émise : FA-2026-T-1 (1' || chr(8239) || '200,00' || chr(160) || '€).', 'a customer invoice posts one');
select is((select count(*)::int from public.chat_messages where deal_id = 301 and text like '%CO-2026%'), 0,
  'a commission invoice posts none');
select tests.act_as_service();
select is((select count(*)::int from public.chat_messages where type = 'message'), 4,
  'the service role reads every message');

select * from finish();
rollback;
