// SQL of the outbox (supabase/migrations/20261126000100_outbox.sql). Enqueueing takes the caller's
// transaction; claiming and settling are one statement each, as the system (the worker).
import { statementAs, systemActor } from "../actor.ts";
import type { Database, Tx } from "../db/database.ts";

const WORKER = systemActor("job");

export type JobState = "pending" | "running" | "done" | "failed";

export interface OutboxJob<P = Record<string, unknown>> {
  id: number;
  queue: string;
  payload: P;
  key: string | null;
  /** Attempts so far, this one included. */
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  createdAt: Date;
  lastError: string | null;
}

const JOB_COLUMNS = `id, queue, payload, key, attempts, max_attempts as "maxAttempts", run_at as "runAt",
  created_at as "createdAt", last_error as "lastError"`;

export async function insertJob(
  tx: Tx,
  queue: string,
  payload: Record<string, unknown>,
  key: string | null,
  runAt: Date | null,
  maxAttempts: number | null,
): Promise<number> {
  const [row] = await tx<{ id: number }>`
    select outbox.enqueue(${queue}, ${payload}::jsonb, ${key}, ${runAt}::timestamptz, ${maxAttempts}::integer)
      as id`;
  return row.id;
}

export function claimJobs(
  db: Database,
  queues: string[],
  leaseSeconds: number[],
  worker: string,
  max: number,
): Promise<OutboxJob[]> {
  return statementAs<OutboxJob>(
    db,
    WORKER,
    `select ${JOB_COLUMNS} from outbox.claim($1::text[], $2::integer[], $3, $4) order by run_at, id`,
    [queues, leaseSeconds, worker, max],
  );
}

/** Each returns false when the worker no longer holds the job (its lease lapsed and another took it). */
export async function completeJob(db: Database, id: number, worker: string): Promise<boolean> {
  const [row] = await statementAs<{ ok: boolean }>(db, WORKER, "select outbox.complete($1, $2) as ok", [
    id,
    worker,
  ]);
  return row.ok;
}

/** The same, inside the transaction of a handler whose writes commit with the job's end. */
export async function completeJobIn(tx: Tx, id: number, worker: string): Promise<boolean> {
  const [row] = await tx<{ ok: boolean }>`select outbox.complete(${id}, ${worker}) as ok`;
  return row.ok;
}

export async function retryJob(
  db: Database,
  id: number,
  worker: string,
  error: string,
  delaySeconds: number,
  countAttempt: boolean,
): Promise<boolean> {
  const [row] = await statementAs<{ ok: boolean }>(
    db,
    WORKER,
    "select outbox.retry($1, $2, $3, $4, $5) as ok",
    [id, worker, error, delaySeconds, countAttempt],
  );
  return row.ok;
}

export async function failJob(db: Database, id: number, worker: string, error: string): Promise<boolean> {
  const [row] = await statementAs<{ ok: boolean }>(db, WORKER, "select outbox.fail($1, $2, $3) as ok", [
    id,
    worker,
    error,
  ]);
  return row.ok;
}

// ---------------------------------------------------------------------------------------------------
// What admins read (RLS: admins only).

export interface QueueStats {
  queue: string;
  /** Pending and due now. */
  ready: number;
  /** Pending, due later (run-at times, backoff). */
  scheduled: number;
  running: number;
  done: number;
  failed: number;
  /** Seconds the oldest ready job has waited, or null. */
  oldestReadySeconds: number | null;
  /** When the next pending job is due, or null. */
  nextRunAt: Date | null;
}

export function queueStats(tx: Tx): Promise<QueueStats[]> {
  return tx<QueueStats>`
    select queue,
      count(*) filter (where state = 'pending' and run_at <= now())::integer as ready,
      count(*) filter (where state = 'pending' and run_at > now())::integer as scheduled,
      count(*) filter (where state = 'running')::integer as running,
      count(*) filter (where state = 'done')::integer as done,
      count(*) filter (where state = 'failed')::integer as failed,
      floor(extract(epoch from now() - min(run_at) filter (where state = 'pending' and run_at <= now())))::integer
        as "oldestReadySeconds",
      min(run_at) filter (where state = 'pending') as "nextRunAt"
    from outbox.jobs
    group by queue
    order by queue`;
}

export interface FailedJob {
  id: number;
  queue: string;
  key: string | null;
  payload: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  createdAt: Date;
  failedAt: Date;
}

export function failedJobs(tx: Tx, limit: number): Promise<FailedJob[]> {
  return tx<FailedJob>`
    select id, queue, key, payload, attempts, max_attempts as "maxAttempts", last_error as "lastError",
      created_at as "createdAt", finished_at as "failedAt"
    from outbox.jobs
    where state = 'failed'
    order by finished_at desc, id desc
    limit ${limit}`;
}

export async function requeueJob(tx: Tx, id: number): Promise<boolean> {
  const [row] = await tx<{ ok: boolean }>`select outbox.requeue(${id}) as ok`;
  return row.ok;
}
