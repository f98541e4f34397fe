// The cost of a /metrics scrape's database part (lib/metrics/queue_store.ts: one statement over every
// queue) on tables of 100,000 rows each (outbox.jobs and public.email_outbox), in a throw-away
// PostgreSQL database with DATABASE_URL, else on the embedded PGlite. Two shapes: a healthy one (most
// rows finished: 80% done or sent) and a backlog (every row live: pending, running or failed). Prints
// p50/p95/max of the statement and of a whole scrape (renderMetrics, its cache missed each time); the
// target is a scrape under ~50 ms. Also runnable alone: `deno run -A scripts/bench_metrics.ts`.
import { openPglite } from "../lib/db/pglite.ts";
import { openPostgres } from "../lib/db/postgres.ts";
import type { Database } from "../lib/db/database.ts";
import { migrate } from "../lib/db/migrate.ts";
import { loadConfig } from "../lib/config.ts";
import { createLogger } from "../lib/log/logger.ts";
import { createBackground, type Deps } from "../lib/deps.ts";
import { memoryStorage } from "../lib/storage/storage.ts";
import { createHealth } from "../lib/health/state.ts";
import { readQueueFigures } from "../lib/metrics/queue_store.ts";
import { renderMetrics } from "../lib/metrics/app.ts";
import { withFreshDatabase } from "./fresh_database.ts";
import postgres from "postgres";

const ROWS = 100_000;
/** Scrapes measured per shape (PGlite, ten times slower, runs a third of them). */
const RUNS = 30;

/** Rows of both tables: `live` of them pending (70%), running (10%), failed (20%); the rest finished. */
function seedSql(live: number): string {
  const pending = Math.floor(live * 0.7);
  const running = Math.floor(live * 0.1);
  const failed = live - pending - running;
  const done = ROWS - live;
  return `
    truncate outbox.jobs, public.email_outbox;
    insert into outbox.jobs (queue, state, run_at, attempts, finished_at)
      select 'queue-' || (i % 8), 'done', now() - interval '1 day', 1, now() - interval '1 hour'
      from generate_series(1, ${done}) i;
    insert into outbox.jobs (queue, state, run_at)
      select 'queue-' || (i % 8), 'pending', now() + (i % 200 - 100) * interval '1 minute'
      from generate_series(1, ${pending}) i;
    insert into outbox.jobs (queue, state, run_at, attempts, locked_by, locked_until)
      select 'queue-' || (i % 8), 'running', now(), 1, 'bench', now() + interval '5 minutes'
      from generate_series(1, ${running}) i;
    insert into outbox.jobs (queue, state, run_at, attempts, finished_at, last_error)
      select 'queue-' || (i % 8), 'failed', now(), 8, now(), 'boom' from generate_series(1, ${failed}) i;
    insert into public.email_outbox (recipient, template, subject, text_body, html_body, status, sent_at,
        next_attempt_at)
      select 'client' || i || '@example.fr', 'deal-quote-ready', 'Votre devis', repeat('Bonjour. ', 150),
        repeat('<p>Bonjour.</p>', 150),
        case when i <= ${done} then 'sent' when i <= ${
    done + pending + running
  } then 'pending' else 'failed' end,
        case when i <= ${done} then now() end,
        now() + (i % 200 - 100) * interval '1 minute'
      from generate_series(1, ${ROWS}) i;
    analyze outbox.jobs;
    analyze public.email_outbox;`;
}

function stats(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  return `p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`;
}

/** `vacuum` (PostgreSQL only: it cannot run in a transaction), as autovacuum would have done after such
 * an insert: it marks the pages all-visible, so the partial indexes serve index-only scans. */
type Vacuum = (() => Promise<void>) | null;

async function measure(db: Database, log: (line: string) => void, vacuum: Vacuum, runs = RUNS) {
  const config = loadConfig((name) => ({ APP_ENV: "test", METRICS_TOKEN: "bench-token-0123456789" })[name]);
  const logger = createLogger(db, { quiet: true });
  for (const [label, live] of [["healthy: 20% live", ROWS * 0.2], ["backlog: 100% live", ROWS]] as const) {
    await db.execScript(seedSql(live));
    await vacuum?.();
    const statement: number[] = [];
    const scrape: number[] = [];
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      let t0 = performance.now();
      await readQueueFigures(db);
      statement.push(performance.now() - t0);
      // A new Deps each time: the 5-second cache of the database part is missed on purpose.
      const deps: Deps = {
        config,
        db,
        logger,
        background: createBackground(logger),
        storage: memoryStorage(),
        health: createHealth(),
      };
      t0 = performance.now();
      bytes = (await renderMetrics(deps)).length;
      scrape.push(performance.now() - t0);
    }
    log(`  ${label.padEnd(22)} queue statement: ${stats(statement)}`);
    log(`  ${"".padEnd(22)} whole scrape:    ${stats(scrape)} (${bytes} bytes, target < 50 ms)`);
  }
}

export async function benchMetrics(
  options: { databaseUrl: string; log: (line: string) => void },
): Promise<void> {
  const { databaseUrl, log } = options;
  const prefix = Deno.env.get("BENCH_DB_PREFIX") ?? "bench";
  if (databaseUrl) {
    await withFreshDatabase(databaseUrl, `${prefix}_metrics`, async (url) => {
      const db = openPostgres(url, { max: 2 });
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await migrate(db);
        log(
          `\n/metrics scrape cost, PostgreSQL, ${ROWS} rows in outbox.jobs and in email_outbox (${RUNS} runs)`,
        );
        await measure(db, log, async () => {
          await sql.unsafe("vacuum analyze outbox.jobs");
          await sql.unsafe("vacuum analyze public.email_outbox");
        });
      } finally {
        await sql.end({ timeout: 5 });
        await db.close();
      }
    });
    return;
  }
  const db = await openPglite("memory://");
  try {
    await migrate(db);
    log(`\n/metrics scrape cost, PGlite, ${ROWS} rows in outbox.jobs and in email_outbox (${RUNS / 3} runs)`);
    await measure(db, log, null, RUNS / 3);
  } finally {
    await db.close();
  }
}

if (import.meta.main) {
  await benchMetrics({ databaseUrl: Deno.env.get("DATABASE_URL") ?? "", log: (line) => console.log(line) });
}
