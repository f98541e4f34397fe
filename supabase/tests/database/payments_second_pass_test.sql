-- Payments, second pass (supabase/migrations/20261127000000_payments_second_pass.sql): a deal never
-- keeps more than it owes. deal_amount_due; a superseded intent paid anyway is an overpayment, recorded
-- and refunded automatically (a pending automatic refund, logged), the deal untouched; a second payment
-- the deal does not owe likewise; a manual payment that does not fit is refused; a refusal supersedes
-- the open intents and enqueues their cancel; refunds never exceed what is refundable, pending ones
-- counted; the new functions executable by the service role only.
begin;
select plan(46);

select tests.create_user('Customer', 'customer_m'), tests.create_user('Company', 'partner_m');

insert into public.deals (id, name, status, company_id, customer_id, admin_settings, lines, properties, totals) values
  (401, 'D401', 'send', tests.user_id('partner_m'), tests.user_id('customer_m'), '{}', '[]', '{}', '{"totalTTC": 50000}'),
  (402, 'D402', 'send', tests.user_id('partner_m'), tests.user_id('customer_m'), '{}', '[]', '{}', '{"totalTTC": 50000}'),
  (403, 'D403', 'send', tests.user_id('partner_m'), tests.user_id('customer_m'), '{}', '[]', '{}', '{"totalTTC": 50000}'),
  (404, 'D404', 'send', tests.user_id('partner_m'), tests.user_id('customer_m'), '{}', '[]', '{}', '{"totalTTC": 50000}'),
  (405, 'D405', 'send', tests.user_id('partner_m'), tests.user_id('customer_m'), '{}', '[]', '{}', '{"totalTTC": 50000}'),
  (406, 'D406', 'send', tests.user_id('partner_m'), tests.user_id('customer_m'), '{}', '[]', '{}', '{"totalTTC": 50000}');
insert into public.payment_intents (id, provider, deal_id, customer_id, kind, amount, status, idempotency_key) values
  ('pi_401_dep', 'stripe', 401, tests.user_id('customer_m'), 'deposit', 15000, 'requires_payment_method', 'k401d'),
  ('pi_401_full', 'stripe', 401, tests.user_id('customer_m'), 'total', 50000, 'requires_payment_method', 'k401f'),
  ('pi_403', 'stripe', 403, tests.user_id('customer_m'), 'total', 50000, 'requires_payment_method', 'k403'),
  ('pi_404_full', 'stripe', 404, tests.user_id('customer_m'), 'total', 50000, 'requires_payment_method', 'k404f'),
  ('pi_404_dep', 'stripe', 404, tests.user_id('customer_m'), 'deposit', 15000, 'requires_payment_method', 'k404d'),
  ('pi_405', 'stripe', 405, tests.user_id('customer_m'), 'total', 50000, 'requires_payment_method', 'k405');

-- The new functions: the service role only.
create function pg_temp.executable_by_service_only() returns setof text language plpgsql as $fn$
declare
  f record;
  who text;
begin
  for f in select * from (values
      ('deal_amount_due', array['bigint']),
      ('refund_overpayment', array['uuid', 'text']),
      ('supersede_open_intents', array['bigint', 'text']),
      ('record_overpayment', array['bigint', 'text', 'bigint', 'text', 'text', 'uuid', 'timestamp with time zone', 'text'])
    ) t (name, args) loop
    foreach who in array array['anon', 'authenticated'] loop
      return next function_privs_are('public', f.name, f.args, who, array[]::text[],
        format('%s may not execute %s', who, f.name));
    end loop;
  end loop;
end $fn$;
select * from pg_temp.executable_by_service_only();
select tests.act_as('customer_m');
select tests.denied($$select public.supersede_open_intents(401, null)$$, 'a customer cannot supersede intents');
select tests.denied($$select public.deal_amount_due(401)$$, 'a customer cannot call deal_amount_due');

select tests.act_as_service();
select is(public.deal_amount_due(401), 50000::bigint, 'nothing paid: the whole total is due');

-- A new intent supersedes the other open ones and enqueues their cancel at the provider.
select is(public.supersede_open_intents(401, 'pi_401_full'), 1, 'the deposit intent is superseded');
select ok((select superseded_at is not null from public.payment_intents where id = 'pi_401_dep'), 'marked superseded');
select ok((select superseded_at is null from public.payment_intents where id = 'pi_401_full'), 'the kept one is not');
select is((select count(*)::int from outbox.jobs where queue = 'payment-intent-cancel' and payload ->> 'intentId' = 'pi_401_dep'
  and state = 'pending'), 1, 'its cancel is enqueued in the outbox');

-- The superseded intent is paid anyway (the provider race): recorded, not counted, refunded.
select results_eq($$select recorded, overpayment from public.record_card_payment('stripe', 'pi_401_dep', 'succeeded', 15000, 'eur')$$,
  $$values (true, true)$$, 'a superseded intent paid anyway is recorded as an overpayment');
select results_eq($$select status, deposit_paid_at is null, paid_at is null from public.deals where id = 401$$,
  $$values ('send'::text, true, true)$$, 'the deal does not count it');
select results_eq($$select r.amount, r.status, r.automatic from public.refunds r join public.deal_payments p on p.id = r.payment_id
    where p.provider_payment_id = 'pi_401_dep'$$,
  $$values (15000::bigint, 'pending'::text, true)$$, 'an automatic refund of the whole payment is pending');
select is((select count(*)::int from public.logs where message = 'Trop-perçu remboursé automatiquement'
  and context ->> 'dealId' = '401'), 1, 'logged for the admins');
select results_eq($$select recorded, overpayment from public.record_card_payment('stripe', 'pi_401_dep', 'succeeded', 15000, 'eur')$$,
  $$values (false, true)$$, 'reported again: the same overpayment, nothing more');
select is((select count(*)::int from public.refunds r join public.deal_payments p on p.id = r.payment_id
  where p.provider_payment_id = 'pi_401_dep'), 1, 'one automatic refund');
select results_eq($$select recorded, overpayment from public.record_card_payment('stripe', 'pi_401_full', 'succeeded', 50000, 'eur')$$,
  $$values (true, false)$$, 'the kept intent is counted');
select results_eq($$select status, paid_at is not null, total_amount_paid from public.deals where id = 401$$,
  $$values ('pay_total'::text, true, 50000::bigint)$$, 'the deal is paid, its total and no more');
select is(public.deal_amount_due(401), 0::bigint, 'nothing due any more');

-- Both intents open and both paid (no supersede in between): the second one is not owed.
select results_eq($$select overpayment from public.record_card_payment('stripe', 'pi_404_full', 'succeeded', 50000, 'eur')$$,
  $$values (false)$$, 'the full payment counts');
select results_eq($$select overpayment from public.record_card_payment('stripe', 'pi_404_dep', 'succeeded', 15000, 'eur')$$,
  $$values (true)$$, 'a deposit after the full payment is an overpayment');
select results_eq($$select status, deposit_paid_at is null, total_amount_paid from public.deals where id = 404$$,
  $$values ('pay_total'::text, true, 50000::bigint)$$, 'status, depositPaidAt and totalAmountPaid agree');

-- A manual payment that does not fit is refused; the exact total is accepted.
select throws_ok($$select * from public.record_payment(402, 'total', 100050, 'manual', null, null, null)$$, '23514', null,
  'a manual total above the due is refused');
select throws_ok($$select * from public.record_payment(402, 'total', 10050, 'manual', null, null, null)$$, '23514', null,
  'a manual total below the due is refused');
select throws_ok($$select * from public.record_payment(402, 'balance', 50000, 'manual', null, null, null)$$, '23514', null,
  'a balance without a deposit is refused');
select lives_ok($$select * from public.record_payment(402, 'total', 50000, 'manual', null, null, null)$$,
  'the exact total is recorded');
select results_eq($$select status, total_amount_paid from public.deals where id = 402$$,
  $$values ('pay_total'::text, 50000::bigint)$$, 'and pays the deal');

-- Refunds: never beyond what is refundable, pending ones counted.
select lives_ok($$insert into public.refunds (payment_id, amount) select id, 30000 from public.deal_payments where deal_id = 402$$,
  'a first refund within the payment');
select throws_ok($$insert into public.refunds (payment_id, amount) select id, 30000 from public.deal_payments where deal_id = 402$$,
  '23514', null, 'a second one beyond what is left (the first is pending) is refused');

-- A refusal supersedes the open intents; a late success is refunded, the deal stays refused.
update public.deals set status = 'refused_client' where id = 403;
select ok((select superseded_at is not null from public.payment_intents where id = 'pi_403'), 'the refusal supersedes the intent');
select is((select count(*)::int from outbox.jobs where queue = 'payment-intent-cancel' and payload ->> 'intentId' = 'pi_403'), 1,
  'and enqueues its cancel');
select results_eq($$select overpayment from public.record_card_payment('stripe', 'pi_403', 'succeeded', 50000, 'eur')$$,
  $$values (true)$$, 'a refused deal''s intent paid late is an overpayment');
select results_eq($$select status, paid_at is null from public.deals where id = 403$$,
  $$values ('refused_client'::text, true)$$, 'the refused deal is not paid');

-- An edit back to 'pending' supersedes the open intents; a payment landing then is not the deal's.
update public.deals set status = 'pending' where id = 405;
select ok((select superseded_at is not null from public.payment_intents where id = 'pi_405'),
  'leaving the payable statuses supersedes the intent');
update public.payment_intents set superseded_at = null where id = 'pi_405';
select results_eq($$select overpayment from public.record_card_payment('stripe', 'pi_405', 'succeeded', 50000, 'eur')$$,
  $$values (true)$$, 'money for a quote edited back to pending is an overpayment, even for an open intent');
select results_eq($$select status, paid_at is null, total_amount_paid from public.deals where id = 405$$,
  $$values ('pending'::text, true, null::bigint)$$, 'the pending deal is not paid');

-- The money held bounds the total; a deposit of the whole amount due is not a deposit.
select throws_ok($$select * from public.record_payment(406, 'deposit', 50000, 'manual', null, null, null)$$, '23514', null,
  'a deposit of everything due is refused');
select lives_ok($$select * from public.record_payment(406, 'deposit', 15000, 'manual', null, null, null)$$,
  'a deposit below the due is recorded');
select throws_ok($$update public.deals set totals = '{"totalTTC": 15000}' where id = 406$$, '23514', null,
  'the total cannot go down to the deposit received');
select lives_ok($$select * from public.record_payment(406, 'balance', 35000, 'manual', null, null, null)$$,
  'the balance is recorded');
select throws_ok($$update public.deals set totals = '{"totalTTC": 60000}' where id = 406$$, '23514', null,
  'a paid deal keeps its total');

select * from finish();
rollback;
