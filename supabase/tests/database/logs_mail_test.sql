-- Logs and mail: public.logs (written by the service role, read and purged by admins) and
-- public.email_outbox (written and delivered by the service role, read by admins except reset links).
-- Users and identity switches come from supabase/tests/helpers.sql.
begin;
select plan(72);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Customer', 'customer_b'), tests.create_user('Company', 'partner_a'),
  tests.create_user('Company', 'partner_b');

insert into public.logs (service, type, message, context) values
  ('auth', 'info', 'Connexion', jsonb_build_object('userId', tests.user_id('customer_a'))),
  ('auth', 'warning', 'Échec de connexion', '{"email": "customer_b@test.invalid"}'),
  ('mail', 'error', 'SMTP indisponible', '{}');
insert into public.email_outbox (id, recipient, template, subject, text_body) values
  ('f0000000-0000-4000-8000-000000000001', 'customer_a@test.invalid', 'password-reset',
   'Réinitialisation de votre mot de passe', 'Lien : https://example.com/reset-password/secret'),
  ('f0000000-0000-4000-8000-000000000002', 'partner_b@test.invalid', 'welcome', 'Bienvenue', 'Bonjour');

-- ---------------------------------------------------------------------------------------------
-- Structure
-- ---------------------------------------------------------------------------------------------
select ok((select bool_and(relrowsecurity) from pg_class
           where oid in ('public.logs'::regclass, 'public.email_outbox'::regclass)),
  'RLS is enabled on logs and email_outbox');
select policies_are('public', 'logs', array['Admins can read logs', 'Admins can delete logs'],
  'public.logs has exactly the expected policies');
select policies_are('public', 'email_outbox', array['Admins can read the email outbox'],
  'public.email_outbox has exactly the expected policy');
select table_privs_are('public', 'logs', 'anon', array[]::text[], 'anon has no privilege on logs');
select table_privs_are('public', 'email_outbox', 'anon', array[]::text[], 'anon has no privilege on email_outbox');
select table_privs_are('public', 'logs', 'authenticated', array['DELETE', 'SELECT'],
  'authenticated may only read and delete logs (RLS keeps both to admins)');
select table_privs_are('public', 'email_outbox', 'authenticated', array['SELECT'],
  'authenticated may only read email_outbox (RLS keeps it to admins)');

-- Non-admin users see nothing and change nothing.
create function pg_temp.logs_and_mail_are_hidden(who text) returns setof text language plpgsql as $fn$
begin
  return next is_empty($$select id from public.logs$$, who || ' reads no log');
  return next results_eq(
    $$with d as (delete from public.logs returning 1) select count(*)::int from d$$,
    array[0], who || ' deletes no log (0 rows)');
  return next throws_ok($$insert into public.logs (service, type, message) values ('x', 'info', 'faux')$$,
    '42501', 'permission denied for table logs', who || ' cannot write a log');
  return next throws_ok($$update public.logs set message = 'effacé'$$,
    '42501', 'permission denied for table logs', who || ' cannot rewrite a log');

  return next is_empty($$select id from public.email_outbox$$, who || ' reads no email');
  return next is_empty(
    $$select id from public.email_outbox where recipient = 'customer_a@test.invalid'$$,
    who || ' does not even read the emails sent to customer A');
  return next throws_ok(
    $$insert into public.email_outbox (recipient, template, subject, text_body) values ('x@example.com', 't', 's', 'b')$$,
    '42501', 'permission denied for table email_outbox', who || ' cannot queue an email');
  return next throws_ok($$update public.email_outbox set status = 'sent'$$,
    '42501', 'permission denied for table email_outbox', who || ' cannot change an email');
  return next throws_ok($$delete from public.email_outbox$$,
    '42501', 'permission denied for table email_outbox', who || ' cannot remove an email');
end $fn$;

-- ---------------------------------------------------------------------------------------------
-- Anonymous visitor: no privilege at all.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok($$select id from public.logs$$, '42501', 'permission denied for table logs',
  'anon cannot read logs');
select throws_ok($$insert into public.logs (service, type, message) values ('x', 'info', 'faux')$$, '42501',
  'permission denied for table logs', 'anon cannot write a log');
select throws_ok($$delete from public.logs$$, '42501', 'permission denied for table logs',
  'anon cannot delete logs');
select throws_ok($$select id from public.email_outbox$$, '42501', 'permission denied for table email_outbox',
  'anon cannot read the email outbox');
select throws_ok(
  $$insert into public.email_outbox (recipient, template, subject, text_body) values ('x@example.com', 't', 's', 'b')$$,
  '42501', 'permission denied for table email_outbox', 'anon cannot queue an email');

-- ---------------------------------------------------------------------------------------------
-- Customers, partners and an impersonating admin.
-- ---------------------------------------------------------------------------------------------
select tests.act_as('customer_a');
select * from pg_temp.logs_and_mail_are_hidden('customer A');

select tests.act_as('customer_b');
select * from pg_temp.logs_and_mail_are_hidden('customer B');

select tests.act_as('partner_a');
select * from pg_temp.logs_and_mail_are_hidden('partner A');

select tests.act_as('partner_b');
select * from pg_temp.logs_and_mail_are_hidden('partner B');

select tests.act_as_impersonating('admin', 'customer_a');
select * from pg_temp.logs_and_mail_are_hidden('an admin impersonating customer A');

select tests.reset_role();
select results_eq($$select count(*)::int from public.logs$$, array[3],
  'no log was deleted by a non-admin');
select results_eq($$select status, count(*)::int from public.email_outbox group by status$$,
  $$values ('pending', 2)$$, 'no email was changed by a non-admin');

-- ---------------------------------------------------------------------------------------------
-- Admin: reads both, deletes logs, writes neither.
-- ---------------------------------------------------------------------------------------------
select tests.act_as('admin');

select results_eq($$select message from public.logs order by id$$,
  array['Connexion', 'Échec de connexion', 'SMTP indisponible'], 'the admin reads every log');
select set_eq($$select id from public.email_outbox$$,
  array['f0000000-0000-4000-8000-000000000002']::uuid[],
  'the admin reads the outbox except password-reset emails (their links would open any account)');
select results_eq(
  $$with d as (delete from public.logs where type = 'error' returning message) select array_agg(message) from d$$,
  $$values (array['SMTP indisponible'])$$, 'the admin deletes a log');
select throws_ok($$insert into public.logs (service, type, message) values ('x', 'info', 'faux')$$, '42501',
  'permission denied for table logs', 'the admin cannot forge a log');
select throws_ok($$update public.logs set message = 'effacé'$$, '42501', 'permission denied for table logs',
  'the admin cannot rewrite a log');
select throws_ok(
  $$insert into public.email_outbox (recipient, template, subject, text_body) values ('x@example.com', 't', 's', 'b')$$,
  '42501', 'permission denied for table email_outbox', 'the admin cannot queue an email directly');
select throws_ok($$update public.email_outbox set status = 'sent'$$, '42501',
  'permission denied for table email_outbox', 'the admin cannot change an email');
select throws_ok($$delete from public.email_outbox$$, '42501', 'permission denied for table email_outbox',
  'the admin cannot remove an email');

select tests.reset_role();
select results_eq($$select type from public.logs order by id$$, array['info', 'warning'],
  'the admin deleted exactly the log they targeted');

-- ---------------------------------------------------------------------------------------------
-- service_role (logger, outbox, SMTP worker) bypasses RLS.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_service();
select results_eq(
  $$insert into public.logs (service, type, message) values ('accounts', 'info', 'Profil modifié') returning service$$,
  $$values ('accounts')$$, 'service_role writes a log (identity column included)');
select results_eq($$select count(*)::int from public.logs$$, array[3], 'service_role reads every log');
select results_eq(
  $$insert into public.email_outbox (recipient, template, subject, text_body)
    values ('customer_b@test.invalid', 'welcome', 'Bienvenue', 'Bonjour') returning status$$,
  $$values ('pending')$$, 'service_role queues an email');
select results_eq(
  $$with u as (update public.email_outbox set status = 'sent', sent_at = now() where status = 'pending' returning 1)
    select count(*)::int from u$$,
  array[3], 'service_role marks the emails as sent');

select * from finish();
rollback;
