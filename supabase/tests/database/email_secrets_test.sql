-- Secrets in the email outbox and its retention (migration 20261128009100_email_secrets.sql): the
-- sealed bodies live only while an email is pending, sent and failed emails go after 90 days, an
-- erased account's emails go with it, and nobody but the system runs the purge.
begin;
select plan(12);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'leaver');

select has_column('public', 'email_outbox', 'sealed_body', 'the outbox keeps sealed bodies apart');
select function_privs_are('public', 'purge_sent_emails', array['integer'], 'anon', array[]::text[],
  'anon cannot purge emails');
select function_privs_are('public', 'purge_sent_emails', array['integer'], 'authenticated', array[]::text[],
  'authenticated cannot purge emails');
select function_privs_are('public', 'purge_sent_emails', array['integer'], 'service_role', array['EXECUTE'],
  'the system (job purge-sent-emails) purges them');

insert into public.email_outbox (id, recipient, template, subject, text_body, sealed_body) values
  ('e0000000-0000-4000-8000-000000000001', 'x@test.invalid', 'password-reset', 'Lien', 'Lien : [masqué]', 'v1:aaa:bbb'),
  ('e0000000-0000-4000-8000-000000000002', 'x@test.invalid', 'gift-voucher', 'Bon', 'Code : [masqué]', 'v1:ccc:ddd');
select is((select count(*)::int from public.email_outbox where sealed_body is not null
           and id::text like 'e0000000-%'), 2, 'pending emails keep their sealed bodies');
update public.email_outbox set status = 'sent', sent_at = now() where id = 'e0000000-0000-4000-8000-000000000001';
update public.email_outbox set status = 'failed' where id = 'e0000000-0000-4000-8000-000000000002';
select is((select count(*)::int from public.email_outbox where sealed_body is not null
           and id::text like 'e0000000-%'), 0, 'a sent or failed email keeps no sealed secret');
update public.email_outbox set sealed_body = 'v1:x:y' where id = 'e0000000-0000-4000-8000-000000000001';
select is((select sealed_body from public.email_outbox where id = 'e0000000-0000-4000-8000-000000000001'), null,
  'nor keep one written after it was sent');

-- Retention.
update public.email_outbox set sent_at = now() - interval '91 days', next_attempt_at = now() - interval '91 days'
  where id::text like 'e0000000-%';
insert into public.email_outbox (id, recipient, template, subject, text_body, status, sent_at) values
  ('e0000000-0000-4000-8000-000000000003', 'y@test.invalid', 'x', 'Récent', 'corps', 'sent', now() - interval '89 days'),
  ('e0000000-0000-4000-8000-000000000004', 'y@test.invalid', 'x', 'En attente', 'corps', 'pending', null);
update public.email_outbox set created_at = now() - interval '200 days' where id = 'e0000000-0000-4000-8000-000000000004';
select tests.act_as_service();
select is(public.purge_sent_emails(), 2, 'the job deletes the emails sent or failed more than 90 days ago');
select tests.reset_role();
select results_eq($$select subject from public.email_outbox where id::text like 'e0000000-%' order by subject$$,
  $$values ('En attente'::text), ('Récent')$$, 'recent and pending emails stay');

-- Erasure: the account's emails (its address and its other addresses) go when it is anonymised.
update public.users set emails = array['autre.leaver@test.invalid'] where id = tests.user_id('leaver');
insert into public.email_outbox (recipient, template, subject, text_body) values
  ('leaver@test.invalid', 'x', 'A', 'corps'), ('autre.leaver@test.invalid', 'x', 'B', 'corps'),
  ('admin@test.invalid', 'x', 'C', 'corps');
update public.users set deleted_at = now() - interval '15 days' where id = tests.user_id('leaver');
select tests.act_as_service();
select ok(public.purge_deleted_accounts() >= 1, 'the account is anonymised after its grace period');
select tests.reset_role();
select is((select count(*)::int from public.email_outbox
           where recipient in ('leaver@test.invalid', 'autre.leaver@test.invalid')), 0,
  'its emails, with their full text, are gone');
select is((select count(*)::int from public.email_outbox where recipient = 'admin@test.invalid' and subject = 'C'), 1,
  'other people''s emails stay');

select * from finish();
rollback;
