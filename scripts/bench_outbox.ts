// `deno run -A scripts/bench_outbox.ts [--jobs=N] [--only=pglite|postgres]`: the outbox (lib/outbox/) measured the way the
// queue libraries were before the choice (ARCHITECTURE.md, 'Outbox'): on the embedded PGlite and, with
// DATABASE_URL, on a throw-away PostgreSQL database shaped like a hosted one (the app as a
// non-superuser owner), N jobs (default 1000, at most 20000) each enqueued in its own transaction as a
// signed-in user, then run by two workers (on PostgreSQL two connection pools, as two app instances
// have) with a no-op handler: how long, and whether any job ran twice. A measurement, not a test: it
// prints figures and exits 0 whatever they are.
import { type Actor, transactionAs, userActor } from "../lib/actor.ts";
import type { Database } from "../lib/db/database.ts";
import { migrate, readMigrations } from "../lib/db/migrate.ts";
import { openPglite } from "../lib/db/pglite.ts";
import { openPostgres } from "../lib/db/postgres.ts";
import { loadConfig } from "../lib/config.ts";
import { createBackground, type Deps } from "../lib/deps.ts";
import { createLogger } from "../lib/log/logger.ts";
import { memoryStorage } from "../lib/storage/storage.ts";
import { startWorker } from "../lib/jobs/worker.ts";
import { enqueue } from "../lib/outbox/enqueue.ts";
import { outboxQueue } from "../lib/outbox/worker.ts";
import { withHostedDatabase } from "./fresh_database.ts";

const arg = (name: string) => Deno.args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const N = Math.min(Math.max(Number(arg("jobs") ?? 1000) || 1000, 1), 20000);
const ms = (start: number) => Math.round(performance.now() - start);

/** A signed-in user's transaction (RLS applies; enqueue goes through outbox.enqueue()). */
const USER: Actor = userActor(
  {
    id: crypto.randomUUID(),
    type: "Customer",
    firstname: "Bench",
    lastname: "Outbox",
    name: null,
    email: "",
  },
  "bench",
);

function depsOf(db: Database): Deps {
  const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: "http://localhost" })[name]);
  const logger = createLogger(db, { quiet: true });
  return { config, db, logger, background: createBackground(logger), storage: memoryStorage() };
}

async function measure(label: string, db: Database, second: Database): Promise<void> {
  // The outbox's share of start-up: its migration (nothing else runs when the app starts).
  const outboxMigration = (await readMigrations()).filter((m) => m.name === "outbox");
  const others = (await readMigrations()).filter((m) => m.name !== "outbox");
  await migrate(db, others);
  let t = performance.now();
  await migrate(db, outboxMigration);
  const migrationMs = ms(t);

  const queue = `bench-${crypto.randomUUID().slice(0, 8)}`;
  t = performance.now();
  for (let n = 0; n < N; n++) await transactionAs(db, USER, (tx) => enqueue(tx, queue, { n }));
  const enqueueMs = ms(t);

  const runs = new Map<number, number>();
  const done = Promise.withResolvers<void>();
  const handler = {
    queue,
    run: (_deps: Deps, job: { payload: Record<string, unknown> }) => {
      const n = job.payload.n as number;
      runs.set(n, (runs.get(n) ?? 0) + 1);
      if (runs.size === N) done.resolve();
      return Promise.resolve();
    },
  };
  t = performance.now();
  const a = startWorker(depsOf(db), [outboxQueue([handler])], 20);
  const b = startWorker(depsOf(second), [outboxQueue([handler])], 20);
  const timeout = setTimeout(() => done.resolve(), 120_000);
  await done.promise;
  const processMs = ms(t);
  clearTimeout(timeout);
  await a.stop();
  await b.stop();
  const twice = [...runs.values()].filter((count) => count > 1).length;
  console.log(
    `${label.padEnd(28)} migration ${String(migrationMs).padStart(5)} ms | enqueue ${
      (enqueueMs / N).toFixed(2)
    } ms/job | ${N} jobs run in ${processMs} ms (${Math.round(N / (processMs / 1000))} jobs/s) | ` +
      `ran: ${runs.size}/${N}, twice: ${twice}`,
  );
}

const only = arg("only");
const load = Deno.loadavg?.()[0];
console.log(`Outbox, ${N} jobs (load average ${load?.toFixed(1) ?? "?"})`);
let t = performance.now();
if (only !== "postgres") {
  const pglite = await openPglite("memory://");
  console.log(`PGlite opened in ${ms(t)} ms`);
  await measure("PGlite (one process)", pglite, pglite);
  await pglite.close();
}

const adminUrl = Deno.env.get("DATABASE_URL");
if (only === "pglite") {
  // PostgreSQL not asked for.
} else if (adminUrl) {
  await withHostedDatabase(adminUrl, "bench_outbox", async (url) => {
    const one = openPostgres(url, { max: 10 });
    const two = openPostgres(url, { max: 10 });
    try {
      t = performance.now();
      await measure("PostgreSQL (two pools)", one, two);
    } finally {
      await one.close();
      await two.close();
    }
  });
} else {
  console.log("PostgreSQL: not measured (DATABASE_URL not set)");
}
