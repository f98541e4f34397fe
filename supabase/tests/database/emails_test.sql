-- Emails (migration 20261127006000_emails.sql): scheduled_emails (read by admins, sent rows deleted by
-- admins, written by the system), the reminder policy's triggers on deal status and payments, the
-- notifications they queue, the registry's functions (mark ready, purge) and who may call them.
begin;
select plan(57);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Company', 'partner_a'), tests.create_user('Company', 'partner_b');

insert into public.deals (id, name, company_id, customer_id, service_date)
values (9101, 'Mariage test', tests.user_id('partner_a'), tests.user_id('customer_a'), current_date + 20),
       (9102, 'Anniversaire test', tests.user_id('partner_a'), null, current_date + 30);
insert into public.deal_contacts (deal_id, firstname, lastname, email) values
  (9101, 'Jeanne', 'Test', 'jeanne@test.invalid'), (9102, 'Paul', 'Test', 'paul@test.invalid');

-- ---------------------------------------------------------------------------------------------
-- Structure and privileges
-- ---------------------------------------------------------------------------------------------
select ok((select relrowsecurity from pg_class where oid = 'public.scheduled_emails'::regclass),
  'RLS is enabled on scheduled_emails');
select policies_are('public', 'scheduled_emails',
  array['Admins can read scheduled emails', 'Admins can delete sent scheduled emails'],
  'public.scheduled_emails has exactly the expected policies');
select table_privs_are('public', 'scheduled_emails', 'anon', array[]::text[], 'anon has no privilege');
select table_privs_are('public', 'scheduled_emails', 'authenticated', array['DELETE', 'SELECT'],
  'authenticated may only read and delete (RLS: admins, sent rows)');
select table_privs_are('public', 'scheduled_emails', 'service_role', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
  'the system writes scheduled emails');
select policies_are('public', 'deal_notifications', array['Admins and the deal''s partner can queue its notifications'],
  'deal_notifications keeps one policy');
select column_privs_are('public', 'deal_notifications', 'data', 'authenticated', array[]::text[],
  'users never write a notification''s data');
select is(has_function_privilege('authenticated', 'public.mark_scheduled_emails_ready()', 'execute'), false,
  'users cannot mark scheduled emails ready');
select is(has_function_privilege('authenticated', 'public.purge_scheduled_emails()', 'execute'), false,
  'users cannot purge scheduled emails');
select is(has_function_privilege('authenticated', 'public.schedule_deal_email(bigint, text, timestamptz)', 'execute'),
  false, 'users cannot schedule an email');
select is(has_function_privilege('authenticated', 'public.scheduled_email_relevant(text, bigint)', 'execute'), false,
  'users cannot probe deals through scheduled_email_relevant');
select is(has_function_privilege('service_role', 'public.mark_scheduled_emails_ready()', 'execute'), true,
  'the system (pg_cron job, the app''s ticker) marks them ready');

-- ---------------------------------------------------------------------------------------------
-- The reminder policy, from the triggers
-- ---------------------------------------------------------------------------------------------
update public.deals set status = 'new' where id = 9101;
select results_eq($$select template, is_ready, is_sent from public.scheduled_emails where entity_id = 9101$$,
  $$values ('deal-reminder-manual-partner'::text, false, false)$$, 'sent to the partner: a partner reminder');
select ok((select schedule_at between now() + interval '47 hours 59 minutes' and now() + interval '48 hours 1 minute'
           from public.scheduled_emails where entity_id = 9101), 'due in 48 hours');
select is((select count(*)::int from public.deal_notifications where deal_id = 9101), 0,
  'no notification from the trigger for new (the use case queues new_deal_partner)');

update public.deals set status = 'send' where id = 9101;
select results_eq($$select template from public.scheduled_emails where entity_id = 9101 and not is_sent$$,
  $$values ('deal-reminder-manual-customer'::text)$$, 'validated: the partner reminder gone, a customer reminder');
select ok((select schedule_at between now() + interval '2 days 23 hours 59 minutes' and now() + interval '3 days 1 minute'
           from public.scheduled_emails where entity_id = 9101), 'due in 3 days');
select results_eq($$select kind, data ->> 'revalidated' from public.deal_notifications where deal_id = 9101$$,
  $$values ('availability_validated'::text, 'false'::text)$$, 'the availability email is queued once');

update public.deals set status = 'pending' where id = 9101;
select results_eq($$select template from public.scheduled_emails where entity_id = 9101 and not is_sent order by template$$,
  $$values ('deal-reminder-manual-partner'::text)$$, 'edited back to pending: the partner must revalidate, the customer waits');
update public.deals set status = 'edited' where id = 9101;
select results_eq($$select data ->> 'revalidated' from public.deal_notifications where deal_id = 9101 order by id desc limit 1$$,
  $$values ('true'::text)$$, 'revalidated');

insert into public.deal_payments (deal_id, kind, amount, method) values (9101, 'deposit', 5000, 'manual');
select results_eq($$select kind from public.deal_notifications where deal_id = 9101 order by id desc limit 1$$,
  $$values ('payment_received'::text)$$, 'a payment queues its emails');
update public.deals set status = 'pay_partial', deposit_paid_at = now(), deposit_amount = 5000 where id = 9101;
select results_eq($$select template from public.scheduled_emails where entity_id = 9101 and not is_sent$$,
  $$values ('deal-invoice-customer'::text)$$, 'deposit paid: no customer reminder, the invoice email waits');
select is((select schedule_at from public.scheduled_emails where entity_id = 9101 and not is_sent),
  ((current_date + 21)::timestamp + interval '9 hours') at time zone 'Europe/Paris',
  'the day after the event, 09:00 in Paris');
update public.deals set service_date = current_date + 40 where id = 9101;
select is((select schedule_at from public.scheduled_emails where entity_id = 9101 and not is_sent),
  ((current_date + 41)::timestamp + interval '9 hours') at time zone 'Europe/Paris',
  'a new event date moves it');

update public.deals set status = 'new' where id = 9102;
update public.deals set status = 'refused_partner', refusal_reason = 'partner_unavailable' where id = 9102;
select is_empty($$select id from public.scheduled_emails where entity_id = 9102 and not is_sent$$,
  'refused: nothing waits any more');
select results_eq($$select kind, data ->> 'status', data ->> 'from' from public.deal_notifications where deal_id = 9102$$,
  $$values ('refused'::text, 'refused_partner'::text, 'new'::text)$$, 'the refusal is queued with where it came from');

-- ---------------------------------------------------------------------------------------------
-- Relevance, marking ready, purging (as the system)
-- ---------------------------------------------------------------------------------------------
select tests.act_as_service();
select is(public.scheduled_email_relevant('deal-invoice-customer', 9101), true, 'a paid deal gets its invoice');
select is(public.scheduled_email_relevant('deal-reminder-manual-customer', 9101), false, 'a paid deposit needs no reminder');
select is(public.scheduled_email_relevant('deal-reminder-manual-partner', 9102), false, 'a refused deal needs no reminder');
select is(public.scheduled_email_relevant('deal-reminder-manual-partner', 999999), false, 'an unknown deal: no');
select is(public.mark_scheduled_emails_ready(), 0, 'nothing due yet');
update public.scheduled_emails set schedule_at = now() - interval '1 minute' where entity_id = 9101 and not is_sent;
select is(public.mark_scheduled_emails_ready(), 1, 'the due email is marked ready');
select is(public.mark_scheduled_emails_ready(), 0, 'once');
select ok((select is_ready from public.scheduled_emails where entity_id = 9101 and not is_sent), 'it is ready');
insert into public.scheduled_emails (template, entity_id, schedule_at, is_ready, is_sent, sent_at) values
  ('deal-reminder-manual-partner', 9102, now() - interval '41 days', true, true, now() - interval '40 days'),
  ('deal-reminder-manual-customer', 9102, now() - interval '11 days', true, true, now() - interval '10 days');
select throws_ok($$insert into public.scheduled_emails (template, entity_id, schedule_at) values ('deal-invoice-customer', 9101, now())$$,
  '23505', null, 'one waiting email of a kind per deal');
select throws_ok($$insert into public.scheduled_emails (template, entity_id, schedule_at) values ('anything', 9101, now())$$,
  '23514', null, 'only known templates');

select tests.reset_role();
create function pg_temp.hidden_from(who text) returns setof text language plpgsql as $fn$
begin
  return next is_empty($$select id from public.scheduled_emails$$, who || ' reads no scheduled email');
  return next tests.changes($$delete from public.scheduled_emails$$, 0, who || ' deletes none');
  return next tests.denied($$insert into public.scheduled_emails (template, entity_id, schedule_at) values ('deal-invoice-customer', 9102, now())$$,
    who || ' cannot schedule one');
  return next tests.denied($$update public.scheduled_emails set is_ready = true$$, who || ' cannot mark one ready');
end $fn$;

-- ---------------------------------------------------------------------------------------------
-- Who reads and deletes
-- ---------------------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok($$select id from public.scheduled_emails$$, '42501', 'permission denied for table scheduled_emails',
  'anon reads nothing');

select tests.act_as('customer_a');
select * from pg_temp.hidden_from('the deal''s customer');
select tests.act_as('partner_a');
select * from pg_temp.hidden_from('the deal''s partner');
select tests.denied($$insert into public.deal_notifications (deal_id, kind) values (9101, 'deal-reminder-manual-customer')$$,
  'a partner cannot send the admin''s manual templates');
select tests.act_as_impersonating('admin', 'customer_a');
select * from pg_temp.hidden_from('an admin impersonating a customer');

select tests.act_as('admin');
select is((select count(*)::int from public.scheduled_emails), 3, 'the admin reads every scheduled email');
select tests.changes($$delete from public.scheduled_emails where not is_sent$$, 0, 'the admin cannot delete a waiting one');
select tests.changes($$insert into public.deal_notifications (deal_id, kind) values (9101, 'deal-invoice-customer')$$, 1,
  'the admin queues a manual template');
select tests.changes($$delete from public.scheduled_emails where is_sent and sent_at < now() - interval '30 days'$$, 1,
  'the admin''s cleanup removes sent emails older than 30 days');

select tests.act_as_service();
delete from public.scheduled_emails where is_sent and sent_at < now() - interval '30 days';
update public.scheduled_emails set sent_at = now() - interval '31 days' where is_sent;
select is(public.purge_scheduled_emails(), 1, 'the nightly purge removes sent emails older than 30 days');
select is((select count(*)::int from public.scheduled_emails where is_sent), 0, 'none left');

-- Demo data writes history and emails nobody (its reminders are still scheduled).
select tests.set_claims('service_role', '{"role": "service_role", "reason": "seed"}'::jsonb, 'the seed');
insert into public.deals (id, name, status) values (9103, 'Démo', 'new');
update public.deals set status = 'send' where id = 9103;
select is((select count(*)::int from public.deal_notifications where deal_id = 9103), 0, 'the seed queues no email');

select * from finish();
rollback;
