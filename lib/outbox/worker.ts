// The outbox in the worker loop (lib/jobs/worker.ts): one Queue that claims due jobs of every queue it
// has a handler for (one statement: lease + `for update skip locked`, so that several instances share
// the work and none runs a job another holds), runs each job's handler, one after the other, then
// settles it:
//   * the handler returned: done (settled at once, while the next job's handler starts) — for a handler that works outside any transaction (`run`: outside
//     services), in a statement of its own; for one that works in the database only
//     (`runInTransaction`), in the handler's own transaction, so that its writes and the job's end
//     commit together: exactly once;
//   * it threw: pending again after the one backoff formula (rules.ts), or failed for good once the
//     job's attempts are used up — a dead letter, logged and kept for admins;
//   * it threw RetryLater(seconds): pending again after that wait, the attempt given back unless the
//     error says it counts (a service's Retry-After);
//   * it threw PermanentFailure: failed at once.
// A `run` job is run at least once: an instance that stops between the handler and the settling leaves
// the job running until its lease lapses, and another instance runs it again. Such handlers are
// idempotent (they re-read the state they act on, and pass an idempotency key to outside services).
// After a job failed for good, `onDeadLetter` lets its capability record it (an email or a refund
// marked failed).
import { systemActor, transactionAs } from "../actor.ts";
import type { Tx } from "../db/database.ts";
import type { Deps } from "../deps.ts";
import type { Queue } from "../jobs/worker.ts";
import {
  type Backoff,
  DEFAULT_BACKOFF,
  DEFAULT_BATCH,
  DEFAULT_LEASE_SECONDS,
  errorText,
  isQueueName,
  outcomeOf,
} from "./rules.ts";
import { claimJobs, completeJob, completeJobIn, failJob, type OutboxJob, retryJob } from "./store.ts";
import { observeJobRun } from "../metrics/jobs.ts";

const WORKER = systemActor("job");

export interface OutboxHandler<P = Record<string, unknown>> {
  queue: string;
  /** Runs one job outside any transaction: calls to outside services (open your own transactions, as
   * the system). Throw to retry. One of `run` and `runInTransaction`. */
  run?(deps: Deps, job: OutboxJob<P>): Promise<void>;
  /** Runs one job inside a transaction as the system (actor "job"), in which the job is also marked
   * done: work in the database only, exactly once. Throw to roll it back and retry. Use `tx` only,
   * never `deps.db` nor the logger (the embedded database has one connection: they would wait for
   * this transaction forever). */
  runInTransaction?(tx: Tx, deps: Deps, job: OutboxJob<P>): Promise<void>;
  /** Called once the job failed for good (after it is marked failed), with the last error. */
  onDeadLetter?(deps: Deps, job: OutboxJob<P>, error: unknown): Promise<void>;
  /** The backoff formula's base and cap for this queue (default: 1 minute, doubling, 6 hours). */
  backoff?: Backoff;
  /** How long a claim holds a job of this queue (default 300 s). */
  leaseSeconds?: number;
}

export interface OutboxQueueOptions {
  /** Jobs claimed at once (default 10). */
  batch?: number;
  /** This worker's name in `locked_by` (default: host, process and a random part). */
  workerId?: string;
}

/** The worker's name: which instance holds a job, for admins reading `locked_by`. */
export function newWorkerId(): string {
  let host = "app";
  try {
    host = Deno.hostname();
  } catch { /* no permission to read the host name */ }
  return `${host}:${Deno.pid}:${crypto.randomUUID().slice(0, 8)}`;
}

// deno-lint-ignore no-explicit-any
export function outboxQueue(handlers: OutboxHandler<any>[], options: OutboxQueueOptions = {}): Queue & {
  workerId: string;
} {
  const byQueue = new Map<string, OutboxHandler<Record<string, unknown>>>();
  for (const handler of handlers) {
    if (!isQueueName(handler.queue)) throw new Error(`Nom de file invalide : ${handler.queue}`);
    if (byQueue.has(handler.queue)) throw new Error(`Deux gestionnaires pour la file ${handler.queue}`);
    if (!handler.run === !handler.runInTransaction) {
      throw new Error(`La file ${handler.queue} a besoin de run ou de runInTransaction (un seul)`);
    }
    byQueue.set(handler.queue, handler);
  }
  const queues = [...byQueue.keys()];
  const leases = queues.map((queue) => byQueue.get(queue)!.leaseSeconds ?? DEFAULT_LEASE_SECONDS);
  const batch = options.batch ?? DEFAULT_BATCH;
  const workerId = options.workerId ?? newWorkerId();

  return {
    name: "outbox",
    workerId,
    async drain(deps: Deps) {
      if (queues.length === 0) return 0;
      const jobs = await claimJobs(deps.db, queues, leases, workerId, batch);
      // Each job is settled as soon as its handler returns; the next handler does not wait for that
      // statement (on PostgreSQL it runs on another connection of the pool), the next claim does.
      const settling: Promise<void>[] = [];
      for (const job of jobs) {
        const unsettled = (error: unknown) =>
          // Settling failed (database unreachable): the job stays running until its lease lapses,
          // then it is claimed again. The rest of the batch goes on.
          deps.logger.error("outbox", `Tâche non enregistrée (${job.queue})`, {
            jobId: job.id,
            error: String(error),
          });
        try {
          const run = await observeJobRun(
            "outbox-job",
            job.queue,
            () => runJob(deps, byQueue.get(job.queue)!, job, workerId),
            (run) => ({
              outcome: run.failed ? "error" : "done",
              fields: { jobId: job.id, attempt: job.attempts },
            }),
          );
          settling.push(run.settled.catch(unsettled));
        } catch (error) {
          await unsettled(error);
        }
      }
      await Promise.all(settling);
      return jobs.length;
    },
  };
}

/** Runs the job's handler; returns its settling, under way (wrapped: an async function would wait for
 * a promise it returns), and whether the handler failed (for the job's log line). */
async function runJob(
  deps: Deps,
  handler: OutboxHandler<Record<string, unknown>>,
  job: OutboxJob,
  workerId: string,
): Promise<{ settled: Promise<void>; failed?: boolean }> {
  try {
    if (handler.runInTransaction) {
      await transactionAs(deps.db, WORKER, async (tx) => {
        await handler.runInTransaction!(tx, deps, job);
        // Another instance took the job (lease lapsed): its run counts, this one rolls back.
        if (!(await completeJobIn(tx, job.id, workerId))) throw new LeaseLost();
      });
      return { settled: Promise.resolve() };
    }
    await handler.run!(deps, job);
  } catch (error) {
    if (error instanceof LeaseLost) return { settled: lapsed(deps, job) };
    return { settled: settleFailure(deps, handler, job, workerId, error), failed: true };
  }
  return {
    settled: completeJob(deps.db, job.id, workerId).then((held) => held ? undefined : lapsed(deps, job)),
  };
}

async function settleFailure(
  deps: Deps,
  handler: OutboxHandler<Record<string, unknown>>,
  job: OutboxJob,
  workerId: string,
  error: unknown,
): Promise<void> {
  const outcome = outcomeOf(error, job.attempts, job.maxAttempts, handler.backoff ?? DEFAULT_BACKOFF);
  const text = errorText(error);
  if (outcome.kind === "retry") {
    if (!(await retryJob(deps.db, job.id, workerId, text, outcome.delaySeconds, outcome.countAttempt))) {
      await lapsed(deps, job);
    }
    return;
  }
  if (!(await failJob(deps.db, job.id, workerId, text))) return await lapsed(deps, job);
  await deps.logger.error("outbox", `Tâche abandonnée (${job.queue})`, {
    jobId: job.id,
    queue: job.queue,
    key: job.key,
    attempts: job.attempts,
    error: text,
  });
  try {
    await handler.onDeadLetter?.(deps, job, error);
  } catch (caught) {
    await deps.logger.error("outbox", `Suite d'une tâche abandonnée en échec (${job.queue})`, {
      jobId: job.id,
      error: String(caught),
    });
  }
}

class LeaseLost extends Error {}

/** The handler outlived the lease and another instance claimed the job: its outcome stands. */
function lapsed(deps: Deps, job: OutboxJob): Promise<void> {
  return deps.logger.warning("outbox", `Tâche reprise par une autre instance (${job.queue})`, {
    jobId: job.id,
    attempts: job.attempts,
  });
}
