-- Invoices an accountant signs off (migration 20261128007000_invoices_signoff.sql): an invoice's issue
-- time is its number's, taken under the counter's lock (not the transaction's start), so numbers and
-- times of a series run together; a partner cannot switch its VAT status under open quotes priced the
-- other way (the system can); the new functions are the service role's only.
begin;
select plan(14);

select tests.create_user('Company', 'partner_a'), tests.create_user('Customer', 'customer_a');
insert into public.deals (id, name, status, company_id, customer_id, admin_settings, parameters) values
  (701, 'D701', 'send', tests.user_id('partner_a'), tests.user_id('customer_a'), '{}', '{"vat": 20}'),
  (702, 'D702', 'refused', tests.user_id('partner_a'), tests.user_id('customer_a'), '{}', '{"vat": 0}');

-- 1. Issue times. The transaction started before this sleep: now() is earlier than the number's time.
select pg_sleep(0.05);
select is(public.next_invoice_number('FA', tests.user_id('partner_a')::text, 2099), 1, 'the first number');
insert into public.invoices (series, issuer, year, sequence, number, kind, deal_id, total_ht, total_vat, total_ttc, document)
values ('FA', tests.user_id('partner_a')::text, 2099, 1, 'FA-2099-T-00001', 'deposit', 701, 100, 20, 120, '{}');
select ok((select issued_at > now() from public.invoices where number = 'FA-2099-T-00001'),
  'the issue time is taken with the number, not at the transaction''s start');
select is((select issued_at from public.invoices where number = 'FA-2099-T-00001'),
  (select last_issued_at from public.invoice_counters where series = 'FA' and year = 2099),
  'it is the counter''s stamp for that number');
select pg_sleep(0.01);
select is(public.next_invoice_number('FA', tests.user_id('partner_a')::text, 2099), 2, 'the next number');
insert into public.invoices (series, issuer, year, sequence, number, kind, deal_id, total_ht, total_vat, total_ttc, document)
values ('FA', tests.user_id('partner_a')::text, 2099, 2, 'FA-2099-T-00002', 'final', 701, 100, 20, 120, '{}');
select ok((select (select issued_at from public.invoices where number = 'FA-2099-T-00002')
                > (select issued_at from public.invoices where number = 'FA-2099-T-00001')),
  'a later number has a later time');

-- 2. The VAT status guard.
update public.users set vat_number = 'FR32123456789' where id = tests.user_id('partner_a');
select tests.act_as('partner_a');
select throws_ok($$update public.users set vat_exemption = true where id = auth.uid()$$, 'VT409', null,
  'a partner cannot switch to the exemption while a quote priced with VAT is open');
select throws_ok($$update public.users set vat_number = null where id = auth.uid()$$, 'VT409', null,
  'nor remove its VAT number while a quote priced with VAT is open');
select tests.reset_role();
update public.deals set status = 'pay_total' where id = 701;
select tests.act_as('partner_a');
select lives_ok($$update public.users set vat_exemption = true where id = auth.uid()$$,
  'it can once no such quote is open (a refused one priced without VAT does not count)');
select tests.reset_role();
update public.deals set status = 'send' where id = 702;
select tests.act_as('partner_a');
select throws_ok($$update public.users set vat_exemption = false where id = auth.uid()$$, 'VT409', null,
  'nor back to VAT while a quote priced without VAT is open');
select tests.act_as_service();
select lives_ok($$update public.users set vat_exemption = false where id = tests.user_id('partner_a')$$,
  'the system''s own maintenance is not guarded');
select tests.reset_role();

-- 3. Privileges: the service role's only.
select ok(not has_function_privilege('authenticated', 'public.next_invoice_number(text, text, integer)', 'execute'),
  'authenticated cannot take invoice numbers');
select ok(not has_function_privilege('anon', 'public.open_quotes_against_vat_status(uuid, boolean)', 'execute'),
  'anon cannot list open quotes');
select ok(not has_function_privilege('authenticated', 'public.open_quotes_against_vat_status(uuid, boolean)', 'execute'),
  'authenticated cannot list open quotes');
select ok(has_function_privilege('service_role', 'public.cancel_registration(uuid, text, uuid)', 'execute'),
  'the service role cancels registrations');

select * from finish();
rollback;
