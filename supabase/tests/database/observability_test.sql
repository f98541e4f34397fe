-- Observability: the partial indexes the /metrics queue statement reads (lib/metrics/queue_store.ts),
-- and that they serve it (no sequential scan of the finished rows).
begin;
select plan(6);

select has_index('outbox', 'jobs', 'jobs_live_queue_idx', array['state', 'queue', 'run_at'],
  'outbox.jobs has its live-rows index by state and queue');
select has_index('public', 'email_outbox', 'email_outbox_live_idx', array['status', 'next_attempt_at', 'claim_token'],
  'email_outbox has its live-rows index');
select has_index('public', 'deal_notifications', 'deal_notifications_failed_idx', array['id'],
  'deal_notifications has an index of its failed rows');
select has_index('public', 'refunds', 'refunds_failed_idx', array['id'], 'refunds has an index of its failed rows');

-- 20,000 sent emails and a few failed ones: counting the failed ones reads the index, not the table.
insert into public.email_outbox (recipient, template, subject, text_body, status, sent_at)
  select 'client' || i || '@example.fr', 'deal-quote-ready', 'Votre devis', 'Bonjour', 'sent', now()
  from generate_series(1, 20000) i;
insert into public.email_outbox (recipient, template, subject, text_body, status)
  select 'client' || i || '@example.fr', 'deal-quote-ready', 'Votre devis', 'Bonjour', 'failed'
  from generate_series(1, 5) i;
analyze public.email_outbox;
create temporary table plan_lines (line text);
do $$
declare r record;
begin
  for r in execute 'explain select count(*) from public.email_outbox where status = ''failed''' loop
    insert into plan_lines values (r."QUERY PLAN");
  end loop;
end $$;
select ok(exists (select from plan_lines where line like '%email_outbox_live_idx%'),
  'failed emails are counted through email_outbox_live_idx');
select ok(not exists (select from plan_lines where line like '%Seq Scan on email_outbox%'),
  'counting failed emails does not scan the table');

select * from finish();
rollback;
