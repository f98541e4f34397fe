-- Operations (supabase/migrations/20261127007000_operations.sql): the logs page's rights (admins read,
-- delete and clean; nobody else, an impersonating admin included), purge_old_logs() for the nightly
-- job (the system only, rows older than 30 days only), the HubSpot sync state (admins read, the
-- system writes), the deals trigger that queues one coalesced 'crm-sync' job per deal from any role's
-- change but never from a change marked as coming from HubSpot, and queue_crm_pull() (the webhook's,
-- the system only). Users and identity switches come from supabase/tests/helpers.sql.
begin;
select plan(84);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Customer', 'customer_b'), tests.create_user('Company', 'partner_a'),
  tests.create_user('Company', 'partner_b');

delete from public.logs;
insert into public.logs (created_at, service, type, message) values
  (now(), 'hubspot', 'error', 'récent'),
  (now() - interval '29 days', 'stripe', 'warning', 'presque vieux'),
  (now() - interval '31 days', 'smtp', 'error', 'vieux'),
  (now() - interval '90 days', 'jobs', 'info', 'très vieux');
insert into public.deals (id, name, status, company_id, customer_id, hubspot_id) values
  (7001, 'Deal A', 'send', tests.user_id('partner_a'), tests.user_id('customer_a'), '880001'),
  (7002, 'Deal B', 'start', null, null, null);
insert into public.crm_deal_sync (deal_id, synced) values (7001, '{"ville": "Lyon"}');
delete from outbox.jobs where queue = 'crm-sync';

-- ---------------------------------------------------------------------------------------------
-- Structure
-- ---------------------------------------------------------------------------------------------
select ok((select relrowsecurity from pg_class where oid = 'public.crm_deal_sync'::regclass),
  'RLS is enabled on crm_deal_sync');
select policies_are('public', 'crm_deal_sync', array['Admins can read the HubSpot sync state'],
  'crm_deal_sync has exactly one policy');
select table_privs_are('public', 'crm_deal_sync', 'anon', array[]::text[], 'anon: nothing on crm_deal_sync');
select table_privs_are('public', 'crm_deal_sync', 'authenticated', array['SELECT'],
  'authenticated may only read crm_deal_sync (RLS keeps it to admins)');
select table_privs_are('public', 'crm_deal_sync', 'service_role', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
  'service_role writes crm_deal_sync');
select hasnt_table('public', 'crm_outbox', 'the former CRM outbox is gone');
select policies_are('public', 'log_counts', array['Admins can read the log counts'], 'log_counts has exactly one policy');
select table_privs_are('public', 'log_counts', 'authenticated', array['SELECT'],
  'authenticated may only read log_counts (RLS keeps it to admins)');
select table_privs_are('public', 'log_counts', 'anon', array[]::text[], 'anon: nothing on log_counts');
select is_definer('public', 'count_logs', array[]::name[], 'count_logs is security definer');
select function_privs_are('public', 'count_logs', array[]::name[], 'authenticated', array[]::text[],
  'authenticated cannot call count_logs');
select has_index('public', 'logs', 'logs_service_created_idx', 'logs indexed by service, newest first');
select has_index('public', 'logs', 'logs_type_created_idx', 'logs indexed by type, newest first');
select has_trigger('public', 'deals', 'deals_queue_crm_sync', 'deals queue their HubSpot sync');

create function pg_temp.privs(fn name, args name[], service text[], authenticated text[]) returns setof text
language plpgsql as $fn$
begin
  return next function_privs_are('public', fn, args, 'anon', array[]::text[], format('anon: %s', fn));
  return next function_privs_are('public', fn, args, 'authenticated', authenticated, format('authenticated: %s', fn));
  return next function_privs_are('public', fn, args, 'service_role', service, format('service_role: %s', fn));
  return next is_definer('public', fn, args, format('%s is security definer', fn));
end $fn$;
select * from pg_temp.privs('purge_old_logs', array[]::name[], array['EXECUTE'], array[]::text[]);
select * from pg_temp.privs('queue_crm_pull', array['text'], array['EXECUTE'], array[]::text[]);
select * from pg_temp.privs('queue_crm_sync', array[]::name[], array[]::text[], array[]::text[]);

-- ---------------------------------------------------------------------------------------------
-- Logs: only admins read and delete; nobody else calls the purge.
-- ---------------------------------------------------------------------------------------------
create function pg_temp.logs_refused(who text) returns setof text language plpgsql as $fn$
begin
  return next is_empty($$select id from public.logs$$, who || ' reads no log');
  return next tests.changes($$delete from public.logs$$, 0, who || ' deletes no log');
  return next tests.changes($$delete from public.logs where created_at < now() - interval '30 days'$$, 0,
    who || ' cleans no log');
  return next tests.denied($$select public.purge_old_logs()$$, who || ' cannot run the nightly purge');
  return next tests.denied($$insert into public.logs (service, type, message) values ('x', 'info', 'y')$$,
    who || ' writes no log');
end $fn$;
select tests.act_as('customer_a');
select * from pg_temp.logs_refused('customer A');
select tests.act_as('partner_a');
select * from pg_temp.logs_refused('partner A');
select tests.act_as_impersonating('admin', 'partner_b');
select * from pg_temp.logs_refused('an admin impersonating partner B');
select tests.act_as_anon();
select throws_ok($$select id from public.logs$$, '42501', null, 'anon cannot read logs');
select tests.denied($$delete from public.logs$$, 'anon cannot delete logs');
select tests.denied($$select public.purge_old_logs()$$, 'anon cannot run the purge');

select tests.act_as('admin');
select is((select count(*)::integer from public.logs), 4, 'the admin reads every log');
select tests.changes($$delete from public.logs where message = 'récent'$$, 1, 'the admin deletes one log');
select tests.changes($$delete from public.logs where created_at < now() - interval '30 days'$$, 2,
  'the admin''s cleanup deletes the two rows older than 30 days');
select tests.denied($$select public.purge_old_logs()$$, 'the admin goes through RLS, not the system''s purge');
select tests.denied($$update public.logs set message = 'réécrit'$$, 'the admin cannot rewrite a log');

select tests.act_as_service();
select is(public.purge_old_logs(), 2, 'the nightly purge deletes the rows older than 30 days');
select tests.reset_role();
select results_eq($$select message from public.logs order by created_at desc$$,
  array['récent', 'presque vieux'], 'rows of 30 days or less stay');
select results_eq($$select service, type, n::integer from public.log_counts order by service$$,
  $$values ('hubspot', 'error', 1), ('stripe', 'warning', 1)$$,
  'the counts follow inserts and deletes (the purge''s and the admin''s)');
insert into public.logs (service, type, message)
select 'hubspot', (array['error', 'info'])[1 + g % 2], 'n' || g from generate_series(1, 5) g;
select results_eq($$select type, n::integer from public.log_counts where service = 'hubspot' order by type$$,
  $$values ('error', 3), ('info', 3)$$, 'a statement of five rows counts them per type');
select tests.act_as('partner_a');
select is_empty($$select 1 from public.log_counts$$, 'a partner reads no count');
select tests.act_as('admin');
select tests.changes($$delete from public.logs where service = 'hubspot'$$, 6, 'the admin deletes the six hubspot rows');
delete from public.logs where service = 'hubspot';
select is((select count(*)::integer from public.log_counts where service = 'hubspot'), 0,
  'a service without rows leaves the counts');
select tests.reset_role();

-- ---------------------------------------------------------------------------------------------
-- HubSpot sync state: admins read, nobody else.
-- ---------------------------------------------------------------------------------------------
select tests.act_as('admin');
select results_eq($$select synced ->> 'ville' from public.crm_deal_sync$$, array['Lyon'], 'the admin reads the sync state');
select tests.denied($$update public.crm_deal_sync set synced = '{}'$$, 'the admin cannot rewrite it (the worker does)');
select tests.act_as('partner_a');
select is_empty($$select 1 from public.crm_deal_sync$$, 'a partner reads no sync state');
select tests.reset_role();

-- ---------------------------------------------------------------------------------------------
-- The trigger: one job per deal, from any role's change; none from HubSpot's own.
-- ---------------------------------------------------------------------------------------------
create function pg_temp.syncs(deal bigint) returns integer language sql as $$
  select count(*)::integer from outbox.jobs where queue = 'crm-sync' and key = 'deal-' || deal and state = 'pending'
$$;
select tests.act_as('admin');
update public.deals set properties = properties || '{"ville": "Paris"}' where id = 7001;
update public.deals set status = 'accepted' where id = 7001;
update public.deals set name = 'Deal A bis' where id = 7001;
select tests.reset_role();
select is(pg_temp.syncs(7001), 1, 'three changes by the admin: one pending sync');
select is((select payload from outbox.jobs where key = 'deal-7001'), '{"dealId": 7001}'::jsonb, 'its payload names the deal');
delete from outbox.jobs where queue = 'crm-sync';

select tests.act_as('admin');
update public.deals set admin_comments = 'note', map_url = null where id = 7001;
select tests.reset_role();
select is(pg_temp.syncs(7001), 0, 'a change of a field HubSpot does not have queues nothing');

select tests.act_as('partner_a');
update public.deals set properties = properties || '{"acces_a_l_eau": "oui"}' where id = 7001;
select tests.reset_role();
select is(pg_temp.syncs(7001), 1, 'the partner''s change queues it too (through the security-definer trigger)');
delete from outbox.jobs where queue = 'crm-sync';

select tests.act_as_service();
select set_config('app.crm_origin', 'hubspot', true);
update public.deals set name = 'Depuis HubSpot', properties = properties || '{"ville": "Nice"}' where id = 7001;
select set_config('app.crm_origin', '', true);
select tests.reset_role();
select is(pg_temp.syncs(7001), 0, 'a change coming from HubSpot queues nothing (no echo)');

select is((select count(*)::integer from public.crm_deal_sync where deal_id = 7001), 1,
  'a change from HubSpot keeps the sync state');
select tests.act_as('admin');
update public.deals set hubspot_id = '880002' where id = 7001;
select tests.reset_role();
select is(pg_temp.syncs(7001), 1, 'linking the deal to another HubSpot deal queues its sync');
select is((select count(*)::integer from public.crm_deal_sync where deal_id = 7001), 0,
  'and forgets what was agreed with the former one');
update public.deals set hubspot_id = '880001' where id = 7001;

select tests.act_as_service();
insert into public.deals (id, name) values (7003, 'Nouveau');
select tests.reset_role();
select is(pg_temp.syncs(7003), 1, 'a new deal queues its creation in HubSpot');

-- ---------------------------------------------------------------------------------------------
-- queue_crm_pull: the webhook's, as the system.
-- ---------------------------------------------------------------------------------------------
delete from outbox.jobs where queue = 'crm-sync';
select tests.act_as_service();
select ok(public.queue_crm_pull('880001') > 0, 'a known HubSpot id queues the sync of our deal');
select ok(public.queue_crm_pull('880001') = public.queue_crm_pull(' 880001 '), 'repeats coalesce');
select ok(public.queue_crm_pull('990001') > 0, 'an unknown HubSpot id queues its import');
select throws_ok($$select public.queue_crm_pull('abc')$$, '22023', null, 'an id that is not HubSpot''s is refused');
select tests.reset_role();
select results_eq(
  $$select key, payload from outbox.jobs where queue = 'crm-sync' and state = 'pending' order by key$$,
  $$values ('deal-7001', '{"dealId": 7001}'::jsonb), ('hubspot-990001', '{"hubspotId": "990001"}'::jsonb)$$,
  'one job per deal: ours by deal id, an unknown one by HubSpot id');
select tests.act_as('admin');
select tests.denied($$select public.queue_crm_pull('880001')$$, 'an admin cannot call the webhook''s function');

-- ---------------------------------------------------------------------------------------------
-- pg_cron's failed runs reach the logs (a stand-in cron schema when the extension is absent).
-- ---------------------------------------------------------------------------------------------
select * from pg_temp.privs('log_cron_failures', array[]::name[], array['EXECUTE'], array[]::text[]);
select tests.act_as_service();
select is(public.log_cron_failures(), 0, 'nothing to report without runs');
select tests.reset_role();
create schema if not exists cron;
create table if not exists cron.job (jobid bigint primary key, jobname text);
create table if not exists cron.job_run_details (runid bigint primary key, jobid bigint, status text,
  return_message text, start_time timestamptz, end_time timestamptz);
insert into cron.job (jobid, jobname) values (900, 'app:purge-old-logs'), (901, 'app:purge-outbox');
insert into cron.job_run_details (runid, jobid, status, return_message, end_time) values
  (9001, 900, 'succeeded', '1 row', now()), (9002, 901, 'failed', 'ERROR: boom', now()),
  (9003, 900, 'running', null, null), (9004, 901, 'failed', 'ERROR: later', now());
select tests.act_as_service();
select is(public.log_cron_failures(), 1, 'the failed run before the one still going is logged');
select is(public.log_cron_failures(), 0, 'once');
select tests.reset_role();
update cron.job_run_details set status = 'failed', return_message = 'ERROR: timeout', end_time = now() where runid = 9003;
select tests.act_as_service();
select is(public.log_cron_failures(), 2, 'then the two after it, once the run ended');
select tests.reset_role();
select results_eq(
  $$select message, context ->> 'error' from public.logs where service = 'jobs' and context ? 'runid' order by (context ->> 'runid')::bigint$$,
  $$values ('Tâche pg_cron en échec : app:purge-outbox', 'ERROR: boom'),
           ('Tâche pg_cron en échec : app:purge-old-logs', 'ERROR: timeout'),
           ('Tâche pg_cron en échec : app:purge-outbox', 'ERROR: later')$$,
  'each failed run once, with its job and its error, service jobs');
select tests.act_as('admin');
select tests.denied($$select public.log_cron_failures()$$, 'an admin does not run it (the system does)');

select * from finish();
rollback;
