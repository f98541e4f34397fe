// `DATABASE_URL=… deno run -A scripts/bench_sessions.ts [--requests=N]`: the dates list of a session with
// 500 dates (POST /session/{slug}/dates, the JSON the island reloads, and GET /session/{slug}, the page
// rendered on the server with every date), on a throw-away PostgreSQL database shaped like a hosted one
// (the app as a non-superuser owner) — and on PGlite without DATABASE_URL. N sequential requests each
// (default 200), then the same N with 8 at a time: p50 and p95 in milliseconds. A measurement, not a
// test: it prints figures and exits 0 whatever they are.
import type { Database } from "../lib/db/database.ts";
import { migrate } from "../lib/db/migrate.ts";
import { openPglite } from "../lib/db/pglite.ts";
import { openPostgres } from "../lib/db/postgres.ts";
import { loadConfig } from "../lib/config.ts";
import { createBackground, type Deps } from "../lib/deps.ts";
import { createLogger } from "../lib/log/logger.ts";
import { memoryStorage } from "../lib/storage/storage.ts";
import { statementAs, systemActor } from "../lib/actor.ts";
import { createApp } from "../routes/_app.tsx";
import { withHostedDatabase } from "./fresh_database.ts";

const arg = (name: string) => Deno.args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const N = Math.min(Math.max(Number(arg("requests") ?? 200) || 200, 10), 5000);
const ORIGIN = "http://localhost:8000";

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function timed(
  app: Awaited<ReturnType<typeof createApp>>,
  request: () => Request,
  n: number,
  concurrency: number,
) {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const t = performance.now();
      const response = await app.request(request(), undefined, {
        remoteAddr: { transport: "tcp", hostname: "127.0.0.1", port: 1 },
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      times.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return `p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`;
}

async function measure(label: string, db: Database): Promise<void> {
  await migrate(db);
  const seed = systemActor("seed");
  const [session] = await statementAs<{ id: number }>(
    db,
    seed,
    "insert into public.workshop_sessions (slug, title, city) values ('atelier-bench', 'Atelier bench', 'Paris') returning id",
  );
  await statementAs(
    db,
    seed,
    `insert into public.session_dates (session_id, dtstart, places, places_left, price_ttc, additional_costs, soon)
     select $1, now() + make_interval(hours => 12 * g), 12, 12 - g % 13, 4500,
       '[{"title":"Kit","ht":1000,"vat":20}]', g % 50 = 0
     from generate_series(1, 500) g`,
    [session.id],
  );
  const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: ORIGIN, PAGE_CACHE: "false" })[name]);
  const logger = createLogger(db, { quiet: true });
  const deps: Deps = { config, db, logger, background: createBackground(logger), storage: memoryStorage() };
  const app = await createApp(deps);
  const dates = () =>
    new Request(`${ORIGIN}/session/atelier-bench/dates`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN },
      body: "{}",
    });
  const page = () => new Request(`${ORIGIN}/session/atelier-bench`);
  const first = await app.request(dates());
  const count = (await first.json()).results.length;
  console.log(`${label}: ${count} dates, ${N} requests each`);
  await timed(app, dates, 20, 1); // warm-up
  console.log(`  POST /session/{slug}/dates  sequential ${await timed(app, dates, N, 1)}`);
  console.log(`  POST /session/{slug}/dates  8 at once  ${await timed(app, dates, N, 8)}`);
  console.log(`  GET /session/{slug}         sequential ${await timed(app, page, N, 1)}`);
  console.log(`  GET /session/{slug}         8 at once  ${await timed(app, page, N, 8)}`);
}

const url = Deno.env.get("DATABASE_URL");
if (url) {
  await withHostedDatabase(url, "bench_sessions", async (ownerUrl) => {
    const db = openPostgres(ownerUrl, { max: 8 });
    try {
      await measure("PostgreSQL", db);
    } finally {
      await db.close();
    }
  });
} else {
  const db = await openPglite("memory://");
  await measure("PGlite", db);
  await db.close();
}
