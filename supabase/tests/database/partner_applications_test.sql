-- Partner applications ('Devenir partenaire'): anyone (anon or signed in) inserts a fresh, undecided
-- application with the form's columns only; nobody but an admin reads or decides them; an admin
-- impersonating a user has the user's rights only. The same migration hides the partner-invitation
-- emails (their link sets a password) from admins in the outbox, like the password-reset ones.
-- Users and identity switches come from supabase/tests/helpers.sql.
begin;
select plan(102);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Company', 'partner_a');

insert into public.partner_applications
  (id, company_name, siren, firstname, lastname, email, phone, city, status, decided_at, decided_by) values
  ('a1000000-0000-4000-8000-000000000001', 'Bar en attente', '111111111', 'Paul', 'Attente',
   'attente@bar.test', '+33611111111', 'Paris', 'pending', null, null),
  ('a1000000-0000-4000-8000-000000000002', 'Bar refusé', '222222222', 'Rita', 'Refus',
   'refus@bar.test', '+33622222222', 'Lyon', 'rejected', now() - interval '1 day', tests.user_id('admin'));

-- ---------------------------------------------------------------------------------------------
-- Structure: RLS on, exactly these policies, table and column privileges.
-- ---------------------------------------------------------------------------------------------
select ok((select relrowsecurity from pg_class where oid = 'public.partner_applications'::regclass),
  'RLS is enabled on public.partner_applications');
select policies_are('public', 'partner_applications', array[
  'Anyone can apply to become a partner', 'Admins can read partner applications',
  'Admins can decide partner applications'
], 'public.partner_applications has exactly the expected policies');
select table_privs_are('public', 'partner_applications', 'anon', array[]::text[],
  'anon has no table-wide privilege on partner_applications (inserts are per column)');
select table_privs_are('public', 'partner_applications', 'authenticated', array['SELECT'],
  'authenticated only has SELECT on partner_applications as a whole (RLS keeps it to admins)');
select table_privs_are('public', 'partner_applications', 'service_role',
  array['DELETE', 'INSERT', 'SELECT', 'UPDATE'], 'service_role reads and writes partner_applications');

-- Every column's privileges: the form's columns are the only ones anyone inserts, the decision's
-- columns the only ones authenticated (admins, through RLS) updates.
create function pg_temp.column_privileges_are_exact() returns setof text language plpgsql as $fn$
declare
  form constant text[] := array['company_name', 'siren', 'firstname', 'lastname', 'email', 'phone', 'city', 'message'];
  decision constant text[] := array['status', 'decided_at', 'decided_by', 'user_id'];
  col text;
begin
  for col in select attname from pg_attribute
             where attrelid = 'public.partner_applications'::regclass and attnum > 0 and not attisdropped
             order by attnum loop
    return next column_privs_are('public', 'partner_applications', col, 'anon',
      case when col = any (form) then array['INSERT'] else array[]::text[] end,
      format('anon privileges on partner_applications.%s', col));
    return next column_privs_are('public', 'partner_applications', col, 'authenticated',
      case when col = any (form) then array['INSERT', 'SELECT']
           when col = any (decision) then array['SELECT', 'UPDATE']
           else array['SELECT'] end,
      format('authenticated privileges on partner_applications.%s', col));
  end loop;
end $fn$;
select * from pg_temp.column_privileges_are_exact();

-- The statements a visitor might try; %s is the application's company name.
create function pg_temp.apply(company text) returns text language sql as $fn$
  select format($$insert into public.partner_applications (company_name, siren, firstname, lastname, email,
    phone, city, message) values (%L, '123456789', 'Jean', 'Dupont', 'jean@bar.test', '+33612345678', 'Paris',
    'Bonjour')$$, company)
$fn$;

-- The insert side, the same for anon and every signed-in user: a fresh application with the form's
-- columns is accepted; setting any decision column is refused by the column privileges (42501).
create function pg_temp.may_apply_undecided(who text) returns setof text language plpgsql as $fn$
declare
  denied constant text := 'permission denied for table partner_applications';
begin
  return next lives_ok(pg_temp.apply('Bar de ' || who), who || ' applies with the form''s columns');
  return next throws_ok(
    $$insert into public.partner_applications (company_name, siren, firstname, lastname, email, phone, city, status,
      decided_at) values ('Bar accepté', '123456789', 'Jean', 'Dupont', 'jean@bar.test', '+33612345678', 'Paris',
      'accepted', now())$$,
    '42501', denied, who || ' cannot insert an application already accepted');
  return next throws_ok(
    $$insert into public.partner_applications (company_name, siren, firstname, lastname, email, phone, city, status)
      values ('Bar en attente', '123456789', 'Jean', 'Dupont', 'jean@bar.test', '+33612345678', 'Paris', 'pending')$$,
    '42501', denied, who || ' cannot even set the status to pending');
  return next throws_ok(format(
    $$insert into public.partner_applications (company_name, siren, firstname, lastname, email, phone, city,
      decided_by) values ('Bar', '123456789', 'Jean', 'Dupont', 'jean@bar.test', '+33612345678', 'Paris', %L)$$,
    tests.user_id('admin')),
    '42501', denied, who || ' cannot insert an application with decided_by');
  return next throws_ok(format(
    $$insert into public.partner_applications (company_name, siren, firstname, lastname, email, phone, city,
      user_id) values ('Bar', '123456789', 'Jean', 'Dupont', 'jean@bar.test', '+33612345678', 'Paris', %L)$$,
    tests.user_id('customer_a')),
    '42501', denied, who || ' cannot insert an application linked to an account (user_id)');
  return next throws_ok(
    $$insert into public.partner_applications (id, company_name, siren, firstname, lastname, email, phone, city)
      values ('a1000000-0000-4000-8000-0000000000ff', 'Bar', '123456789', 'Jean', 'Dupont', 'jean@bar.test',
      '+33612345678', 'Paris')$$,
    '42501', denied, who || ' cannot choose the id');
end $fn$;

-- The read and decide side for every signed-in non-admin: nothing to read, nothing to change.
create function pg_temp.cannot_read_or_decide(who text) returns setof text language plpgsql as $fn$
begin
  return next is_empty($$select id from public.partner_applications$$, who || ' reads no application');
  return next is_empty(
    $$select id from public.partner_applications where id = 'a1000000-0000-4000-8000-000000000001' for update$$,
    who || ' cannot lock an application');
  return next results_eq(
    $$with u as (update public.partner_applications set status = 'rejected', decided_at = now() returning 1)
      select count(*)::int from u$$,
    array[0], who || ' cannot decide an application (0 rows)');
  return next results_eq(
    format($$with u as (update public.partner_applications set status = 'accepted', decided_at = now(),
      decided_by = %L, user_id = %L where id = 'a1000000-0000-4000-8000-000000000001' returning 1)
      select count(*)::int from u$$, tests.user_id('admin'), tests.user_id('customer_a')),
    array[0], who || ' cannot accept an application in an admin''s name (0 rows)');
  return next throws_ok($$update public.partner_applications set company_name = 'Piraté'$$, '42501',
    'permission denied for table partner_applications', who || ' cannot rewrite an application');
  return next throws_ok($$delete from public.partner_applications$$, '42501',
    'permission denied for table partner_applications', who || ' cannot remove an application');
end $fn$;

-- ---------------------------------------------------------------------------------------------
-- Anonymous visitor: applies, reads nothing, changes nothing.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_anon();
select * from pg_temp.may_apply_undecided('anon');
select throws_ok($$select id from public.partner_applications$$, '42501',
  'permission denied for table partner_applications', 'anon cannot read the applications');
select throws_ok(pg_temp.apply('Bar curieux') || ' returning id', '42501',
  'permission denied for table partner_applications', 'anon cannot even read back its own application');
select throws_ok($$update public.partner_applications set status = 'accepted', decided_at = now()$$, '42501',
  'permission denied for table partner_applications', 'anon cannot decide an application');
select throws_ok($$delete from public.partner_applications$$, '42501',
  'permission denied for table partner_applications', 'anon cannot remove an application');

-- ---------------------------------------------------------------------------------------------
-- Customer, partner, admin impersonating the customer: apply, read nothing, change nothing.
-- ---------------------------------------------------------------------------------------------
select tests.act_as('customer_a');
select * from pg_temp.may_apply_undecided('customer A');
select * from pg_temp.cannot_read_or_decide('customer A');

select tests.act_as('partner_a');
select * from pg_temp.may_apply_undecided('partner A');
select * from pg_temp.cannot_read_or_decide('partner A');

select tests.act_as_impersonating('admin', 'customer_a');
select * from pg_temp.may_apply_undecided('an admin impersonating customer A');
select * from pg_temp.cannot_read_or_decide('an admin impersonating customer A');

select tests.reset_role();
select results_eq(
  $$select company_name, status, decided_at is null, decided_by is null, user_id is null
    from public.partner_applications where id not in ('a1000000-0000-4000-8000-000000000001',
      'a1000000-0000-4000-8000-000000000002') order by company_name$$,
  $$values ('Bar de an admin impersonating customer A', 'pending', true, true, true),
           ('Bar de anon', 'pending', true, true, true),
           ('Bar de customer A', 'pending', true, true, true),
           ('Bar de partner A', 'pending', true, true, true)$$,
  'the applications sent by anon, a customer, a partner and an impersonating admin are pending and undecided');
select results_eq(
  $$select company_name, status, decided_by is null, user_id is null from public.partner_applications
    where id in ('a1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000002') order by siren$$,
  $$values ('Bar en attente', 'pending', true, true), ('Bar refusé', 'rejected', false, true)$$,
  'the existing applications were not touched by non-admins');

-- ---------------------------------------------------------------------------------------------
-- Admin: reads and decides, never rewrites nor removes.
-- ---------------------------------------------------------------------------------------------
select tests.act_as('admin');
select results_eq($$select count(*)::int from public.partner_applications$$, array[6],
  'the admin reads every application');
select results_eq(
  $$select company_name from public.partner_applications where id = 'a1000000-0000-4000-8000-000000000001'
    for update$$,
  $$values ('Bar en attente')$$, 'the admin locks an application to decide it');
select results_eq(
  $$update public.partner_applications set status = 'accepted', decided_at = now(),
      decided_by = tests.user_id('admin'), user_id = tests.user_id('partner_a')
    where id = 'a1000000-0000-4000-8000-000000000001' returning status, decided_by = tests.user_id('admin')$$,
  $$values ('accepted', true)$$, 'the admin accepts an application');
select results_eq(
  $$with u as (update public.partner_applications set status = 'rejected', decided_at = now(),
      decided_by = tests.user_id('admin') where company_name = 'Bar de anon' returning 1) select count(*)::int from u$$,
  array[1], 'the admin rejects an application');
select throws_ok(
  $$update public.partner_applications set status = 'accepted' where company_name = 'Bar de customer A'$$,
  '23514', null, 'an application is not accepted without a decision date');
select throws_ok($$update public.partner_applications set company_name = 'Renommé'$$, '42501',
  'permission denied for table partner_applications', 'the admin cannot rewrite what the applicant sent');
select throws_ok($$delete from public.partner_applications$$, '42501',
  'permission denied for table partner_applications', 'the admin cannot remove an application');
select * from pg_temp.may_apply_undecided('the admin');

select tests.reset_role();
select results_eq(
  $$select company_name, status, decided_at is not null, decided_by = tests.user_id('admin'),
      user_id is not distinct from tests.user_id('partner_a')
    from public.partner_applications where status <> 'pending' order by company_name$$,
  $$values ('Bar de anon', 'rejected', true, true, false), ('Bar en attente', 'accepted', true, true, true),
           ('Bar refusé', 'rejected', true, true, false)$$,
  'the admin''s decisions were stored');

-- ---------------------------------------------------------------------------------------------
-- service_role (the auth server creating the partner's account) bypasses RLS.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_service();
select results_eq($$select count(*)::int from public.partner_applications$$, array[7],
  'service_role reads every application');
select results_eq(
  $$with d as (delete from public.partner_applications where company_name = 'Bar de anon' returning 1)
    select count(*)::int from d$$,
  array[1], 'service_role removes an application');

-- ---------------------------------------------------------------------------------------------
-- The outbox: admins read it except the emails whose link opens an account.
-- ---------------------------------------------------------------------------------------------
select tests.reset_role();
delete from public.email_outbox;
insert into public.email_outbox (id, recipient, template, subject, text_body) values
  ('f1000000-0000-4000-8000-000000000001', 'customer_a@test.invalid', 'password-reset',
   'Réinitialisation de votre mot de passe', 'Lien : https://example.com/reset-password/secret'),
  ('f1000000-0000-4000-8000-000000000002', 'attente@bar.test', 'partner-invitation',
   'Votre compte partenaire est prêt', 'Lien : https://example.com/reset-password/invitation'),
  ('f1000000-0000-4000-8000-000000000003', 'partner_a@test.invalid', 'welcome', 'Bienvenue', 'Bonjour'),
  ('f1000000-0000-4000-8000-000000000004', 'refus@bar.test', 'partner-application-rejected',
   'Votre candidature', 'Bonjour');

select tests.act_as('admin');
select set_eq($$select template from public.email_outbox$$, array['welcome', 'partner-application-rejected'],
  'the admin reads the outbox except password-reset and partner-invitation emails');
select is_empty($$select id from public.email_outbox where template = 'partner-invitation'$$,
  'the admin cannot read a partner invitation (its link would open the partner''s account)');

select tests.act_as_impersonating('admin', 'customer_a');
select is_empty($$select id from public.email_outbox$$, 'an impersonating admin reads no email');

select tests.act_as('partner_a');
select is_empty($$select id from public.email_outbox$$, 'a partner reads no email, not even their own');

select tests.act_as_service();
select results_eq($$select count(*)::int from public.email_outbox where template = 'partner-invitation'$$,
  array[1], 'service_role (the mail worker) reads the partner invitations');

select * from finish();
rollback;
