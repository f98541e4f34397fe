// What admins do with the outbox: read each queue's figures and the dead letters (failed jobs, newest
// first), and put a dead letter back in its queue. As the admin (RLS: admins only; outbox.requeue()
// checks again), never while impersonating someone.
import { type Actor, requireRole, transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { OUTBOX_MESSAGES } from "./rules.ts";
import { failedJobs, queueStats, requeueJob } from "./store.ts";

/** Dead letters listed at most. */
export const FAILED_LIMIT = 100;

const unix = (date: Date | null): number | null => date === null ? null : Math.floor(date.getTime() / 1000);

export interface OutboxOverview {
  queues: {
    queue: string;
    ready: number;
    scheduled: number;
    running: number;
    done: number;
    failed: number;
    oldestReadySeconds: number | null;
    /** Unix seconds. */
    nextRunAt: number | null;
  }[];
  failed: {
    id: number;
    queue: string;
    key: string | null;
    payload: Record<string, unknown>;
    attempts: number;
    maxAttempts: number;
    lastError: string | null;
    /** Unix seconds. */
    createdAt: number;
    failedAt: number;
  }[];
}

const requireAdmin = (actor: Actor) => requireRole(actor, "Admin", { notImpersonating: true });

export async function outboxOverview(deps: Deps, actor: Actor): Promise<OutboxOverview> {
  requireAdmin(actor);
  const { queues, failed } = await transactionAs(deps.db, actor, async (tx) => ({
    queues: await queueStats(tx),
    failed: await failedJobs(tx, FAILED_LIMIT),
  }));
  return {
    queues: queues.map((q) => ({ ...q, nextRunAt: unix(q.nextRunAt) })),
    failed: failed.map((job) => ({ ...job, createdAt: unix(job.createdAt)!, failedAt: unix(job.failedAt)! })),
  };
}

export async function requeueOutboxJob(deps: Deps, actor: Actor, id: number): Promise<string> {
  const admin = requireAdmin(actor);
  const requeued = await transactionAs(deps.db, actor, (tx) => requeueJob(tx, id));
  if (!requeued) throw new AppError("not_found", OUTBOX_MESSAGES.jobNotFound);
  await deps.logger.info("outbox", "Tâche relancée par un administrateur", {
    jobId: id,
    adminId: admin.user.id,
  });
  return OUTBOX_MESSAGES.requeued;
}
