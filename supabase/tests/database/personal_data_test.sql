-- Erasure of an account's personal data (migration 20261128007500_personal_data.sql): after the grace
-- period purge_deleted_accounts() anonymises the contact copied on the deals, the surname in deal names,
-- chat author names, vouchers, emails quoting the person; issued invoices are left as they are; only the
-- system runs the functions.
begin;
select plan(16);

select tests.create_user('Customer', 'leaver'), tests.create_user('Customer', 'stayer');
update public.users set firstname = 'Léa', lastname = 'Zorglub', phone = '+33611223344'
where id = tests.user_id('leaver');

select function_privs_are('public', 'erase_account', array['uuid'], 'authenticated', array[]::text[],
  'authenticated cannot erase an account');
select function_privs_are('public', 'erase_account', array['uuid'], 'anon', array[]::text[],
  'anon cannot erase an account');
select function_privs_are('public', 'erase_account', array['uuid'], 'service_role', array['EXECUTE'],
  'the system erases accounts');
select function_privs_are('public', 'purge_deleted_accounts', array[]::text[], 'authenticated', array[]::text[],
  'authenticated cannot run the purge');
select function_privs_are('public', 'erase_needles', array['text', 'text[]', 'text[]'], 'anon', array[]::text[],
  'anon cannot call the text eraser');

select is(public.erase_needles('Anniversaire Zorglub', array['lea@x.fr'], array['Zorglub']),
  'Anniversaire [anonymisé]', 'the surname in a deal name');
select is(public.erase_needles('Zorglubette et ZORGLUB', '{}', array['Zorglub']),
  'Zorglubette et [anonymisé]', 'whole words only, any case');
select is(public.erase_needles('mail: a.b+c@x.fr', array['a.b+c@x.fr'], '{}'), 'mail: [anonymisé]',
  'regular-expression characters are literal');
select is(public.erase_needles_jsonb('{"n": ["Léa Zorglub", 3], "k": {"Zorglub": "x"}}', array['Léa Zorglub'], '{}'),
  '{"n": ["[anonymisé]", 3], "k": {"Zorglub": "x"}}'::jsonb, 'string values of JSON, keys untouched');

insert into public.deals (id, name, customer_id, status) overriding system value
  values (990001, 'Anniversaire Zorglub', tests.user_id('leaver'), 'new');
insert into public.deal_contacts (deal_id, firstname, lastname, email, phone, service_address)
  values (990001, 'Léa', 'Zorglub', 'leaver@test.invalid', '06 11 22 33 44', '1 rue X');
insert into public.chat_messages (deal_id, type, text, author_id, author_type, author_name)
  values (990001, 'message', 'Bonjour, Léa Zorglub au 06 11 22 33 44', tests.user_id('leaver'), 'Customer', 'Léa Zorglub');
insert into public.email_outbox (recipient, template, subject, text_body, status, sent_at) values
  ('leaver@test.invalid', 'x', 'Pour Léa', 'Bonjour Léa Zorglub', 'sent', now()),
  ('partner@test.invalid', 'x', 'Demande Anniversaire Zorglub', 'Client : Léa Zorglub, +33611223344', 'sent', now());
update public.users set deleted_at = now() - interval '15 days' where id = tests.user_id('leaver');

select tests.act_as_service();
select is(public.purge_deleted_accounts(), 1, 'the purge erases the account past its grace period');
select tests.reset_role();

select is((select name from public.deals where id = 990001), 'Anniversaire [anonymisé]', 'deal name');
select results_eq($$select firstname, lastname, email, phone from public.deal_contacts where deal_id = 990001$$,
  $$values (''::text, ''::text, ''::text, ''::text)$$, 'the contact copied on the deal is blank');
select results_eq($$select author_name, text from public.chat_messages where deal_id = 990001$$,
  $$values ('Compte supprimé'::text, 'Bonjour, [anonymisé] au [anonymisé]'::text)$$, 'chat author and text');
select is((select count(*)::int from public.email_outbox where recipient = 'leaver@test.invalid'), 0,
  'the emails sent to them are deleted');
select results_eq($$select subject, text_body from public.email_outbox where recipient = 'partner@test.invalid'$$,
  $$values ('Demande Anniversaire [anonymisé]'::text, 'Client : [anonymisé], [anonymisé]'::text)$$,
  'an email to someone else quoting them is anonymised');
select is((select lastname from public.users where id = tests.user_id('stayer')), 'Test', 'others untouched');

select * from finish();
rollback;
