// Runs the registry's jobs. At start-up the SQL jobs are handed to pg_cron when it serves this database
// (public.sync_cron_jobs schedules them and removes the ones no longer listed); every other job runs
// here on the same cron schedule (croner). Handler jobs take a lease in the database first, so that
// with several instances one runs each tick.
import { Cron } from "croner";
import { statementAs, systemActor } from "../actor.ts";
import type { Deps } from "../deps.ts";
import { JOBS, type ScheduledJob } from "./registry.ts";
import { observeJobRun } from "../metrics/jobs.ts";

const JOB = systemActor("job");

/** Hands the SQL jobs to pg_cron; true when pg_cron runs them in this database. */
export async function syncPgCron(deps: Pick<Deps, "db">, jobs: ScheduledJob[] = JOBS): Promise<boolean> {
  const sqlJobs = jobs.filter((job) => job.sql).map(({ name, schedule, sql }) => ({
    name,
    schedule,
    command: sql,
  }));
  const [row] = await statementAs<{ scheduled: boolean }>(
    deps.db,
    JOB,
    "select public.sync_cron_jobs($1::jsonb) as scheduled",
    [sqlJobs],
  );
  return row.scheduled;
}

/** Runs one job now: its SQL function, or its handler under a lease (skipped when another instance
 * holds it). Failures are logged, never thrown. Returns whether it ran. */
export async function runJob(deps: Deps, job: ScheduledJob, leaseSeconds = 300): Promise<boolean> {
  try {
    if (job.sql) {
      await statementAs(deps.db, JOB, job.sql);
      return true;
    }
    const [lease] = await statementAs<{ taken: boolean }>(
      deps.db,
      JOB,
      "select public.take_job_lease($1, $2) as taken",
      [job.name, leaseSeconds],
    );
    if (!lease.taken) return false;
    try {
      await job.handler!(deps);
    } finally {
      await statementAs(deps.db, JOB, "select public.release_job_lease($1)", [job.name]);
    }
    return true;
  } catch (error) {
    await deps.logger.error("jobs", `Tâche planifiée en échec : ${job.name}`, { error: String(error) });
    return false;
  }
}

export interface Scheduler {
  /** Whether pg_cron runs the SQL jobs. */
  pgCron: boolean;
  /** The jobs this process runs. */
  local: string[];
  stop(): void;
}

export async function startScheduler(deps: Deps, jobs: ScheduledJob[] = JOBS): Promise<Scheduler> {
  const pgCron = await syncPgCron(deps, jobs);
  const local = jobs.filter((job) => !(job.sql && pgCron));
  const crons = local.map((job) =>
    new Cron(job.schedule, { protect: true }, async () => {
      const run = () => runJob(deps, job);
      await observeJobRun("scheduled", job.name, run, (ran) => ran ? { outcome: "done" } : null);
    })
  );
  return { pgCron, local: local.map((job) => job.name), stop: () => crons.forEach((cron) => cron.stop()) };
}
