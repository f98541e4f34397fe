// The workshop sessions' speed figures (issue 12). A measurement, not a test: it prints figures with a
// yes/NO per target and never fails on a timing. Run by scripts/bench.ts (`deno task bench`, part
// "sessions"), or alone:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres deno run -A scripts/bench_sessions.ts [--seconds=10] [--requests=200]
// On a throw-away PostgreSQL database shaped like a hosted one (the app as a non-superuser owner), or on
// PGlite in memory without DATABASE_URL. The app is the real one (createApp), called in process.
// 1. The dates list of a session with 500 dates: POST /session/{slug}/dates (the JSON the island
//    reloads) and GET /session/{slug} (the page rendered on the server), N sequential requests each, then
//    N with 8 at a time: p50 and p95 (target: the list p95 < 30 ms).
// 2. Add-to-cart at a steady 100 requests/s for `seconds` (open loop: each request starts at its
//    scheduled time whatever the answers, and is timed from that time), anonymous visitors from distinct
//    addresses spread over 20 dates of 10 000 places: p50, p95, p99 (target p95 < 50 ms), and that no
//    date sold more than its capacity.
// 3. The public session page's JavaScript: its module scripts and modulepreloads, each gzipped at level
//    9, summed (target <= 25 kB), and that its HTML alone (no script run) shows the dates and prices.
// The load average is printed before each part: the machine has 2 cores, shared.
import { gzipSync } from "node:zlib";
import type { Database } from "../lib/db/database.ts";
import { migrate } from "../lib/db/migrate.ts";
import { openPglite } from "../lib/db/pglite.ts";
import { openPostgres } from "../lib/db/postgres.ts";
import { loadConfig } from "../lib/config.ts";
import { createBackground, type Deps } from "../lib/deps.ts";
import { createLogger } from "../lib/log/logger.ts";
import { memoryStorage } from "../lib/storage/storage.ts";
import { statementAs, systemActor } from "../lib/actor.ts";
import { getManifest } from "../lib/islands/manifest.ts";
import { formatDateTime } from "../lib/sessions/rules.ts";
import { createApp } from "../routes/_app.tsx";
import { withHostedDatabase } from "./fresh_database.ts";

export interface BenchSessionsOptions {
  databaseUrl: string;
  /** Length of the add-to-cart phase (2-30 s). */
  seconds: number;
  /** Requests per list measurement (10-5000). */
  requests?: number;
  log: (line: string) => void;
}

const ORIGIN = "http://localhost:8000";
const LIST_TARGET_MS = 30;
const CART_TARGET_MS = 50;
const CART_RATE = 100;
const JS_BUDGET = 25_000;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;
const yes = (ok: boolean) => ok ? "yes" : "NO";
const load = () => {
  try {
    return Deno.loadavg().map((n) => n.toFixed(2)).join(" / ");
  } catch {
    return "?";
  }
};

type App = Awaited<ReturnType<typeof createApp>>;
let addressCounter = 0;
const call = (app: App, request: Request) => {
  const n = ++addressCounter;
  return app.request(request, undefined, {
    remoteAddr: { transport: "tcp", hostname: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, port: 1 },
  });
};

async function timed(app: App, request: () => Request, n: number, concurrency: number): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const t = performance.now();
      const response = await call(app, request());
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      times.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return times;
}

async function measure(label: string, db: Database, options: BenchSessionsOptions): Promise<void> {
  const { log } = options;
  const n = Math.min(Math.max(options.requests ?? 200, 10), 5000);
  const seconds = Math.min(30, Math.max(2, Math.floor(options.seconds || 10)));
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
  const [busy] = await statementAs<{ id: number }>(
    db,
    seed,
    "insert into public.workshop_sessions (slug, title, city) values ('atelier-charge', 'Atelier charge', 'Lyon') returning id",
  );
  const cartDates = await statementAs<{ uuid: string; timestamp: number }>(
    db,
    seed,
    `insert into public.session_dates (session_id, dtstart, places, places_left, price_ttc)
     select $1, now() + make_interval(days => g), 10000, 10000, 4500 from generate_series(1, 20) g
     returning uuid::text as uuid, floor(extract(epoch from dtstart))::bigint as timestamp`,
    [busy.id],
  );
  const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: ORIGIN, PAGE_CACHE: "false" })[name]);
  const logger = createLogger(db, { quiet: true });
  const deps: Deps = { config, db, logger, background: createBackground(logger), storage: memoryStorage() };
  const app = await createApp(deps);

  // 1. The dates list.
  const dates = () =>
    new Request(`${ORIGIN}/session/atelier-bench/dates`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN },
      body: "{}",
    });
  const page = () => new Request(`${ORIGIN}/session/atelier-bench`);
  const first = await call(app, dates());
  const offers = (await first.json()).results as { dtstart: number; priceTTC: number }[];
  log(`\n${label}: a session with ${offers.length} dates, ${n} requests each (load average ${load()})`);
  await timed(app, dates, 20, 1); // warm-up
  for (
    const [name, request] of [["POST /session/{slug}/dates", dates], [
      "GET /session/{slug}        ",
      page,
    ]] as const
  ) {
    for (const concurrency of [1, 8]) {
      const t = await timed(app, request, n, concurrency);
      const p95 = percentile(t, 95);
      const target = name.startsWith("POST") && concurrency === 1
        ? ` -> p95 < ${LIST_TARGET_MS} ms: ${yes(p95 < LIST_TARGET_MS)}`
        : "";
      log(
        `  ${name} ${concurrency === 1 ? "sequential" : "8 at once "} p50 ${ms(percentile(t, 50))}, p95 ${
          ms(p95)
        }${target}`,
      );
    }
  }

  // 2. Add-to-cart at a steady rate.
  log(`  add-to-cart at ${CART_RATE} req/s for ${seconds} s (load average ${load()})`);
  const total = CART_RATE * seconds;
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const start = performance.now() + 50;
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / CART_RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const { uuid, timestamp } = cartDates[i % cartDates.length];
    pending.push((async () => {
      const response = await call(
        app,
        new Request(`${ORIGIN}/session/atelier-charge/date/${uuid}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: ORIGIN },
          body: JSON.stringify({ session: busy.id, timestamp: Number(timestamp), quantity: 1 }),
        }),
      );
      await response.arrayBuffer();
      latencies.push(performance.now() - due);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    })());
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - start) / 1000;
  const [sold] = await statementAs<{ held: number; oversold: number }>(
    db,
    seed,
    `select coalesce(sum(places - places_left), 0)::int as held,
       count(*) filter (where places_left < 0 or places - places_left > places)::int as oversold
     from public.session_dates where session_id = $1`,
    [busy.id],
  );
  const p95 = percentile(latencies, 95);
  log(
    `    ${total} requests in ${elapsed.toFixed(1)} s (${(total / elapsed).toFixed(0)} req/s), statuses ${
      JSON.stringify(Object.fromEntries(statuses))
    }: p50 ${ms(percentile(latencies, 50))}, p95 ${ms(p95)}, p99 ${
      ms(percentile(latencies, 99))
    } -> p95 < ${CART_TARGET_MS} ms: ${
      yes(p95 < CART_TARGET_MS)
    }; ${sold.held} places held, ${sold.oversold} date(s) oversold`,
  );

  // 3. The page's JavaScript and its HTML alone.
  const html = await (await call(app, page())).text();
  const srcs = [
    ...[...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]),
    ...[...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]),
  ];
  let raw = 0;
  let gzip = 0;
  for (const src of new Set(srcs)) {
    const bytes = new Uint8Array(await (await call(app, new Request(`${ORIGIN}${src}`))).arrayBuffer());
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  const firstOffer = offers[0];
  const showsDate = html.includes(formatDateTime(firstOffer.dtstart));
  const showsPrice = /\d+,\d{2}\s€/.test(html.replace(/<script[\s\S]*?<\/script>/g, ""));
  log(
    `  GET /session/{slug}: ${new Set(srcs).size} JS file(s), ${raw} bytes raw, ${gzip} bytes gzip -> <= ${
      JS_BUDGET / 1000
    } kB: ${yes(gzip <= JS_BUDGET)}; the HTML alone shows the first date: ${yes(showsDate)}, prices: ${
      yes(showsPrice)
    }`,
  );
  await deps.background.settle();
}

export async function benchSessions(options: BenchSessionsOptions): Promise<void> {
  getManifest(); // fails fast when the assets are not built (part 3 reads them)
  options.log(`\nWorkshop sessions (issue 12)`);
  if (options.databaseUrl) {
    await withHostedDatabase(options.databaseUrl, "bench_sessions", async (ownerUrl) => {
      const db = openPostgres(ownerUrl, { max: 8 });
      try {
        await measure("PostgreSQL 15", db, options);
      } finally {
        await db.close();
      }
    });
  } else {
    const db = await openPglite("memory://");
    try {
      await measure("PGlite (no DATABASE_URL)", db, options);
    } finally {
      await db.close();
    }
  }
}

if (import.meta.main) {
  const arg = (name: string) => Deno.args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  await benchSessions({
    databaseUrl: Deno.env.get("DATABASE_URL") ?? "",
    seconds: Number(arg("seconds") ?? 10),
    requests: Number(arg("requests") ?? 200) || 200,
    log: (line) => console.log(line),
  });
}
