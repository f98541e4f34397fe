// `DATABASE_URL=… deno run -A scripts/bench_logs.ts [--rows=N] [--requests=N]`: the logs page with
// 100 000 rows (default) — GET /api/logs unfiltered, by service, by type, by both, a far page, and the
// server-rendered page /dashboard/admin/logs — signed in as the demo admin, on a throw-away PostgreSQL
// database shaped like a hosted one (the app as a non-superuser owner), or on PGlite without
// DATABASE_URL. N sequential requests each (default 100): p50 and p95 in milliseconds. A measurement,
// not a test: it prints figures and exits 0 whatever they are. The goal: p95 < 100 ms.
import type { Database } from "../lib/db/database.ts";
import { migrate } from "../lib/db/migrate.ts";
import { openPglite } from "../lib/db/pglite.ts";
import { openPostgres } from "../lib/db/postgres.ts";
import { loadConfig } from "../lib/config.ts";
import { createBackground, type Deps } from "../lib/deps.ts";
import { createLogger } from "../lib/log/logger.ts";
import { memoryStorage } from "../lib/storage/storage.ts";
import { statementAs, systemActor } from "../lib/actor.ts";
import { seedDemoData } from "../lib/seed/demo.ts";
import { createApp } from "../routes/_app.tsx";
import { withHostedDatabase } from "./fresh_database.ts";

const arg = (name: string) => Deno.args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const ROWS = Math.min(Math.max(Number(arg("rows") ?? 100_000) || 100_000, 1000), 2_000_000);
const N = Math.min(Math.max(Number(arg("requests") ?? 100) || 100, 10), 5000);
const ORIGIN = "http://localhost:8000";

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function measure(label: string, db: Database): Promise<void> {
  await migrate(db);
  await seedDemoData(db);
  const started = performance.now();
  await statementAs(
    db,
    systemActor("seed"),
    `insert into public.logs (created_at, service, type, message, context)
     select now() - make_interval(secs => g * 30),
            (array['hubspot', 'stripe', 'mail', 'jobs', 'outbox', 'http', 'auth', 'payments'])[1 + g % 8],
            (array['info', 'info', 'info', 'warning', 'error'])[1 + g % 5],
            'Message de test n°' || g, jsonb_build_object('n', g)
     from generate_series(1, $1) g`,
    [ROWS],
  );
  await statementAs(db, systemActor("seed"), "analyze public.logs");
  const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: ORIGIN })[name]);
  const logger = createLogger(db, { quiet: true });
  const deps: Deps = { config, db, logger, background: createBackground(logger), storage: memoryStorage() };
  const app = await createApp(deps);
  const login = await app.request(`${ORIGIN}/api/security/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify({ username: "admin@example.fr", password: "Cocktail#2026" }),
  });
  const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  console.log(
    `${label}: ${ROWS} log rows written in ${
      (performance.now() - started).toFixed(0)
    } ms, ${N} requests each`,
  );
  for (
    const path of [
      "/api/logs",
      "/api/logs?service=hubspot",
      "/api/logs?type=error",
      "/api/logs?service=stripe&type=warning",
      "/api/logs?page=1000",
      "/dashboard/admin/logs",
    ]
  ) {
    const times: number[] = [];
    for (let i = 0; i < N + 5; i++) {
      const t = performance.now();
      const response = await app.request(`${ORIGIN}${path}`, { headers: { cookie } }, {
        remoteAddr: { transport: "tcp", hostname: "127.0.0.1", port: 1 },
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`);
      if (i >= 5) times.push(performance.now() - t); // the first five warm up
    }
    console.log(
      `  GET ${path.padEnd(38)} p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${
        percentile(times, 95).toFixed(1)
      } ms`,
    );
  }
}

const url = Deno.env.get("DATABASE_URL");
if (url) {
  await withHostedDatabase(url, "bench_logs", async (ownerUrl) => {
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
