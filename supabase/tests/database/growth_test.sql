-- Growth (supabase/migrations/20261128006000_growth_indexes.sql): the integration switch table's rights,
-- set_crm_sync() and crm_sync_enabled() for the system only, the deals trigger queueing nothing while
-- the HubSpot sync is off (and purging what was pending), admin_deal_search() and admin_deal_count()
-- for admins only, their answers, and the indexes the lists read. Users and identity switches come
-- from supabase/tests/helpers.sql.
begin;
select plan(49);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Company', 'partner_a');
insert into public.deals (id, name, status, company_id, customer_id, hubspot_id) values
  (8801, 'Mariage Zéphyrin', 'send', tests.user_id('partner_a'), tests.user_id('customer_a'), '990001'),
  (8802, 'Séminaire Octave', 'start', null, null, '42'),
  (8803, 'Anniversaire Zéphyrin', 'new', null, null, null);
insert into public.deal_contacts (deal_id, firstname, lastname, email, search_text) values
  (8801, 'Élodie', 'Perrin', 'elodie@exemple.fr', '8801 mariage zephyrin elodie perrin elodie@exemple.fr 990001'),
  (8802, 'Jean', 'Martin', 'jean@exemple.fr', '8802 seminaire octave jean martin jean@exemple.fr 42'),
  (8803, 'Léa', 'Robin', 'lea@exemple.fr', '8803 anniversaire zephyrin lea robin lea@exemple.fr');

delete from public.integration_switches;

-- ---------------------------------------------------------------------------------------------
-- Structure and rights
-- ---------------------------------------------------------------------------------------------
select ok((select relrowsecurity from pg_class where oid = 'public.integration_switches'::regclass),
  'RLS is enabled on integration_switches');
select policies_are('public', 'integration_switches', array['Admins can read the integration switches'],
  'integration_switches has exactly one policy');
select table_privs_are('public', 'integration_switches', 'anon', array[]::text[], 'anon: nothing on the switches');
select table_privs_are('public', 'integration_switches', 'authenticated', array['SELECT'],
  'authenticated may only read the switches (RLS keeps it to admins)');
select table_privs_are('public', 'integration_switches', 'service_role', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
  'service_role writes the switches');
select has_index('public', 'deals', 'deals_total_ht_id_idx', 'deals indexed by amount for the list');
select has_index('public', 'deals', 'deals_service_date_asc_idx', 'deals indexed by service date, ascending');
select has_index('public', 'deals', 'deals_service_date_desc_idx', 'deals indexed by service date, descending');
select ok(
  not exists (select from pg_available_extensions where name = 'pg_trgm')
  or exists (select from pg_indexes where indexname = 'deal_contacts_search_trgm_idx'),
  'the search text has its trigram index wherever pg_trgm exists');

create function pg_temp.privs(fn name, args name[], service text[], authenticated text[]) returns setof text
language plpgsql as $fn$
begin
  return next function_privs_are('public', fn, args, 'anon', array[]::text[], format('anon: %s', fn));
  return next function_privs_are('public', fn, args, 'authenticated', authenticated, format('authenticated: %s', fn));
  return next function_privs_are('public', fn, args, 'service_role', service, format('service_role: %s', fn));
  return next is_definer('public', fn, args, format('%s is security definer', fn));
end $fn$;
select * from pg_temp.privs('set_crm_sync', array['boolean'], array['EXECUTE'], array[]::text[]);
select * from pg_temp.privs('crm_sync_enabled', array[]::name[], array['EXECUTE'], array[]::text[]);
select * from pg_temp.privs('admin_deal_search', array['text[]', 'text[]'], array['EXECUTE'], array['EXECUTE']);
select * from pg_temp.privs('admin_deal_count', array['text[]', 'text[]', 'date', 'date'], array['EXECUTE'],
  array['EXECUTE']);

-- ---------------------------------------------------------------------------------------------
-- The HubSpot switch
-- ---------------------------------------------------------------------------------------------
select tests.act_as_service();
select ok(public.crm_sync_enabled(), 'no row: the sync is on (as before the switch)');
delete from outbox.jobs where queue = 'crm-sync';
update public.deals set name = 'Mariage Zéphyrin bis' where id = 8801;
select is((select count(*)::int from outbox.jobs where queue = 'crm-sync' and key = 'deal-8801' and state = 'pending'),
  1, 'on: a change queues the deal''s sync');
select is(public.set_crm_sync(false), 1, 'turning it off purges the pending sync');
select ok(not public.crm_sync_enabled(), 'off is recorded');
update public.deals set name = 'Mariage Zéphyrin ter' where id = 8801;
insert into public.deals (id, name, status) values (8804, 'Nouveau', 'start');
select is((select count(*)::int from outbox.jobs where queue = 'crm-sync'), 0, 'off: neither a change nor a new deal queues');
select is(public.set_crm_sync(false), 0, 'off again: nothing left to purge');
select is(public.set_crm_sync(true), 0, 'turning it on purges nothing');
update public.deals set name = 'Mariage Zéphyrin' where id = 8801;
select is((select count(*)::int from outbox.jobs where queue = 'crm-sync' and state = 'pending'), 1,
  'on again: a change queues its sync');
select tests.reset_role();

select tests.act_as('admin');
select tests.denied($$select public.set_crm_sync(false)$$, 'an admin cannot turn the sync off through SQL');
select is((select count(*)::int from public.integration_switches), 1, 'an admin reads the switch');
select tests.act_as('partner_a');
select is((select count(*)::int from public.integration_switches), 0, 'a partner reads no switch');
select tests.denied($$update public.integration_switches set enabled = false$$, 'a partner cannot write it');

-- ---------------------------------------------------------------------------------------------
-- The admin list's search and count
-- ---------------------------------------------------------------------------------------------
select tests.act_as('admin');
select results_eq($$select id from public.admin_deal_search(array['%zephyrin%'], '{}') order by id$$,
  array[8801::bigint, 8803], 'a word finds every deal whose search text has it');
select results_eq($$select id from public.admin_deal_search(array['%zephyrin%', '%perrin%'], '{}')$$,
  array[8801::bigint], 'every word must match');
select results_eq($$select id from public.admin_deal_search('{}', array['42'])$$,
  array[8802::bigint], 'a short number is a HubSpot id (or a deal number), exactly');
select is_empty($$select id from public.admin_deal_search('{}', '{}')$$, 'no search: no id');
select is(public.admin_deal_count(array['%zephyrin%'], '{}', null, null), 2, 'the count of a search');
select ok(public.admin_deal_count('{}', '{}', null, null) >= 4, 'the count of every deal');
select is(public.admin_deal_count('{}', '{}', current_date + 1, null), 0, 'a date filter counts');
select throws_ok($$select * from public.admin_deal_search(array['%a%'], array['1; drop table x'])$$, '22023',
  null, 'a number that is not one is refused');

select tests.act_as('customer_a');
select tests.denied($$select * from public.admin_deal_search(array['%zephyrin%'], '{}')$$,
  'a customer cannot search every deal');
select tests.denied($$select public.admin_deal_count('{}', '{}', null, null)$$, 'a customer cannot count every deal');
select tests.act_as('partner_a');
select tests.denied($$select * from public.admin_deal_search(array['%zephyrin%'], '{}')$$,
  'a partner cannot search every deal');
select tests.act_as_anon();
select tests.denied($$select public.admin_deal_count('{}', '{}', null, null)$$, 'anon cannot count deals');
select tests.reset_role();

select * from finish();
rollback;
