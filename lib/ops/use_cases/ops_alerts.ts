// The logs page's alerts (lib/ops/alerts.ts), for an admin already checked by the caller: the queues'
// dead letters (figures read as the system: no user role reads every queue's table; the latest outbox
// ones under the admin's claims, as GET /api/admin/outbox reads them) and this instance's worker
// heartbeat (Deps.health: an instance without a worker, or a test app, has none and shows no alert).
import type { Tx } from "../../db/database.ts";
import type { Deps } from "../../deps.ts";
import { failedJobs } from "../../outbox/store.ts";
import { readQueueFigures } from "../../metrics/queue_store.ts";
import { workerStall } from "../../health/stall.ts";
import { DEAD_JOBS_SHOWN, deadLetterAlerts, type OpsAlert, workerAlert } from "../alerts.ts";

/** The latest dead letters of the outbox, under the admin's transaction. */
export async function recentDeadJobs(tx: Tx) {
  const jobs = await failedJobs(tx, DEAD_JOBS_SHOWN);
  return jobs.map((job) => ({
    id: Number(job.id),
    queue: job.queue,
    attempts: job.attempts,
    lastError: job.lastError ? job.lastError.slice(0, 300) : null,
    failedAt: Math.floor(new Date(job.failedAt).getTime() / 1000),
  }));
}

export async function opsAlerts(deps: Deps, recent: Awaited<ReturnType<typeof recentDeadJobs>>) {
  const alerts: OpsAlert[] = [];
  if (deps.health) {
    const worker = workerAlert(
      workerStall(deps.health, deps.config.workerStallSeconds),
      deps.config.workerStallSeconds,
    );
    if (worker) alerts.push(worker);
  }
  alerts.push(...deadLetterAlerts(await readQueueFigures(deps.db), recent));
  return alerts;
}
