-- Observability (lib/metrics/queue_store.ts): /metrics reads every work queue's live rows (pending,
-- running, failed) every 15 s. These partial indexes hold the live rows only, with the columns the
-- statement reads, so that its cost follows the backlog, not the finished rows (100,000 sent emails:
-- 140 ms by a sequential scan before, a few ms after). No table, policy or function: RLS and grants are
-- unchanged (the statement runs as service_role).
create index jobs_live_queue_idx on outbox.jobs (state, queue, run_at) where state <> 'done';
create index email_outbox_live_idx on public.email_outbox (status, next_attempt_at) include (claim_token)
  where status <> 'sent';
create index deal_notifications_failed_idx on public.deal_notifications (id) where status = 'failed';
create index refunds_failed_idx on public.refunds (id) where status = 'failed';
