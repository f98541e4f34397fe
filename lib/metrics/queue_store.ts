// What each work queue holds, for /metrics and the logs page's alerts: one statement, one round trip,
// as the system (reason 'metrics': the queues' tables are not readable by any user role). Every part
// reads a partial index of the live rows (pending, running, failed), never the finished ones, so its
// cost follows the backlog, not the table (scripts/bench_metrics.ts measures it at 100,000 rows).
//   outbox.jobs: ready (pending, due), scheduled (pending, later), running (leased), failed (dead
//     letters), oldest wait = since the oldest ready job was due;
//   the queues that keep their own table (lib/jobs/queues.ts): email (public.email_outbox; running =
//     claimed, its lease not lapsed), deal-notifications, refunds (a claim only pushes next_attempt_at:
//     claimed refunds count as scheduled), scheduled-emails (ready = marked ready, not sent; no failed
//     state). The billing and simulated-settlement queues have no table of their own: not reported.
import { statementAs, systemActor } from "../actor.ts";
import type { Database } from "../db/database.ts";

export type QueueState = "ready" | "scheduled" | "running" | "failed";
export const QUEUE_STATES: QueueState[] = ["ready", "scheduled", "running", "failed"];

export interface QueueFigures {
  /** 'outbox' for lib/outbox's queues, 'table' for a queue with its own table. */
  store: "outbox" | "table";
  queue: string;
  ready: number;
  scheduled: number;
  running: number;
  failed: number;
  /** Seconds the oldest ready item has waited since it was due (0 when none is ready). */
  oldestReadySeconds: number;
}

/** The table queues, by name, in the order they are reported (always, even when empty). */
export const TABLE_QUEUES = ["email", "deal-notifications", "refunds", "scheduled-emails"] as const;

const WAIT = (column: string) => `coalesce(floor(extract(epoch from now() - min(${column}))), 0)::integer`;

const SQL = `
  select 'outbox' as store, queue, 'ready' as state, count(*)::integer as n, ${WAIT("run_at")} as wait
    from outbox.jobs where state = 'pending' and run_at <= now() group by queue
  union all
  select 'outbox', queue, 'scheduled', count(*)::integer, 0 from outbox.jobs
    where state = 'pending' and run_at > now() group by queue
  union all
  select 'outbox', queue, 'running', count(*)::integer, 0 from outbox.jobs where state = 'running' group by queue
  union all
  select 'outbox', queue, 'failed', count(*)::integer, 0 from outbox.jobs where state = 'failed' group by queue
  union all
  select 'table', 'email', 'ready', count(*)::integer, ${WAIT("next_attempt_at")} from public.email_outbox
    where status = 'pending' and next_attempt_at <= now()
  union all
  select 'table', 'email', case when claim_token is null then 'scheduled' else 'running' end, count(*)::integer, 0
    from public.email_outbox where status = 'pending' and next_attempt_at > now()
    group by claim_token is null
  union all
  select 'table', 'email', 'failed', count(*)::integer, 0 from public.email_outbox where status = 'failed'
  union all
  select 'table', 'deal-notifications', case when next_attempt_at <= now() then 'ready' else 'scheduled' end,
    count(*)::integer, ${WAIT("next_attempt_at")}
    from public.deal_notifications where status = 'pending' group by next_attempt_at <= now()
  union all
  select 'table', 'deal-notifications', 'failed', count(*)::integer, 0 from public.deal_notifications
    where status = 'failed'
  union all
  select 'table', 'refunds', case when next_attempt_at <= now() then 'ready' else 'scheduled' end,
    count(*)::integer, ${WAIT("next_attempt_at")}
    from public.refunds where status = 'pending' group by next_attempt_at <= now()
  union all
  select 'table', 'refunds', 'failed', count(*)::integer, 0 from public.refunds where status = 'failed'
  union all
  select 'table', 'scheduled-emails', case when is_ready then 'ready' else 'scheduled' end, count(*)::integer,
    ${WAIT("schedule_at")}
    from public.scheduled_emails where not is_sent group by is_ready`;

interface Row {
  store: "outbox" | "table";
  queue: string;
  state: QueueState;
  n: number;
  wait: number;
}

/** Every queue's figures: the table queues always, the outbox's queues that have live jobs. */
export async function readQueueFigures(db: Database): Promise<QueueFigures[]> {
  const rows = await statementAs<Row>(db, systemActor("metrics"), SQL);
  const byKey = new Map<string, QueueFigures>();
  const entry = (store: "outbox" | "table", queue: string) => {
    const key = `${store}:${queue}`;
    let figures = byKey.get(key);
    if (!figures) {
      figures = { store, queue, ready: 0, scheduled: 0, running: 0, failed: 0, oldestReadySeconds: 0 };
      byKey.set(key, figures);
    }
    return figures;
  };
  for (const queue of TABLE_QUEUES) entry("table", queue);
  for (const row of rows) {
    const figures = entry(row.store, row.queue);
    figures[row.state] += row.n;
    if (row.state === "ready") figures.oldestReadySeconds = Math.max(figures.oldestReadySeconds, row.wait);
  }
  return [...byKey.values()];
}
