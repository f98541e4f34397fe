// Proves pg_cron for real: on the database named by cron.database_name (DATABASE_URL in CI), the app's
// start-up hands the registry's SQL jobs to pg_cron (syncPgCron), and pg_cron's background workers run
// them successfully within a bit more than a minute — among them the reminder policy's
// mark_scheduled_emails_ready(), seen marking a due scheduled email ready. Prints
// `pg_cron: N passed, M failed`.
import postgres from "postgres";
import { openPostgres } from "../lib/db/postgres.ts";
import { migrate } from "../lib/db/migrate.ts";
import { syncPgCron } from "../lib/jobs/scheduler.ts";
import { JOBS } from "../lib/jobs/registry.ts";

export async function checkPgCron(
  url: string,
): Promise<{ passed: number; failed: number; skipped?: string }> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ cronDb, db, available }] = await sql<
      { cronDb: string | null; db: string; available: boolean }[]
    >`
      select current_setting('cron.database_name', true) as "cronDb", current_database() as db,
             exists (select from pg_available_extensions where name = 'pg_cron') as available`;
    if (!available || cronDb !== db) return { passed: 0, failed: 0, skipped: `pg_cron does not serve ${db}` };
    const app = openPostgres(url, { max: 2 });
    let handedOver: boolean;
    try {
      await migrate(app);
      handedOver = await syncPgCron({ db: app });
    } finally {
      await app.close();
    }
    const jobs = await sql<
      { jobname: string; schedule: string }[]
    >`select jobname, schedule from cron.job order by jobname`;
    const expected = JOBS.filter((job) => job.sql).map((job) => `app:${job.name} ${job.schedule}`).sort();
    const names = jobs.map((j) => `${j.jobname} ${j.schedule}`);
    if (!handedOver || JSON.stringify(names) !== JSON.stringify(expected)) {
      console.error(`pg_cron jobs: ${names.join(", ")}; expected exactly ${expected.join(", ")}`);
      return { passed: 0, failed: 1 };
    }
    // The reminder policy's path: a scheduled email already due is marked ready by pg_cron's run of
    // public.mark_scheduled_emails_ready() (the app's worker sends ready ones; tests/http/emails_test.ts).
    const [deal] = await sql<{ id: number }[]>`
      insert into public.deals (name) values ('pg_cron check') returning id`;
    const [scheduled] = await sql<{ id: number }[]>`
      insert into public.scheduled_emails (template, entity_id, schedule_at)
      values ('deal-reminder-manual-partner', ${deal.id}, now() - interval '1 minute') returning id`;
    try {
      const started = Date.now();
      let purged: { status: string; message: string } | null = null;
      let ready = false;
      while (Date.now() - started < 80_000 && !(purged && ready)) {
        const runs = await sql<{ status: string; message: string }[]>`
          select status, return_message as message from cron.job_run_details d join cron.job j using (jobid)
          where j.jobname = 'app:purge-deleted-accounts' and d.status in ('succeeded', 'failed') order by runid desc limit 1`;
        if (runs.length) purged = runs[0];
        const [row] = await sql<{ ready: boolean }[]>`
          select is_ready as ready from public.scheduled_emails where id = ${scheduled.id}`;
        ready = row?.ready === true;
        if (!(purged && ready)) await new Promise((resolve) => setTimeout(resolve, 2000));
      }
      let passed = 1;
      let failed = 0;
      if (purged?.status === "succeeded") passed++;
      else {
        failed++;
        console.error(
          purged
            ? `pg_cron run failed: ${purged.message}`
            : "pg_cron did not run the job within 80 s (background workers on?)",
        );
      }
      if (ready) passed++;
      else {
        failed++;
        console.error("pg_cron did not mark the due scheduled email ready within 80 s");
      }
      return { passed, failed };
    } finally {
      await sql`delete from public.deals where id = ${deal.id}`;
    }
  } finally {
    await sql.end();
  }
}

if (import.meta.main) {
  const url = Deno.env.get("DATABASE_URL");
  if (!url) {
    console.log("pg_cron: skipped (DATABASE_URL not set)");
    Deno.exit(0);
  }
  const result = await checkPgCron(url);
  console.log(
    result.skipped
      ? `pg_cron: skipped (${result.skipped})`
      : `pg_cron: ${result.passed} passed, ${result.failed} failed`,
  );
  Deno.exit(result.failed ? 1 : 0);
}
