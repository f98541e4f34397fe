-- Outbox: outbox.jobs (written through outbox.enqueue() by signed-in users and the system, read by
-- admins, claimed and settled by the system only) and its functions. Users and identity switches come
-- from supabase/tests/helpers.sql.
begin;
select plan(102);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Company', 'partner_a');

-- Jobs written as the session user: two dead letters (one a month old), one done, one pending.
insert into outbox.jobs (id, queue, payload, state, attempts, finished_at, last_error) overriding system value values
  (900001, 'send-email', '{"emailId": "e1"}', 'failed', 8, now(), 'SMTP 550'),
  (900002, 'send-email', '{"emailId": "e2"}', 'done', 1, now(), null),
  (900003, 'send-email', '{"emailId": "e3"}', 'failed', 8, now() - interval '30 days', 'SMTP 550');
insert into outbox.jobs (queue, payload, key) values ('crm-push', '{"dealId": 1}', 'deal-1');

-- ---------------------------------------------------------------------------------------------
-- Structure
-- ---------------------------------------------------------------------------------------------
select ok((select relrowsecurity from pg_class where oid = 'outbox.jobs'::regclass), 'RLS is enabled on outbox.jobs');
select policies_are('outbox', 'jobs', array['Admins can read the outbox'], 'outbox.jobs has exactly one policy');
select schema_privs_are('outbox', 'anon', array[]::text[], 'anon cannot use the outbox schema');
select schema_privs_are('outbox', 'authenticated', array['USAGE'], 'authenticated uses the outbox schema');
select schema_privs_are('outbox', 'service_role', array['USAGE'], 'service_role uses the outbox schema');
select table_privs_are('outbox', 'jobs', 'anon', array[]::text[], 'anon has no privilege on outbox.jobs');
select table_privs_are('outbox', 'jobs', 'authenticated', array['SELECT'],
  'authenticated may only read outbox.jobs (RLS keeps it to admins); writes go through enqueue()');
select table_privs_are('outbox', 'jobs', 'service_role', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
  'service_role reads and writes outbox.jobs');

create function pg_temp.privs(schema_name name, fn name, args name[], anon text[], authenticated text[],
  service text[]) returns setof text language plpgsql as $fn$
begin
  return next function_privs_are(schema_name, fn, args, 'anon', anon, format('anon: %s.%s', schema_name, fn));
  return next function_privs_are(schema_name, fn, args, 'authenticated', authenticated,
    format('authenticated: %s.%s', schema_name, fn));
  return next function_privs_are(schema_name, fn, args, 'service_role', service,
    format('service_role: %s.%s', schema_name, fn));
  return next is_definer(schema_name, fn, args, format('%s.%s is security definer', schema_name, fn));
end $fn$;
select * from pg_temp.privs('outbox', 'enqueue', array['text', 'jsonb', 'text', 'timestamp with time zone', 'integer'],
  array[]::text[], array['EXECUTE'], array['EXECUTE']);
select * from pg_temp.privs('outbox', 'claim', array['text[]', 'integer[]', 'text', 'integer'],
  array[]::text[], array[]::text[], array['EXECUTE']);
select * from pg_temp.privs('outbox', 'complete', array['bigint', 'text'], array[]::text[], array[]::text[], array['EXECUTE']);
select * from pg_temp.privs('outbox', 'retry', array['bigint', 'text', 'text', 'integer', 'boolean'],
  array[]::text[], array[]::text[], array['EXECUTE']);
select * from pg_temp.privs('outbox', 'fail', array['bigint', 'text', 'text'], array[]::text[], array[]::text[], array['EXECUTE']);
select * from pg_temp.privs('outbox', 'requeue', array['bigint'], array[]::text[], array['EXECUTE'], array[]::text[]);
select * from pg_temp.privs('public', 'purge_outbox', array[]::name[], array[]::text[], array[]::text[], array['EXECUTE']);

-- ---------------------------------------------------------------------------------------------
-- Anonymous visitor: nothing at all.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok($$select outbox.enqueue('send-email', '{}')$$, '42501', null, 'anon cannot enqueue');
select throws_ok($$select id from outbox.jobs$$, '42501', null, 'anon cannot read jobs');
select throws_ok($$select * from outbox.claim(array['send-email'], array[60], 'w', 10)$$, '42501', null,
  'anon cannot claim');

-- ---------------------------------------------------------------------------------------------
-- Signed-in users who are not admins (and an admin impersonating one): enqueue, nothing else.
-- ---------------------------------------------------------------------------------------------
create function pg_temp.user_can_only_enqueue(who text) returns setof text language plpgsql as $fn$
declare
  job bigint := 900001;
begin
  return next ok(outbox.enqueue('hold-expiry', jsonb_build_object('by', who)) > 0, who || ' enqueues a job');
  return next is_empty($$select id from outbox.jobs$$, who || ' reads no job, not even its own');
  return next tests.denied($$insert into outbox.jobs (queue) values ('forged')$$, who || ' cannot insert a job directly');
  return next tests.denied($$update outbox.jobs set state = 'done'$$, who || ' cannot change a job');
  return next tests.denied($$delete from outbox.jobs$$, who || ' cannot delete a job');
  return next tests.denied($$select * from outbox.claim(array['send-email'], array[60], 'w', 10)$$,
    who || ' cannot claim jobs');
  return next tests.denied(format('select outbox.complete(%s, %L)', job, 'w'), who || ' cannot complete a job');
  return next tests.denied(format('select outbox.fail(%s, %L, %L)', job, 'w', 'x'), who || ' cannot fail a job');
  return next tests.denied(format('select outbox.retry(%s, %L, %L, 0, true)', job, 'w', 'x'),
    who || ' cannot retry a job');
  return next tests.denied(format('select outbox.requeue(%s)', job), who || ' cannot put a dead letter back');
  return next tests.denied($$select public.purge_outbox()$$, who || ' cannot purge the outbox');
end $fn$;

select tests.act_as('customer_a');
select * from pg_temp.user_can_only_enqueue('customer A');
select tests.act_as('partner_a');
select * from pg_temp.user_can_only_enqueue('partner A');
select tests.act_as_impersonating('admin', 'customer_a');
select * from pg_temp.user_can_only_enqueue('an admin impersonating customer A');

select tests.reset_role();
select results_eq($$select payload ->> 'by' from outbox.jobs where queue = 'hold-expiry' order by id$$,
  array['customer A', 'partner A', 'an admin impersonating customer A'],
  'the users'' jobs were written, pending, once each');
select results_eq($$select id, state from outbox.jobs where queue = 'send-email' order by id$$,
  $$values (900001::bigint, 'failed'), (900002, 'done'), (900003, 'failed')$$, 'the refused calls changed nothing');

-- ---------------------------------------------------------------------------------------------
-- Admins: read every job, put a dead letter back; no direct write, no claim.
-- ---------------------------------------------------------------------------------------------
select tests.act_as('admin');
select is((select count(*)::int from outbox.jobs), 7, 'the admin reads every job');
select tests.denied($$insert into outbox.jobs (queue) values ('forged')$$, 'the admin cannot insert a job directly');
select tests.denied($$update outbox.jobs set state = 'done'$$, 'the admin cannot change a job directly');
select tests.denied($$delete from outbox.jobs$$, 'the admin cannot delete a job');
select tests.denied($$select * from outbox.claim(array['send-email'], array[60], 'w', 10)$$, 'the admin cannot claim');
select tests.denied($$select public.purge_outbox()$$, 'the admin cannot purge the outbox');
select is(outbox.requeue(900001), true, 'the admin puts a dead letter back');
select results_eq($$select state, attempts, finished_at from outbox.jobs where id = 900001$$,
  $$values ('pending', 0, null::timestamptz)$$, '... pending again, its attempts starting over');
select is(outbox.requeue(900002), false, 'a job that is not failed is not put back');
select is(outbox.requeue(123456789), false, 'nor a job that does not exist');

-- ---------------------------------------------------------------------------------------------
-- Enqueue: coalescing by key while pending, queue names checked.
-- ---------------------------------------------------------------------------------------------
select tests.act_as('customer_a');
select is(outbox.enqueue('crm-push', '{"dealId": 1, "v": 2}', 'deal-1'),
  (select outbox.enqueue('crm-push', '{"dealId": 1, "v": 3}', 'deal-1', now() + interval '1 hour')),
  'the same queue and key give the same pending job');
select tests.reset_role();
select results_eq($$select payload ->> 'v', run_at <= now() from outbox.jobs where key = 'deal-1'$$,
  $$values ('3', true)$$, 'one job: the latest payload, the earlier run-at time');
select tests.act_as('customer_a');
select throws_ok($$select outbox.enqueue('Bad Queue', '{}')$$, '23514', null, 'a queue name must be lower-case words');
select throws_ok($$select outbox.enqueue('send-email', '[1, 2]')$$, '23514', null, 'a payload is a JSON object');
select throws_ok($$select outbox.enqueue('send-email', '{}', null, null, 0)$$, '23514', null,
  'at least one attempt');

-- ---------------------------------------------------------------------------------------------
-- The system: claims with a lease, one job per key at a time, settles only what it holds.
-- ---------------------------------------------------------------------------------------------
select tests.act_as_service();
select throws_ok($$select * from outbox.claim(array['a', 'b'], array[60], 'w', 10)$$, '22023', null,
  'a lease for each queue');
select results_eq(
  $$select queue, attempts, locked_by, locked_until = now() + interval '90 seconds'
    from outbox.claim(array['crm-push', 'send-email'], array[90, 30], 'worker-1', 10) where queue = 'crm-push'$$,
  $$values ('crm-push', 1, 'worker-1', true)$$, 'service_role claims a due job with its queue''s lease');
select is_empty($$select id from outbox.claim(array['crm-push', 'send-email'], array[90, 30], 'worker-2', 10)$$,
  'a claimed job is not claimed again');
select is(outbox.enqueue('crm-push', '{"dealId": 1, "v": 4}', 'deal-1') > 0, true,
  'a new job of a running key is queued');
select is_empty($$select id from outbox.claim(array['crm-push'], array[90], 'worker-2', 10)$$,
  '... and waits while that key runs');
select is(outbox.complete((select id from outbox.jobs where key = 'deal-1' and state = 'running'), 'worker-2'),
  false, 'another worker cannot complete a job it does not hold');
select is(outbox.complete((select id from outbox.jobs where key = 'deal-1' and state = 'running'), 'worker-1'),
  true, 'the holder completes it');
select results_eq($$select payload ->> 'v' from outbox.claim(array['crm-push'], array[90], 'worker-2', 10)$$,
  array['4'], 'then the key''s next job is claimed');
select is(outbox.retry((select id from outbox.jobs where key = 'deal-1' and state = 'running'), 'worker-2', 'HubSpot 503',
  120, true), true, 'the holder puts it back with a delay');
select results_eq(
  $$select state, attempts, run_at = now() + interval '120 seconds', last_error from outbox.jobs
    where payload ->> 'v' = '4'$$,
  $$values ('pending', 1, true, 'HubSpot 503')$$, '... pending, due after the delay');
select is(outbox.fail((select id from outbox.jobs where payload ->> 'v' = '4'), 'worker-2', 'x'), false,
  'a job no longer held cannot be failed');
select tests.reset_role();
update outbox.jobs set finished_at = now() - interval '8 days' where id = 900002;
select tests.act_as_service();
select is(public.purge_outbox(), 1, 'service_role purges the jobs done more than 7 days ago');
select results_eq($$select id from outbox.jobs where id in (900002, 900003)$$, array[900003::bigint],
  'dead letters stay, however old');

select * from finish();
rollback;
