-- Payments and billing documents (supabase/migrations/20261124000000_payments.sql): exactly these
-- policies and table privileges; who reads payments, invoices, refunds and intents (the deal's
-- customer: its payments and its FA/AV invoices only; its partner: its deal's payments and every
-- invoice of the deal; another partner or customer: nothing; anon: nothing; admins: everything);
-- nobody but the service role writes; record_payment / record_card_payment / record_refund /
-- next_invoice_number executable by the service role only; record_card_payment reported twice records
-- once and moves the deal; record_refund reported three times grows refunded_amount once;
-- next_invoice_number gap-free per (series, issuer, year); issued invoices never change.
-- Users and identity switches come from supabase/tests/helpers.sql.
--
-- Statements expected to be refused or to change rows run through tests.try(), which always rolls its
-- statement back (a subtransaction): a refusal the database forgets to make fails its own test without
-- changing the state the next tests read.
begin;
select plan(185);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Customer', 'customer_b'), tests.create_user('Company', 'partner_a'),
  tests.create_user('Company', 'partner_b');

-- 301 (partner A, customer A) and 302 (partner B, customer B): paid, with documents; 303 and 304
-- (partner A, customer A): sent, paid by the recorders below; 305 (partner A, customer A): in 'start',
-- not yet sent to its partner.
insert into public.deals (id, name, status, company_id, customer_id, admin_settings, lines, properties) values
  (301, 'D301', 'pay_partial', tests.user_id('partner_a'), tests.user_id('customer_a'), '{}', '[]', '{}'),
  (302, 'D302', 'pay_total', tests.user_id('partner_b'), tests.user_id('customer_b'), '{}', '[]', '{}'),
  (303, 'D303', 'send', tests.user_id('partner_a'), tests.user_id('customer_a'), '{}', '[]', '{}'),
  (304, 'D304', 'send', tests.user_id('partner_a'), tests.user_id('customer_a'), '{}', '[]', '{}'),
  (305, 'D305', 'start', tests.user_id('partner_a'), tests.user_id('customer_a'), '{}', '[]', '{}');
-- What 303 and 304 ask (the recorder counts a payment only up to what the deal owes).
update public.deals set totals = '{"totalTTC": 50000}' where id in (303, 304);

insert into public.payment_intents (id, provider, deal_id, customer_id, kind, amount, status, idempotency_key) values
  ('pi_301', 'stripe', 301, tests.user_id('customer_a'), 'deposit', 30000, 'succeeded', 'deal-301-deposit-30000'),
  ('pi_302', 'stripe', 302, tests.user_id('customer_b'), 'total', 80000, 'succeeded', 'deal-302-total-80000'),
  ('pi_303', 'stripe', 303, tests.user_id('customer_a'), 'total', 50000, 'requires_payment_method',
   'deal-303-total-50000'),
  ('pi_304_dep', 'stripe', 304, tests.user_id('customer_a'), 'deposit', 15000, 'requires_payment_method',
   'deal-304-deposit-15000'),
  ('pi_304_bal', 'stripe', 304, tests.user_id('customer_a'), 'balance', 35000, 'requires_payment_method',
   'deal-304-balance-35000');
insert into public.deal_payments (id, deal_id, kind, amount, method, provider, provider_payment_id) values
  ('d1000000-0000-4000-8000-000000000301', 301, 'deposit', 30000, 'card', 'stripe', 'pi_301'),
  ('d1000000-0000-4000-8000-000000000302', 302, 'total', 80000, 'card', 'stripe', 'pi_302'),
  ('d1000000-0000-4000-8000-000000000305', 305, 'deposit', 1000, 'manual', null, null);
insert into public.refunds (id, payment_id, amount, status, provider_refund_id, succeeded_at) values
  ('e1000000-0000-4000-8000-000000000301', 'd1000000-0000-4000-8000-000000000301', 5000, 'succeeded', 're_301', now());
insert into public.invoices (id, series, issuer, year, sequence, number, kind, deal_id, payment_id, refund_id,
  related_invoice_id, total_ht, total_vat, total_ttc, document) values
  ('f1000000-0000-4000-8000-000000000001', 'FA', tests.user_id('partner_a')::text, 2030, 1, 'FA-2030-A-00001',
   'deposit', 301, 'd1000000-0000-4000-8000-000000000301', null, null, 25000, 5000, 30000, '{}'),
  ('f1000000-0000-4000-8000-000000000002', 'CO', 'platform', 2030, 1, 'CO-2030-CC-00001', 'deposit', 301,
   'd1000000-0000-4000-8000-000000000301', null, null, 1000, 200, 1200, '{}'),
  ('f1000000-0000-4000-8000-000000000003', 'AV', tests.user_id('partner_a')::text, 2030, 1, 'AV-2030-A-00001',
   'credit_note', 301, 'd1000000-0000-4000-8000-000000000301', 'e1000000-0000-4000-8000-000000000301',
   'f1000000-0000-4000-8000-000000000001', 4167, 833, 5000, '{}'),
  ('f1000000-0000-4000-8000-000000000004', 'CA', 'platform', 2030, 1, 'CA-2030-CC-00001', 'credit_note', 301,
   'd1000000-0000-4000-8000-000000000301', null, 'f1000000-0000-4000-8000-000000000002', 100, 20, 120, '{}'),
  ('f1000000-0000-4000-8000-000000000005', 'FA', tests.user_id('partner_b')::text, 2030, 1, 'FA-2030-B-00001',
   'full', 302, 'd1000000-0000-4000-8000-000000000302', null, null, 66667, 13333, 80000, '{}'),
  ('f1000000-0000-4000-8000-000000000006', 'CO', 'platform', 2030, 2, 'CO-2030-CC-00002', 'full', 302,
   'd1000000-0000-4000-8000-000000000302', null, null, 3000, 600, 3600, '{}'),
  ('f1000000-0000-4000-8000-000000000007', 'FA', tests.user_id('partner_a')::text, 2030, 2, 'FA-2030-A-00002',
   'deposit', 305, 'd1000000-0000-4000-8000-000000000305', null, null, 833, 167, 1000, '{}');
insert into public.invoice_counters (series, issuer, year, last_number) values ('FA', 'platform', 2030, 7);
insert into public.provider_events (id, provider, type) values ('evt_301', 'stripe', 'payment_intent.succeeded');
insert into public.simulated_payment_intents (id, amount) values ('pi_sim_301', 30000);

-- tests.try / tests.denied / tests.changes: supabase/tests/helpers.sql.

-- ---------------------------------------------------------------------------------------------
-- Structure: RLS on, exactly these policies and table privileges.
-- ---------------------------------------------------------------------------------------------
select ok(bool_and(relrowsecurity), 'RLS is enabled on the seven tables of payments') from pg_class
where oid in ('public.payment_intents'::regclass, 'public.deal_payments'::regclass,
  'public.invoice_counters'::regclass, 'public.invoices'::regclass, 'public.refunds'::regclass,
  'public.provider_events'::regclass, 'public.simulated_payment_intents'::regclass);
select policies_are('public', 'payment_intents', array['Admins can read payment intents'],
  'public.payment_intents has exactly the expected policies');
select policies_are('public', 'deal_payments', array['Admins can read every payment', 'Deal parties can read its payments',
  'Customers can read their orders'' payments'],
  'public.deal_payments has exactly the expected policies');
select policies_are('public', 'invoice_counters', array[]::name[],
  'public.invoice_counters has no policy (the service role only)');
select policies_are('public', 'invoices', array[
  'Admins can read every invoice', 'Customers can read their deals'' invoices', 'Partners can read their deals'' invoices',
  'Customers can read their orders'' documents'
], 'public.invoices has exactly the expected policies');
select policies_are('public', 'refunds', array['Admins can read refunds'], 'public.refunds has exactly the expected policies');
select policies_are('public', 'provider_events', array[]::name[],
  'public.provider_events has no policy (the service role only)');
select policies_are('public', 'simulated_payment_intents', array[]::name[],
  'public.simulated_payment_intents has no policy (the service role only)');

create function pg_temp.privileges_are_exact() returns setof text language plpgsql as $fn$
declare
  r record;
begin
  for r in select * from (values
      ('payment_intents', array['SELECT']),
      ('deal_payments', array['SELECT']),
      ('invoice_counters', array[]::text[]),
      ('invoices', array['SELECT']),
      ('refunds', array['SELECT']),
      ('provider_events', array[]::text[]),
      ('simulated_payment_intents', array[]::text[])) t (name, auth) loop
    return next table_privs_are('public', r.name, 'anon', array[]::text[], format('anon privileges on %s', r.name));
    return next table_privs_are('public', r.name, 'authenticated', r.auth,
      format('authenticated privileges on %s', r.name));
    return next table_privs_are('public', r.name, 'service_role', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
      format('service_role privileges on %s', r.name));
  end loop;
end $fn$;
select * from pg_temp.privileges_are_exact();

-- The recorders and the invoice counter: the service role only.
create function pg_temp.executable_by_service_only() returns setof text language plpgsql as $fn$
declare
  f record;
  who text;
begin
  for f in select * from (values
      ('record_payment', array['bigint', 'text', 'bigint', 'text', 'text', 'text', 'uuid', 'timestamp with time zone']),
      ('record_card_payment', array['text', 'text', 'text', 'bigint', 'text']),
      ('record_refund', array['text', 'text', 'text', 'bigint', 'text', 'uuid']),
      ('next_invoice_number', array['text', 'text', 'integer'])) t (name, args) loop
    foreach who in array array['anon', 'authenticated', 'service_role'] loop
      return next function_privs_are('public', f.name, f.args, who,
        case when who = 'service_role' then array['EXECUTE'] else array[]::text[] end,
        format('%s %s execute %s', who, case when who = 'service_role' then 'may' else 'may not' end, f.name));
    end loop;
  end loop;
end $fn$;
select * from pg_temp.executable_by_service_only();

-- ---------------------------------------------------------------------------------------------
-- Who reads what.
-- ---------------------------------------------------------------------------------------------
create function pg_temp.reads(who text, payments int[], invoices text[], refunds int, intents int)
returns setof text language plpgsql as $fn$
declare
  seen int[];
  seen_text text[];
  n int;
begin
  -- Dynamic statements: a plan cached under one role must not answer for the next one.
  execute 'select coalesce(array_agg(deal_id::int order by deal_id), ''{}'') from public.deal_payments' into seen;
  return next is(seen, payments, who || ' reads exactly the payments of deals ' || payments::text);
  execute 'select coalesce(array_agg(deal_id || '':'' || series order by deal_id, series), ''{}'') from public.invoices'
    into seen_text;
  return next is(seen_text, invoices, who || ' reads exactly the invoices ' || invoices::text);
  execute 'select count(*)::int from public.refunds' into n;
  return next is(n, refunds, format('%s reads %s refund(s)', who, refunds));
  execute 'select count(*)::int from public.payment_intents' into n;
  return next is(n, intents, format('%s reads %s payment intent(s)', who, intents));
end $fn$;

create function pg_temp.service_tables_hidden(who text) returns setof text language plpgsql as $fn$
declare
  t text;
begin
  foreach t in array array['invoice_counters', 'provider_events', 'simulated_payment_intents'] loop
    return next throws_ok(format('select * from public.%I', t), '42501', format('permission denied for table %s', t),
      format('%s cannot read %s', who, t));
  end loop;
end $fn$;

select tests.act_as_anon();
select throws_ok($$select * from public.deal_payments$$, '42501', 'permission denied for table deal_payments',
  'anon reads no payment');
select throws_ok($$select * from public.invoices$$, '42501', 'permission denied for table invoices',
  'anon reads no invoice');
select throws_ok($$select * from public.refunds$$, '42501', 'permission denied for table refunds',
  'anon reads no refund');
select throws_ok($$select * from public.payment_intents$$, '42501', 'permission denied for table payment_intents',
  'anon reads no payment intent');
select * from pg_temp.service_tables_hidden('anon');

select tests.act_as('customer_a');
select * from pg_temp.reads('customer A (its customer documents, never the commission ones)', '{301,305}',
  '{301:AV,301:FA,305:FA}', 0, 0);
select * from pg_temp.service_tables_hidden('customer A');
select tests.act_as('customer_b');
select * from pg_temp.reads('customer B', '{302}', '{302:FA}', 0, 0);
select tests.act_as('partner_a');
select * from pg_temp.reads('partner A (every document of its deals, never a deal still in start)', '{301}',
  '{301:AV,301:CA,301:CO,301:FA}', 0, 0);
select * from pg_temp.service_tables_hidden('partner A');
select tests.act_as('partner_b');
select * from pg_temp.reads('partner B', '{302}', '{302:CO,302:FA}', 0, 0);
select tests.act_as('admin');
select * from pg_temp.reads('the admin', '{301,302,305}',
  '{301:AV,301:CA,301:CO,301:FA,302:CO,302:FA,305:FA}', 1, 5);
select * from pg_temp.service_tables_hidden('the admin');
select tests.act_as_impersonating('admin', 'customer_b');
select * from pg_temp.reads('an admin impersonating customer B', '{302}', '{302:FA}', 0, 0);
select tests.act_as_impersonating('admin', 'partner_a');
select * from pg_temp.reads('an admin impersonating partner A', '{301}', '{301:AV,301:CA,301:CO,301:FA}', 0, 0);
select tests.act_as_service();
select * from pg_temp.reads('service_role', '{301,302,305}', '{301:AV,301:CA,301:CO,301:FA,302:CO,302:FA,305:FA}', 1, 5);

-- ---------------------------------------------------------------------------------------------
-- Nobody but the service role writes.
-- ---------------------------------------------------------------------------------------------
create function pg_temp.writes_denied(who text) returns setof text language plpgsql as $fn$
declare
  t record;
  statements text[];
  s text;
  refused boolean;
  r record;
  report text;
begin
  for t in select * from (values
      ('payment_intents', $$insert into public.payment_intents (id, provider, deal_id, kind, amount, idempotency_key)
         values ('pi_x', 'stripe', 301, 'total', 100, 'k')$$, 'status = ''succeeded''', 'pi_301'),
      ('deal_payments', $$insert into public.deal_payments (deal_id, kind, amount, method) values (301, 'total', 100, 'manual')$$,
         'refunded_amount = 0', 'd1000000-0000-4000-8000-000000000301'),
      ('invoice_counters', $$insert into public.invoice_counters (series, issuer, year) values ('FA', 'platform', 2099)$$,
         'last_number = 0', null),
      ('invoices', $$insert into public.invoices (series, issuer, year, sequence, number, kind, deal_id, total_ht,
         total_vat, total_ttc, document) values ('FA', 'platform', 2099, 1, 'FA-X', 'full', 301, 1, 0, 1, '{}')$$,
         'total_ttc = 0', 'f1000000-0000-4000-8000-000000000001'),
      ('refunds', $$insert into public.refunds (payment_id, amount) values ('d1000000-0000-4000-8000-000000000301', 1)$$,
         'status = ''failed''', 'e1000000-0000-4000-8000-000000000301'),
      ('provider_events', $$insert into public.provider_events (id, provider, type) values ('evt_x', 'stripe', 'x')$$,
         'type = ''x''', 'evt_301'),
      ('simulated_payment_intents', $$insert into public.simulated_payment_intents (id, amount) values ('pi_sim_x', 1)$$,
         'status = ''succeeded''', 'pi_sim_301')) v (name, ins, sets, id) loop
    statements := array[t.ins,
      format('update public.%I set %s', t.name, t.sets),
      format('delete from public.%I', t.name)];
    refused := true;
    report := '';
    foreach s in array statements loop
      select * into r from tests.try(s);
      if r.state <> '42501' then
        refused := false;
        report := report || format(E'\n    %s: %s %s', split_part(trim(s), ' ', 1), r.state,
          coalesce(r.message, format('changed %s row(s)', r.n)));
      end if;
    end loop;
    return next ok(refused, format('%s cannot insert, update nor delete %s', who, t.name))
      || case when refused then '' else E'\n' || diag(report) end;
  end loop;
end $fn$;

select tests.act_as_anon();
select * from pg_temp.writes_denied('anon');
select tests.act_as('customer_a');
select * from pg_temp.writes_denied('customer A');
select tests.act_as('partner_a');
select * from pg_temp.writes_denied('partner A');
select tests.act_as('admin');
select * from pg_temp.writes_denied('the admin');

-- And the recorders are refused to them when called directly.
create function pg_temp.recorders_denied(who text) returns setof text language plpgsql as $fn$
begin
  return next tests.denied($$select * from public.record_payment(303, 'total', 50000, 'manual', null, null, null)$$,
    who || ' cannot call record_payment');
  return next tests.denied($$select * from public.record_card_payment('stripe', 'pi_303', 'succeeded', 50000, 'eur')$$,
    who || ' cannot call record_card_payment');
  return next tests.denied($$select * from public.record_refund('stripe', 're_x', 'pi_301', 100, 'succeeded')$$,
    who || ' cannot call record_refund');
  return next tests.denied($$select public.next_invoice_number('FA', 'platform', 2030)$$,
    who || ' cannot call next_invoice_number');
end $fn$;
select tests.act_as_anon();
select * from pg_temp.recorders_denied('anon');
select tests.act_as('customer_a');
select * from pg_temp.recorders_denied('customer A, the deal''s customer');
select tests.act_as('admin');
select * from pg_temp.recorders_denied('the admin');

-- The service role writes (its use cases check the actor first).
select tests.act_as_service();
select * from tests.changes($$insert into public.provider_events (id, provider, type) values ('evt_y', 'stripe', 'y')$$,
  1, 'the service role keeps a webhook event');
select * from tests.changes($$update public.refunds set last_error = 'x' where id = 'e1000000-0000-4000-8000-000000000301'$$,
  1, 'the service role updates a refund');

-- ---------------------------------------------------------------------------------------------
-- record_card_payment: recorded once, only succeeded intents this app created, the deal moved.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_service();
select is_empty($$select * from public.record_card_payment('stripe', 'pi_303', 'requires_payment_method', 50000, 'eur')$$,
  'an intent not succeeded records nothing');
select is((select status from public.payment_intents where id = 'pi_303'), 'requires_payment_method',
  'the intent''s status is kept');
select is_empty($$select * from public.record_card_payment('stripe', 'pi_unknown', 'succeeded', 50000, 'eur')$$,
  'an intent this app never created records nothing');
select is_empty($$select * from public.record_card_payment('simulated', 'pi_303', 'succeeded', 50000, 'eur')$$,
  'an intent of another provider records nothing');
select is((select count(*)::int from public.deal_payments where deal_id = 303), 0, 'deal 303 has no payment yet');

create temp table first_call on commit drop as
  select * from public.record_card_payment('stripe', 'pi_303', 'succeeded', 50000, 'eur');
select results_eq($$select recorded, deal_id::int, kind from first_call$$, $$values (true, 303, 'total')$$,
  'the first report of a succeeded intent records it');
create temp table second_call on commit drop as
  select * from public.record_card_payment('stripe', 'pi_303', 'succeeded', 50000, 'eur');
select results_eq($$select recorded, payment_id from second_call$$, $$select false, payment_id from first_call$$,
  'the second report finds the same payment and records nothing');
select is((select count(*)::int from public.deal_payments where provider = 'stripe' and provider_payment_id = 'pi_303'), 1,
  'one payment for the intent');
select results_eq(
  $$select status, paid_at is not null, total_amount_paid, deposit_paid_at is null from public.deals where id = 303$$,
  $$values ('pay_total'::text, true, 50000::bigint, true)$$,
  'the total moves the deal to pay_total with paidAt and the amount paid');
select results_eq($$select action, to_status from public.deal_status_changes where deal_id = 303 and to_status = 'pay_total'$$,
  $$values ('card_pay_total'::text, 'pay_total'::text)$$, 'the history names the card payment');
select is((select status from public.payment_intents where id = 'pi_303'), 'succeeded', 'the intent is succeeded');

-- A deposit, then the balance.
select results_eq($$select recorded from public.record_card_payment('stripe', 'pi_304_dep', 'succeeded', 15000, 'eur')$$,
  $$values (true)$$, 'the deposit is recorded');
select results_eq($$select recorded from public.record_card_payment('stripe', 'pi_304_dep', 'succeeded', 15000, 'eur')$$,
  $$values (false)$$, 'the deposit reported again is not');
select results_eq(
  $$select status, deposit_paid_at is not null, deposit_amount, paid_at is null from public.deals where id = 304$$,
  $$values ('pay_partial'::text, true, 15000::bigint, true)$$, 'the deposit moves the deal to pay_partial');
select results_eq($$select recorded from public.record_card_payment('stripe', 'pi_304_bal', 'succeeded', 35000, 'eur')$$,
  $$values (true)$$, 'the balance is recorded');
select results_eq(
  $$select status, paid_at is not null, total_amount_paid, deposit_amount from public.deals where id = 304$$,
  $$values ('pay_total'::text, true, 50000::bigint, 15000::bigint)$$,
  'the balance moves the deal to pay_total, totalAmountPaid = deposit + balance');
select is((select count(*)::int from public.deal_payments where deal_id = 304), 2, 'two payments, once each');
-- A late 'failed' report of an intent that succeeded changes nothing recorded.
select is_empty($$select * from public.record_card_payment('stripe', 'pi_304_bal', 'requires_payment_method', 35000, 'eur')$$,
  'a late failure report records nothing');
select results_eq($$select status, total_amount_paid from public.deals where id = 304$$,
  $$values ('pay_total'::text, 50000::bigint)$$, 'and undoes nothing');

-- record_payment directly: the same provider id twice is one payment.
select results_eq($$select count(*)::int from (
    select * from public.record_payment(304, 'total', 100, 'card', 'stripe', 'pi_304_bal', null)) r where recorded$$,
  $$values (0)$$, 'record_payment finds a provider payment already recorded');

-- ---------------------------------------------------------------------------------------------
-- record_refund: the refunded amount grows once, whatever the reports and their order.
-- ---------------------------------------------------------------------------------------------
insert into public.refunds (id, payment_id, amount, status)
select 'e1000000-0000-4000-8000-000000000303', id, 10000, 'pending' from public.deal_payments where provider_payment_id = 'pi_303';
select results_eq($$select succeeded_now from public.record_refund('stripe', 're_303', 'pi_303', 10000, 'pending',
    'e1000000-0000-4000-8000-000000000303')$$, $$values (false)$$, 'a pending refund is not counted');
select is((select refunded_amount from public.deal_payments where provider_payment_id = 'pi_303'), 0::bigint,
  'nothing refunded yet');
select results_eq($$select refund_id, succeeded_now from public.record_refund('stripe', 're_303', 'pi_303', 10000,
    'succeeded', 'e1000000-0000-4000-8000-000000000303')$$,
  $$values ('e1000000-0000-4000-8000-000000000303'::uuid, true)$$, 'the first success report counts it');
select results_eq($$select refund_id, succeeded_now from public.record_refund('stripe', 're_303', 'pi_303', 10000,
    'succeeded', null)$$,
  $$values ('e1000000-0000-4000-8000-000000000303'::uuid, false)$$, 'a second report (a webhook) finds it');
select results_eq($$select refund_id, succeeded_now from public.record_refund('stripe', 're_303', 'pi_303', 10000,
    'succeeded', 'e1000000-0000-4000-8000-000000000303')$$,
  $$values ('e1000000-0000-4000-8000-000000000303'::uuid, false)$$, 'a third report changes nothing');
select results_eq($$select succeeded_now from public.record_refund('stripe', 're_303', 'pi_303', 10000, 'pending', null)$$,
  $$values (false)$$, 'a stale pending report changes nothing');
select is((select refunded_amount from public.deal_payments where provider_payment_id = 'pi_303'), 10000::bigint,
  'refunded_amount grew once');
select results_eq($$select status, provider_refund_id, succeeded_at is not null from public.refunds
    where id = 'e1000000-0000-4000-8000-000000000303'$$, $$values ('succeeded'::text, 're_303'::text, true)$$,
  'the refund is succeeded with the provider''s id');
-- The webhook first, without our id in the metadata: a refund made at the provider (dashboard).
select results_eq($$select succeeded_now from public.record_refund('stripe', 're_303b', 'pi_303', 5000, 'succeeded', null)$$,
  $$values (true)$$, 'a refund made at the provider is recorded');
select results_eq($$select succeeded_now from public.record_refund('stripe', 're_303b', 'pi_303', 5000, 'succeeded', null)$$,
  $$values (false)$$, 'and counted once');
select is((select refunded_amount from public.deal_payments where provider_payment_id = 'pi_303'), 15000::bigint,
  'refunded_amount = both refunds');
select is((select count(*)::int from public.refunds r join public.deal_payments p on p.id = r.payment_id
  where p.provider_payment_id = 'pi_303'), 2, 'two refund rows, one per provider refund');
-- A succeeded refund the provider reports failed after all no longer counts, even if a stale
-- 'succeeded' report of it arrives afterwards.
select results_eq($$select succeeded_now from public.record_refund('stripe', 're_303b', 'pi_303', 5000, 'failed', null)$$,
  $$values (false)$$, 'a succeeded refund reported failed');
select is((select refunded_amount from public.deal_payments where provider_payment_id = 'pi_303'), 10000::bigint,
  'no longer counts in refunded_amount');
select results_eq($$select succeeded_now from public.record_refund('stripe', 're_303b', 'pi_303', 5000, 'succeeded', null)$$,
  $$values (false)$$, 'a late succeeded report of it is ignored');
select results_eq($$select r.status, r.reversed_at is not null, p.refunded_amount from public.refunds r
    join public.deal_payments p on p.id = r.payment_id where r.provider_refund_id = 're_303b'$$,
  $$values ('failed'::text, true, 10000::bigint)$$, 'it stays failed and reversed');
-- The provider's answer names our row (metadata.refundId) after a webhook already recorded it: one row.
insert into public.refunds (id, payment_id, amount, status)
select 'e1000000-0000-4000-8000-000000000304', id, 1000, 'pending' from public.deal_payments where provider_payment_id = 'pi_304_bal';
select results_eq($$select refund_id, succeeded_now from public.record_refund('stripe', 're_304', 'pi_304_bal', 1000,
    'succeeded', 'e1000000-0000-4000-8000-000000000304')$$,
  $$values ('e1000000-0000-4000-8000-000000000304'::uuid, true)$$, 'the webhook with our id counts our row');
select results_eq($$select refund_id, succeeded_now from public.record_refund('stripe', 're_304', 'pi_304_bal', 1000,
    'succeeded', 'e1000000-0000-4000-8000-000000000304')$$,
  $$values ('e1000000-0000-4000-8000-000000000304'::uuid, false)$$, 'the refund job''s own report then finds it');
select results_eq($$select count(*)::int, sum(refunded_amount)::int from public.deal_payments p
    where p.provider_payment_id = 'pi_304_bal'$$, $$values (1, 1000)$$, 'one payment refunded once');
select is_empty($$select * from public.record_refund('stripe', 're_unknown', 'pi_unknown', 100, 'succeeded', null)$$,
  'a refund of an unknown payment records nothing');

-- ---------------------------------------------------------------------------------------------
-- next_invoice_number: gap-free, per series, issuer and year.
-- ---------------------------------------------------------------------------------------------
select results_eq($$select public.next_invoice_number('FA', 'platform', 2031) from generate_series(1, 3)$$,
  $$values (1), (2), (3)$$, 'FA numbers for an issuer and a year: 1, 2, 3');
select is(public.next_invoice_number('FA', tests.user_id('partner_a')::text, 2031), 1,
  'another issuer has its own sequence');
select is(public.next_invoice_number('FA', 'platform', 2032), 1, 'another year starts again at 1');
select is(public.next_invoice_number('AV', 'platform', 2031), 1, 'another series has its own sequence');
select is(public.next_invoice_number('FA', 'platform', 2030), 8, 'an existing counter goes on');
select is((tests.try($$select public.next_invoice_number('FA', 'platform', 2031)$$)).state, '00000',
  'a number taken in a rolled-back issue…');
select is(public.next_invoice_number('FA', 'platform', 2031), 4, '…is given back: no gap');
select is(public.next_invoice_number('FA', 'platform', 2031), 5, 'then the next one');

-- ---------------------------------------------------------------------------------------------
-- An issued invoice is never changed nor deleted, whoever asks.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_service();
select * from tests.denied($$update public.invoices set total_ttc = 0 where id = 'f1000000-0000-4000-8000-000000000001'$$,
  'the service role cannot change an issued invoice');
select * from tests.denied($$delete from public.invoices where id = 'f1000000-0000-4000-8000-000000000003'$$,
  'the service role cannot delete a credit note');
select * from tests.changes($$insert into public.invoices (series, issuer, year, sequence, number, kind, deal_id,
    total_ht, total_vat, total_ttc, document) values ('FA', 'platform', 2099, 1, 'FA-2099-CC-00001', 'full', 303, 1, 0, 1, '{}')$$,
  1, 'the service role issues invoices');
select tests.reset_role();
select throws_ok($$update public.invoices set document = '{"changed": true}' where id = 'f1000000-0000-4000-8000-000000000005'$$,
  '42501', 'an issued invoice cannot be changed or deleted; issue a credit note',
  'not even the database owner changes an invoice');
select throws_ok($$delete from public.invoices where deal_id = 302$$,
  '42501', 'an issued invoice cannot be changed or deleted; issue a credit note',
  'nor deletes one');
select is((select count(*)::int from public.invoices where id::text like 'f1000000-%'), 7, 'every invoice is still there');

select * from finish();
rollback;
