// The customer quote page's speed targets (issue 7). A measurement, not a test: it prints figures and a
// yes/NO per target, and never fails on a timing. Run by scripts/bench.ts (`deno task bench`), or alone:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres deno run -A scripts/bench_pages.ts [--seconds=10]
// About two minutes with DATABASE_URL; without it, parts 2 and 3 only (on PGlite in memory).
//
// 1. GET /deal/show/{token} (routes/deal_show.tsx) on PostgreSQL with RLS: p95 < 50 ms at 200 requests/s
//    (and, for comparison, at 100 requests/s). The real app (createApp, real deps, Deno.serve on a free
//    port) on a throw-away database (withFreshDatabase: migrated, demo data), the page of a demo quote of
//    client@example.fr in status 'send' or later, for three viewers: anonymous, the deal's customer and
//    its partner (both logged in through the real login route). The load comes from a child process
//    (this file with --page-client) that sends requests at a fixed rate whatever the answers (open
//    loop) and times each from its scheduled start, so a slow answer delays the latencies it causes (no
//    coordinated omission). Also printed: each request's statements and time in the database, measured
//    one request at a time (the service time, which the latencies under load can be compared with), the
//    app process's CPU and the PostgreSQL backends' CPU over each phase, what the backends wait for
//    (pg_stat_activity sampled every 20 ms: row locks, the app, the WAL), and the latency of a control
//    request (a static file, no database) interleaved with the page's: when it is slow too, the machine
//    or the app's event loop stalled, not the page.
// 2. The page's JavaScript before any click <= 40 kB gzip: per viewer, the module scripts and
//    modulepreloads the HTML names (components/layout/render.tsx: one bundle per island used, its shared
//    chunks preloaded) and every file they import statically (followed, as the browser would), each
//    gzipped at level 9, summed. Dynamic imports (the payment form, Stripe, the login form) load on a
//    click and are excluded by design; their size is printed apart. Uses the build in static/build
//    (`deno task build`): a note says when island or component sources are newer than it.
// 3. An invoice PDF < 100 ms: renderInvoicePdf (Factur-X, lib/billing/facturx.ts) and renderPdf
//    (lib/billing/pdf.ts) on the fixtures of lib/billing/fixtures_test.ts, warm-up then 30 runs; and
//    GET /api/customer/deal/download/invoice/{token}/deposit as the customer of a demo deal whose deposit
//    is paid, 30 requests one after another.
//
// The machine has 2 cores and is shared: the load is printed before each part, ratios within the run
// where they help. The database is dropped whatever happens (also on Ctrl-C).
import postgres from "postgres";
import { cpuUsage } from "node:process";
import { gzipSync } from "node:zlib";
import { withFreshDatabase } from "./fresh_database.ts";
import { openPostgres } from "../lib/db/postgres.ts";
import { openPglite } from "../lib/db/pglite.ts";
import { type Database, makeTx, type QueryOptions } from "../lib/db/database.ts";
import { migrate } from "../lib/db/migrate.ts";
import { DEMO_PASSWORD, seedDemoData } from "../lib/seed/demo.ts";
import { createLogger } from "../lib/log/logger.ts";
import { createBackground, type Deps } from "../lib/deps.ts";
import { memoryStorage } from "../lib/storage/storage.ts";
import { loadConfig } from "../lib/config.ts";
import { statementAs, systemActor } from "../lib/actor.ts";
import { openPaymentProvider } from "../lib/payments/open.ts";
import { getManifest, MANIFEST_PATH } from "../lib/islands/manifest.ts";
import { VISIBLE_STATUSES } from "../lib/deals/rules.ts";
import { renderInvoicePdf } from "../lib/billing/facturx.ts";
import { renderPdf } from "../lib/billing/pdf.ts";
import { depositDoc, finalDoc } from "../lib/billing/fixtures_test.ts";
import { createApp } from "../routes/_app.tsx";

export interface BenchPagesOptions {
  /** An admin URL of a PostgreSQL server: a database is created there and dropped afterwards. Empty:
   * part 1 is skipped, parts 2 and 3 run on PGlite in memory. */
  databaseUrl: string;
  /** Length of each fixed-rate phase (clamped to 2-30 s). */
  seconds: number;
  log: (line: string) => void;
}

const PAGE_TARGET_MS = 50;
const RATES = [200, 100];
const JS_BUDGET = 40_000;
const PDF_TARGET_MS = 100;
const PDF_RUNS = 30;
/** A request still unanswered after this long is given up (counted as such). */
const TIMEOUT_MS = 5_000;
/** One control request (CONTROL_PATH) per this many page requests. */
const CONTROL_EVERY = 10;
const CONTROL_PATH = "/favicon.svg";
const SEED = systemActor("seed");

// ---------------------------------------------------------------------------------------------------
// Small helpers.

/** Nearest-rank percentile of sorted values (as scripts/bench.ts). */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

interface Stats {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? NaN,
  };
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : `>${TIMEOUT_MS}`);
const yes = (ok: boolean) => (ok ? "yes" : "NO");
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** CPU time (user + system) of this process, in ms. */
function cpuMs(): number {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
}

/** Busy and total jiffies of all cores (Linux /proc/stat); null elsewhere. */
function procStat(): { busy: number; total: number } | null {
  try {
    const fields = Deno.readTextFileSync("/proc/stat").split("\n")[0].trim().split(/\s+/).slice(1).map(
      Number,
    );
    const total = fields.reduce((a, b) => a + b, 0);
    return { busy: total - fields[3] - (fields[4] ?? 0), total };
  } catch {
    return null;
  }
}

function busyBetween(a: ReturnType<typeof procStat>, b: ReturnType<typeof procStat>): number | null {
  if (!a || !b) return null;
  return b.total === a.total ? 0 : (b.busy - a.busy) / (b.total - a.total) * 100;
}

/** Load averages and the share of all cores busy over `sampleMs`, this process idle meanwhile. */
export async function machineLoad(sampleMs = 500): Promise<string> {
  const a = procStat();
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  const busy = busyBetween(a, procStat());
  const [l1, l5, l15] = Deno.loadavg();
  return `${busy === null ? "?" : busy.toFixed(0)}% busy over ${sampleMs} ms, load average ${l1.toFixed(2)} ${
    l5.toFixed(2)
  } ${l15.toFixed(2)} (${navigator.hardwareConcurrency} cores)`;
}

/** CPU time (ms) of PostgreSQL backends by pid, from /proc (the server runs on this machine). */
function backendCpu(pids: number[]): Map<number, number> {
  const ticks = 100; // USER_HZ on Linux
  const result = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      result.set(pid, (Number(fields[11]) + Number(fields[12])) * 1000 / ticks);
    } catch { /* gone, or not on this machine */ }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Counting what the app asks the database: a wrapper around the real adapter.

interface DbCounter {
  transactions: number;
  /** Statements run inside transactions (BEGIN, the claims and COMMIT not included). */
  queries: number;
  /** Single statements (statementAs: BEGIN, claims, statement, COMMIT in one round trip). */
  statements: number;
  /** Wall time spent in transactions and statements, summed (overlapping ones too). */
  dbMs: number;
  /** When set, each statement's text and wall time. */
  trace: { text: string; ms: number }[] | null;
}

function newCounter(): DbCounter {
  return { transactions: 0, queries: 0, statements: 0, dbMs: 0, trace: null };
}

function countingDatabase(db: Database, counter: DbCounter): Database {
  const timed = async <T>(text: string, run: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await run();
    } finally {
      counter.trace?.push({ text, ms: performance.now() - t0 });
    }
  };
  return {
    kind: db.kind,
    async transaction(claims, fn) {
      counter.transactions++;
      const t0 = performance.now();
      try {
        return await db.transaction(
          claims,
          (tx) =>
            fn(makeTx(<T>(text: string, params: unknown[], options: QueryOptions) => {
              counter.queries++;
              return timed(text, () => tx.query<T>(text, params, options));
            })),
        );
      } finally {
        counter.dbMs += performance.now() - t0;
      }
    },
    async statement(claims, text, params, options) {
      counter.statements++;
      const t0 = performance.now();
      try {
        return await timed(`[statement] ${text}`, () => db.statement(claims, text, params, options));
      } finally {
        counter.dbMs += performance.now() - t0;
      }
    },
    execScript: (script, guard) => db.execScript(script, guard),
    listen: (channel, onMessage, onListening) => db.listen(channel, onMessage, onListening),
    close: () => db.close(),
  };
}

// ---------------------------------------------------------------------------------------------------
// The load client (child process): GETs at a fixed rate, open loop.

interface ClientConfig {
  origin: string;
  path: string;
  cookie: string;
  /** Text a right answer holds (the viewer's section of the page). */
  marker: string;
  /** A path that costs the app almost nothing (a static file, no middleware, no database), requested
   * in addition once every CONTROL_EVERY page requests: its latency is the floor the machine and the
   * app's event loop give during the same phase. */
  control: string;
  rate: number;
  seconds: number;
  warmupSeconds: number;
}

interface ClientResult {
  /** Per request, from its scheduled start to the end of its body; null when given up. */
  latencies: (number | null)[];
  /** "200" for right answers, else the status (or "network error", "wrong body", "timeout"), counted. */
  outcomes: Record<string, number>;
  /** How late the client sent requests on its schedule (its own delays, counted in the latencies). */
  lateP99: number;
  lateMax: number;
  phaseMs: number;
  clientCpuPercent: number;
  /** The control requests' latencies (null when given up or wrong). */
  control: (number | null)[];
}

async function runPageClient(config: ClientConfig): Promise<void> {
  if (new URL(config.origin).hostname !== "127.0.0.1") throw new Error(`Refusing non-local ${config.origin}`);
  const headers: Record<string, string> = { accept: "text/html" };
  if (config.cookie) headers.cookie = config.cookie;
  const url = config.origin + config.path;
  const controlUrl = config.origin + config.control;

  const phase = async (count: number) => {
    const latencies: (number | null)[] = [];
    const control: (number | null)[] = [];
    const outcomes: Record<string, number> = {};
    const late: number[] = [];
    const interval = 1000 / config.rate;
    const t0 = performance.now() + 20;
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < count; i++) {
      const scheduled = t0 + i * interval;
      const wait = scheduled - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      late.push(performance.now() - scheduled);
      if (i % CONTROL_EVERY === CONTROL_EVERY - 1) {
        inFlight.push((async () => {
          try {
            const res = await fetch(controlUrl, { signal: AbortSignal.timeout(TIMEOUT_MS) });
            await res.arrayBuffer();
            control.push(res.status === 200 ? performance.now() - scheduled : null);
          } catch {
            control.push(null);
          }
        })());
      }
      inFlight.push((async () => {
        let outcome: string;
        let latency: number | null = null;
        try {
          const res = await fetch(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
          const body = await res.text();
          latency = performance.now() - scheduled;
          outcome = res.status !== 200
            ? `HTTP ${res.status}`
            : body.includes(config.marker)
            ? "200"
            : "wrong body";
        } catch (error) {
          outcome = (error as Error).name === "TimeoutError" ? "timeout" : "network error";
        }
        latencies.push(latency);
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      })());
    }
    await Promise.all(inFlight);
    return { latencies, outcomes, late, control, phaseMs: performance.now() - t0 };
  };

  // Warm-up at the same rate: the JIT on both sides, the connections of both pools.
  await phase(Math.round(config.rate * config.warmupSeconds));
  console.log("measuring");
  const cpu0 = cpuMs();
  const measured = await phase(Math.round(config.rate * config.seconds));
  const lateSorted = measured.late.sort((a, b) => a - b);
  const result: ClientResult = {
    latencies: measured.latencies,
    outcomes: measured.outcomes,
    lateP99: percentile(lateSorted, 0.99),
    lateMax: lateSorted[lateSorted.length - 1] ?? 0,
    phaseMs: measured.phaseMs,
    clientCpuPercent: (cpuMs() - cpu0) / measured.phaseMs * 100,
    control: measured.control,
  };
  console.log(JSON.stringify(result));
}

function lineSplitter(): TransformStream<string, string> {
  let pending = "";
  return new TransformStream({
    transform(chunk, controller) {
      const parts = (pending + chunk).split("\n");
      pending = parts.pop()!;
      parts.forEach((line) => controller.enqueue(line));
    },
    flush(controller) {
      if (pending) controller.enqueue(pending);
    },
  });
}

interface PhaseResult extends ClientResult {
  /** This process (the app, its HTTP layer, the database driver) over the measured phase. */
  serverCpuPercent: number;
  /** The PostgreSQL backends of this database over the phase (null on PGlite or when unreadable). */
  postgresCpuPercent: number | null;
  machineBusyPercent: number | null;
  /** What the app asked the database during the phase. */
  db: DbCounter;
  /** The PostgreSQL backends of this database by state or wait event, on average over the phase. */
  backends: Record<string, number>;
}

/** Runs the child client against `path` and reads this machine's clocks over its measured phase. */
async function atFixedRate(
  ctx: Server,
  config: Omit<ClientConfig, "origin">,
): Promise<PhaseResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL(import.meta.url).pathname,
      "--page-client",
      JSON.stringify({ ...config, origin: ctx.origin }),
    ],
    stdout: "piped",
    stderr: "inherit",
    env: { NO_COLOR: "1" },
  }).spawn();
  let cpu0 = 0;
  let t0 = 0;
  let stat0: ReturnType<typeof procStat> = null;
  let pg0 = new Map<number, number>();
  let counted = newCounter();
  let last = "";
  // What the backends do, sampled every 20 ms over the phase: summed counts by state / wait event.
  const activity: Record<string, number> = {};
  let samples = 0;
  let sampling: Promise<void> | null = null;
  let measuring = false;
  const sample = async () => {
    while (measuring && ctx.probe) {
      for (const { what, count } of await ctx.probe.activity()) {
        activity[what] = (activity[what] ?? 0) + count;
      }
      samples++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(lineSplitter());
  for await (const line of lines) {
    if (line === "measuring") {
      cpu0 = cpuMs();
      t0 = performance.now();
      stat0 = procStat();
      if (ctx.probe) pg0 = backendCpu(await ctx.probe.pids());
      counted = { ...ctx.counter };
      measuring = true;
      sampling = sample();
    } else if (line.trim()) {
      last = line;
      measuring = false;
    }
  }
  const wallMs = performance.now() - t0;
  const serverCpuPercent = (cpuMs() - cpu0) / wallMs * 100;
  const machineBusyPercent = busyBetween(stat0, procStat());
  measuring = false;
  await sampling;
  let postgresCpuPercent: number | null = null;
  if (ctx.probe) {
    const pg1 = backendCpu(await ctx.probe.pids());
    let pgMs = 0;
    for (const [pid, cpu] of pg1) pgMs += cpu - (pg0.get(pid) ?? 0); // a backend opened during the phase: all its CPU
    postgresCpuPercent = pgMs / wallMs * 100;
  }
  const now = ctx.counter;
  const db: DbCounter = {
    transactions: now.transactions - counted.transactions,
    queries: now.queries - counted.queries,
    statements: now.statements - counted.statements,
    dbMs: now.dbMs - counted.dbMs,
    trace: null,
  };
  const status = await child.status;
  if (!status.success || !last) throw new Error(`The load client failed for ${config.path}`);
  return {
    ...(JSON.parse(last) as ClientResult),
    serverCpuPercent,
    postgresCpuPercent,
    machineBusyPercent,
    db,
    backends: Object.fromEntries(
      Object.entries(activity).map(([what, count]) => [what, count / Math.max(1, samples)]),
    ),
  };
}

// ---------------------------------------------------------------------------------------------------
// The app under test.

interface Server {
  origin: string;
  deps: Deps;
  counter: DbCounter;
  /** On PostgreSQL: reads this database's backends (the app's pool) from a connection of its own. */
  probe: PgProbe | null;
}

interface PgProbe {
  pids(): Promise<number[]>;
  /** Backends by what they do now: "active: CPU", "active: Lock/transactionid", "idle in transaction"… */
  activity(): Promise<{ what: string; count: number }[]>;
}

function pgProbe(sql: postgres.Sql): PgProbe {
  return {
    pids: async () =>
      (await sql<{ pid: number }[]>`select pid from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()`).map((r) => r.pid),
    activity: () =>
      sql<{ what: string; count: number }[]>`
        select case when state = 'active' then 'active: ' || coalesce(wait_event_type || '/' || wait_event, 'CPU')
                    else state end as what,
               count(*)::int as count
        from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
        group by 1`,
  };
}

interface Viewer {
  label: string;
  cookie: string;
  /** What only this viewer's page holds (components/deals/show/DealShowPage.tsx, PaymentCard). */
  marker: string;
}

interface DemoDeals {
  /** The quote the page benchmark opens: client@example.fr's, status 'send' or later. */
  page: { id: number; token: string; status: string; partnerEmail: string };
  /** A deal of client@example.fr whose deposit is paid (its invoice downloaded). */
  deposit: { id: number; token: string; status: string } | null;
}

export async function findDemoDeals(db: Database): Promise<DemoDeals> {
  // The page: the deal of client@example.fr that has a partner and shows the most (payment options
  // before any payment), by status order.
  const [page] = await statementAs<{ id: number; token: string; status: string; partnerEmail: string }>(
    db,
    SEED,
    `select d.id, d.token, d.status, p.email as "partnerEmail"
     from public.deals d join public.users c on c.id = d.customer_id join public.users p on p.id = d.company_id
     where c.email = 'client@example.fr' and d.status = any($1::text[])
     order by array_position($2::text[], d.status), d.id limit 1`,
    [VISIBLE_STATUSES, ["accepted", "send", "edited", "pay_partial", "pay_total", "win"]],
  );
  if (!page) throw new Error("No demo deal of client@example.fr in status 'send' or later");
  const [deposit] = await statementAs<{ id: number; token: string; status: string }>(
    db,
    SEED,
    `select d.id, d.token, d.status from public.deals d join public.users c on c.id = d.customer_id
     where c.email = 'client@example.fr' and d.deposit_paid_at is not null
       and exists (select from public.invoices i join public.deal_payments p on p.id = i.payment_id
                   where p.deal_id = d.id and i.series = 'FA')
     order by d.id limit 1`,
  );
  return { page, deposit: deposit ?? null };
}

async function login(origin: string, email: string): Promise<string> {
  const res = await fetch(`${origin}/api/security/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ username: email, password: DEMO_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: HTTP ${res.status} ${await res.text()}`);
  await res.body?.cancel();
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

/** Serves the real app on `db` (wrapped to count its statements) on a free port; `fn` runs with it. */
async function withApp<T>(
  rawDb: Database,
  probe: PgProbe | null,
  fn: (server: Server) => Promise<T>,
): Promise<T> {
  const counter = newCounter();
  const db = countingDatabase(rawDb, counter);
  const config = loadConfig((n) =>
    ({ APP_URL: "http://127.0.0.1", PAGE_CACHE: "false" } as Record<string, string>)[n]
  );
  const logger = createLogger(db, { quiet: true });
  const deps: Deps = {
    config,
    db,
    logger,
    background: createBackground(logger),
    storage: memoryStorage(),
    payments: openPaymentProvider(config, db),
  };
  const app = await createApp(deps);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
  try {
    return await fn({ origin: `http://127.0.0.1:${server.addr.port}`, deps, counter, probe });
  } finally {
    await server.shutdown();
    await deps.background.settle();
  }
}

async function viewersOf(server: Server, deals: DemoDeals): Promise<Viewer[]> {
  return [
    { label: "anonymous", cookie: "", marker: 'data-testid="login-section"' },
    {
      label: "customer (client@example.fr)",
      cookie: await login(server.origin, "client@example.fr"),
      marker: 'data-testid="payment-section"',
    },
    {
      label: `partner (${deals.page.partnerEmail})`,
      cookie: await login(server.origin, deals.page.partnerEmail),
      marker: 'data-testid="amount-section"',
    },
  ];
}

async function getPage(server: Server, path: string, viewer: Viewer): Promise<string> {
  const res = await fetch(server.origin + path, {
    headers: { accept: "text/html", ...(viewer.cookie ? { cookie: viewer.cookie } : {}) },
  });
  const html = await res.text();
  if (res.status !== 200) throw new Error(`${path} as ${viewer.label}: HTTP ${res.status}`);
  if (!html.includes(viewer.marker)) {
    throw new Error(`${path} as ${viewer.label}: the page lacks ${viewer.marker} (wrong viewer?)`);
  }
  return html;
}

// ---------------------------------------------------------------------------------------------------
// 1. The page under load.

interface PageResult {
  viewer: string;
  rate: number;
  p95: number;
  errors: number;
  achieved: number;
}

/** One request at a time: the service time, and what each request asks the database. */
async function sequential(server: Server, path: string, viewer: Viewer, log: (line: string) => void) {
  const totals: number[] = [];
  const dbTimes: number[] = [];
  let per = newCounter();
  for (let i = 0; i < 60; i++) {
    const before = { ...server.counter };
    const trace: { text: string; ms: number }[] = [];
    server.counter.trace = i === 59 ? trace : null;
    const t0 = performance.now();
    await getPage(server, path, viewer);
    const total = performance.now() - t0;
    server.counter.trace = null;
    if (i < 10) continue; // warm-up
    totals.push(total);
    dbTimes.push(server.counter.dbMs - before.dbMs);
    per = {
      transactions: server.counter.transactions - before.transactions,
      queries: server.counter.queries - before.queries,
      statements: server.counter.statements - before.statements,
      dbMs: 0,
      trace: i === 59 ? trace : null,
    };
  }
  const t = stats(totals);
  const d = stats(dbTimes);
  // On PostgreSQL a transaction is one round trip per statement plus its COMMIT (BEGIN and the claims
  // travel with the first statement); a single statement is one round trip (lib/db/postgres.ts).
  const roundTrips = per.queries + per.transactions + per.statements;
  log(
    `    ${viewer.label}: one at a time, ${t.n} requests: p50 ${ms(t.p50)} ms, p95 ${ms(t.p95)} ms; in the ` +
      `database p50 ${ms(d.p50)} ms (${
        (d.p50 / t.p50 * 100).toFixed(0)
      }%); per request ${per.transactions} ` +
      `transaction(s) with ${per.queries} statements + ${per.statements} single statement(s) = ` +
      `${roundTrips} round trips`,
  );
  return { service: t, db: d, per };
}

async function benchPage(
  server: Server,
  deals: DemoDeals,
  seconds: number,
  log: (line: string) => void,
): Promise<PageResult[]> {
  const path = `/deal/show/${deals.page.token}`;
  log(
    `\n1. GET /deal/show/{token} on PostgreSQL (RLS), deal ${deals.page.id} ('${deals.page.status}'). ` +
      `Machine: ${await machineLoad()}`,
  );
  const viewers = await viewersOf(server, deals);
  const sizes = await Promise.all(
    viewers.map(async (v) => new TextEncoder().encode(await getPage(server, path, v)).length),
  );
  log(`  page size: ${viewers.map((v, i) => `${v.label.split(" ")[0]} ${kB(sizes[i])}`).join(", ")}`);
  log(`  Service time (this process's fetch, one request at a time, after 10 warm-up requests):`);
  const service = new Map<string, number>();
  for (const viewer of viewers) {
    const { service: t, per } = await sequential(server, path, viewer, log);
    service.set(viewer.label, t.p50);
    if (viewer.label.startsWith("customer") && per.trace) {
      log(`      statements of one request (wall time as the app waits for each):`);
      for (const s of per.trace) {
        log(`        ${s.ms.toFixed(2).padStart(6)} ms  ${s.text.replace(/\s+/g, " ").slice(0, 110)}`);
      }
    }
  }

  const results: PageResult[] = [];
  for (const rate of RATES) {
    log(
      `\n  ${rate} requests/s for ${seconds} s per viewer (after 2 s of warm-up at that rate), from a child ` +
        `process, latency from each request's scheduled start. Machine: ${await machineLoad()}`,
    );
    log(
      `    ${"viewer".padEnd(40)}${"sent".padStart(6)}${"errors".padStart(7)}${"req/s".padStart(7)}${
        "p50".padStart(8)
      }${"p95".padStart(8)}${"p99".padStart(8)}${"max".padStart(8)}  ${"app cpu".padStart(7)}${
        "pg cpu".padStart(7)
      }${"machine".padStart(8)}${"stmts/req".padStart(10)}${"db ms/req".padStart(10)}  p95<${PAGE_TARGET_MS}`,
    );
    for (const viewer of viewers) {
      const r = await atFixedRate(server, {
        path,
        cookie: viewer.cookie,
        marker: viewer.marker,
        rate,
        seconds,
        warmupSeconds: 2,
        control: CONTROL_PATH,
      });
      const answered = r.latencies.filter((l): l is number => l !== null);
      const s = stats(r.latencies.map((l) => l ?? Infinity));
      const errors = r.latencies.length - (r.outcomes["200"] ?? 0);
      const achieved = (r.outcomes["200"] ?? 0) / (r.phaseMs / 1000);
      const requests = Math.max(1, r.latencies.length);
      const pct = (v: number | null) => (v === null ? "?" : `${v.toFixed(0)}%`);
      log(
        `    ${viewer.label.padEnd(40)}${String(r.latencies.length).padStart(6)}${
          String(errors).padStart(7)
        }${achieved.toFixed(0).padStart(7)}${ms(s.p50).padStart(8)}${ms(s.p95).padStart(8)}${
          ms(s.p99).padStart(8)
        }${ms(s.max).padStart(8)}  ${pct(r.serverCpuPercent).padStart(7)}${
          pct(r.postgresCpuPercent).padStart(7)
        }${pct(r.machineBusyPercent).padStart(8)}${
          ((r.db.queries + r.db.statements) / requests).toFixed(1).padStart(10)
        }${(r.db.dbMs / requests).toFixed(1).padStart(10)}  ${yes(s.p95 < PAGE_TARGET_MS && errors === 0)}`,
      );
      const p50Service = service.get(viewer.label)!;
      log(
        `      p50 under load / p50 one at a time: ${(s.p50 / p50Service).toFixed(1)}x; client late on its ` +
          `schedule: p99 ${r.lateP99.toFixed(1)} ms, max ${r.lateMax.toFixed(1)} ms; client cpu ${
            r.clientCpuPercent.toFixed(0)
          }%${
            answered.length < r.latencies.length ? `; ${r.latencies.length - answered.length} given up` : ""
          }${
            achieved < rate * 0.95
              ? "; SATURATED: answered less than offered, latencies are mostly queueing"
              : ""
          }`,
      );
      const c = stats(r.control.map((l) => l ?? Infinity));
      log(
        `      control GET ${CONTROL_PATH} (a static file, no database; ${c.n} requests interleaved): p50 ${
          ms(c.p50)
        } ms, p95 ${ms(c.p95)} ms, max ${ms(c.max)} ms${
          c.p95 > PAGE_TARGET_MS / 2
            ? " -> the machine or the app's event loop stalled during this phase"
            : ""
        }`,
      );
      const busy = Object.entries(r.backends).filter(([what]) => what !== "idle").sort((a, b) => b[1] - a[1]);
      if (busy.length) {
        log(
          `      PostgreSQL backends, on average (sampled every 20 ms): ${
            busy.map(([what, n]) => `${what} ${n.toFixed(2)}`).join(", ")
          }`,
        );
      }
      for (const [outcome, count] of Object.entries(r.outcomes)) {
        if (outcome !== "200") log(`      warning: ${count} x ${outcome}`);
      }
      results.push({ viewer: viewer.label, rate, p95: s.p95, errors, achieved });
    }
  }
  return results;
}

// ---------------------------------------------------------------------------------------------------
// 2. The page's JavaScript before any click.

interface JsFile {
  path: string;
  raw: number;
  gzip: number;
}

const gzip9 = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;

/** Static imports of an esbuild ESM chunk (`import … from "./x.js"`, `import "./x.js"`,
 * `export … from "./x.js"`), and its dynamic imports (`import("./x.js")`). */
function importsOf(code: string): { static: string[]; dynamic: string[] } {
  const stat = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*)["']([^"']+\.js)["']/g)].map((m) => m[1]);
  const dynamic = [...code.matchAll(/\bimport\(\s*["']([^"']+\.js)["']\s*\)/g)].map((m) => m[1]);
  return { static: stat, dynamic };
}

async function fetchJs(origin: string, path: string): Promise<Uint8Array> {
  const url = new URL(path, origin);
  if (url.origin !== origin) throw new Error(`Refusing non-local asset ${url}`);
  const res = await fetch(url);
  const body = new Uint8Array(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${url.pathname}: HTTP ${res.status}`);
  return body;
}

/** The files `roots` load (static imports followed), and the dynamic imports met on the way. */
async function closure(origin: string, roots: string[], loaded = new Set<string>()) {
  const files: JsFile[] = [];
  const dynamic = new Set<string>();
  const queue = roots.map((r) => new URL(r, origin).pathname);
  while (queue.length && files.length < 200) {
    const path = queue.shift()!;
    if (loaded.has(path)) continue;
    loaded.add(path);
    const bytes = await fetchJs(origin, path);
    files.push({ path, raw: bytes.length, gzip: gzip9(bytes) });
    const found = importsOf(new TextDecoder().decode(bytes));
    const resolve = (s: string) => new URL(s, new URL(path, origin)).pathname;
    queue.push(...found.static.map(resolve));
    found.dynamic.map(resolve).forEach((d) => dynamic.add(d));
  }
  return { files, dynamic: [...dynamic] };
}

interface JsResult {
  viewer: string;
  gzip: number;
}

async function pageJavaScript(origin: string, html: string) {
  const tags = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)];
  const srcs = tags.map((m) => /\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(m[1])?.[1]).filter((s): s is string =>
    !!s
  );
  const inline = tags.map((m) => new TextEncoder().encode(m[2].trim())).filter((b) => b.length > 0);
  const preloads = [...html.matchAll(/<link\b[^>]*\brel\s*=\s*["']?modulepreload["']?[^>]*>/gi)]
    .map((m) => /\bhref\s*=\s*["']?([^"'\s>]+)/i.exec(m[0])?.[1])
    .filter((s): s is string => !!s);
  const islands = [...new Set([...html.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]))];
  const loaded = new Set<string>();
  const upFront = await closure(origin, [...srcs, ...preloads], loaded);
  // What a click would add (the dynamic imports and their own imports), excluded from the budget.
  const onClick = await closure(origin, upFront.dynamic, new Set(loaded));
  const listed = new Set([...srcs, ...preloads].map((p) => new URL(p, origin).pathname));
  const inlineRaw = inline.reduce((a, b) => a + b.length, 0);
  const inlineGzip = inline.reduce((a, b) => a + gzip9(b), 0);
  return {
    islands,
    scripts: srcs.length,
    preloads: preloads.length,
    files: upFront.files,
    notPreloaded: upFront.files.map((f) => f.path).filter((p) => !listed.has(p)),
    raw: upFront.files.reduce((a, f) => a + f.raw, 0) + inlineRaw,
    gzip: upFront.files.reduce((a, f) => a + f.gzip, 0) + inlineGzip,
    inlineGzip,
    dynamic: upFront.dynamic,
    onClickGzip: onClick.files.reduce((a, f) => a + f.gzip, 0),
    onClickFiles: onClick.files.length,
  };
}

/** Island or component sources changed after the build that the page's bundles come from. */
async function newerThanBuild(): Promise<string[]> {
  const built = (await Deno.stat(MANIFEST_PATH)).mtime?.getTime() ?? 0;
  const root = new URL("../", import.meta.url).pathname;
  const newer: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (/\.tsx?$/.test(entry.name) && ((await Deno.stat(path)).mtime?.getTime() ?? 0) > built) {
        newer.push(path.slice(root.length));
      }
    }
  };
  for (const dir of ["islands", "components"]) await walk(`${root}${dir}`);
  return newer;
}

async function benchJavaScript(
  server: Server,
  deals: DemoDeals,
  log: (line: string) => void,
): Promise<JsResult[]> {
  // The manifest as it is now (the app cached it at start; a build since then may have removed the files
  // it named): the pages rendered below name the current files.
  const manifest = getManifest(true);
  const builtAt = (await Deno.stat(MANIFEST_PATH)).mtime;
  log(
    `\n2. The page's JavaScript before any click (budget ${JS_BUDGET / 1000} kB gzip, level 9, each file ` +
      `gzipped apart), build of ${builtAt?.toISOString() ?? "?"} (${
        Object.keys(manifest.islands).length
      } islands)`,
  );
  const newer = await newerThanBuild();
  if (newer.length) {
    log(
      `  note: ${newer.length} island/component source(s) changed after this build (${
        newer.slice(0, 4).join(", ")
      }${newer.length > 4 ? ", …" : ""}): run \`deno task build\` for figures of the current code`,
    );
  }
  const path = `/deal/show/${deals.page.token}`;
  const results: JsResult[] = [];
  for (const viewer of await viewersOf(server, deals)) {
    let js: Awaited<ReturnType<typeof pageJavaScript>>;
    try {
      js = await pageJavaScript(server.origin, await getPage(server, path, viewer));
    } catch (error) {
      // A build replaced the files between the page and its scripts: once more, on the new manifest.
      log(`  note: ${(error as Error).message}; the build changed during the run, measuring again`);
      getManifest(true);
      js = await pageJavaScript(server.origin, await getPage(server, path, viewer));
    }
    log(
      `  ${viewer.label}: islands ${
        js.islands.join(", ") || "none"
      }; ${js.scripts} script(s), ${js.preloads} ` +
        `modulepreload(s), ${js.files.length} files: ${kB(js.raw)} raw, ${kB(js.gzip)} gzip -> <= ${
          JS_BUDGET / 1000
        } kB: ${yes(js.gzip <= JS_BUDGET)}`,
    );
    if (js.files.length) {
      const biggest = [...js.files].sort((a, b) => b.gzip - a.gzip).slice(0, 4);
      log(`    largest (gzip): ${biggest.map((f) => `${f.path.split("/").pop()} ${kB(f.gzip)}`).join(", ")}`);
    }
    if (js.inlineGzip) log(`    inline scripts: ${kB(js.inlineGzip)} gzip (counted)`);
    if (js.notPreloaded.length) {
      log(`    note: imported but not modulepreloaded (a request waterfall): ${js.notPreloaded.join(", ")}`);
    }
    if (js.dynamic.length) {
      log(
        `    excluded by design: ${js.dynamic.length} dynamic import(s) (${
          js.dynamic.map((d) => d.split("/").pop()).join(", ")
        }): ${js.onClickFiles} more file(s), ${kB(js.onClickGzip)} gzip, loaded on a click`,
      );
    }
    results.push({ viewer: viewer.label, gzip: js.gzip });
  }
  return results;
}

// ---------------------------------------------------------------------------------------------------
// 3. Invoice PDFs.

async function timeRuns(fn: () => Promise<Uint8Array>) {
  let t0 = performance.now();
  const first = await fn();
  const cold = performance.now() - t0;
  for (let i = 0; i < 3; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < PDF_RUNS; i++) {
    t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return { cold, bytes: first.length, ...stats(times) };
}

interface PdfResult {
  label: string;
  p95: number;
}

async function benchPdfRender(log: (line: string) => void): Promise<PdfResult[]> {
  log(
    `\n3a. Rendering invoice PDFs in this process (fixtures of lib/billing/fixtures_test.ts; first call, ` +
      `then 3 warm-up and ${PDF_RUNS} timed runs). Machine: ${await machineLoad()}`,
  );
  const cases: [string, () => Promise<Uint8Array>][] = [
    ["renderInvoicePdf(finalDoc)  Factur-X", () => renderInvoicePdf(finalDoc())],
    ["renderInvoicePdf(depositDoc) Factur-X", () => renderInvoicePdf(depositDoc())],
    ["renderPdf(finalDoc)        plain", () => renderPdf(finalDoc())],
    ["renderPdf(depositDoc)      plain", () => renderPdf(depositDoc())],
  ];
  const results: PdfResult[] = [];
  const p50s: number[] = [];
  for (const [label, fn] of cases) {
    const r = await timeRuns(fn);
    p50s.push(r.p50);
    log(
      `  ${label.padEnd(40)} first ${ms(r.cold).padStart(7)} ms | p50 ${ms(r.p50).padStart(6)}  p95 ${
        ms(r.p95).padStart(6)
      }  max ${ms(r.max).padStart(6)} ms | ${kB(r.bytes)} | p95 < ${PDF_TARGET_MS} ms: ${
        yes(r.p95 < PDF_TARGET_MS)
      }`,
    );
    results.push({ label: label.split(" ")[0], p95: r.p95 });
  }
  log(
    `  Factur-X / plain, p50: finalDoc ${(p50s[0] / p50s[2]).toFixed(2)}x, depositDoc ${
      (p50s[1] / p50s[3]).toFixed(2)
    }x (the XML, PDF/A-3 and the embedding)`,
  );
  return results;
}

async function benchPdfHttp(
  server: Server,
  deals: DemoDeals,
  log: (line: string) => void,
): Promise<PdfResult | null> {
  if (!deals.deposit) {
    log(
      `\n3b. Invoice through HTTP: not measured (no demo deal of client@example.fr with its deposit invoiced)`,
    );
    return null;
  }
  const path = `/api/customer/deal/download/invoice/${deals.deposit.token}/deposit`;
  log(
    `\n3b. GET /api/customer/deal/download/invoice/{token}/deposit as client@example.fr on ${server.deps.db.kind}, ` +
      `deal ${deals.deposit.id} ('${deals.deposit.status}'), 3 warm-up then ${PDF_RUNS} requests one after ` +
      `another. Machine: ${await machineLoad()}`,
  );
  const cookie = await login(server.origin, "client@example.fr");
  const get = async () => {
    const res = await fetch(server.origin + path, { headers: { cookie, accept: "application/pdf" } });
    const body = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200 || res.headers.get("content-type") !== "application/pdf") {
      throw new Error(`${path}: HTTP ${res.status} ${res.headers.get("content-type")}`);
    }
    return body;
  };
  const before = { ...server.counter };
  const r = await timeRuns(get);
  const perRequest =
    (server.counter.queries + server.counter.statements - before.queries - before.statements) /
    (PDF_RUNS + 4);
  const dbPerRequest = (server.counter.dbMs - before.dbMs) / (PDF_RUNS + 4);
  log(
    `  first ${ms(r.cold)} ms | p50 ${ms(r.p50)} ms, p95 ${ms(r.p95)} ms, max ${ms(r.max)} ms | ${
      kB(r.bytes)
    } | ` +
      `${perRequest.toFixed(0)} statements, ${
        dbPerRequest.toFixed(1)
      } ms in the database per request | p95 < ${PDF_TARGET_MS} ms: ${yes(r.p95 < PDF_TARGET_MS)}`,
  );
  return { label: "HTTP deposit invoice", p95: r.p95 };
}

// ---------------------------------------------------------------------------------------------------
// The run.

export async function benchPages(options: BenchPagesOptions): Promise<void> {
  const { log } = options;
  const started = performance.now();
  const seconds = Math.min(30, Math.max(2, Math.floor(options.seconds || 10)));
  log(
    `\nCustomer quote page (targets: GET /deal/show/{token} p95 < ${PAGE_TARGET_MS} ms at ${
      RATES[0]
    } req/s on ` +
      `PostgreSQL; JavaScript before the payment dialog <= ${
        JS_BUDGET / 1000
      } kB gzip; invoice PDF < ${PDF_TARGET_MS} ms)`,
  );
  log(`Machine at the start: ${await machineLoad(1000)}`);
  getManifest(); // fails fast when the assets are not built

  let page: PageResult[] | null = null;
  let js: JsResult[] | null = null;
  let pdf: PdfResult[] | null = null;
  let pdfHttp: PdfResult | null = null;
  const attempt = async <T>(name: string, fn: () => Promise<T>): Promise<T | null> => {
    try {
      return await fn();
    } catch (error) {
      log(`\n  ${name} could not run: ${(error as Error).stack ?? error}`);
      return null;
    }
  };

  const withServer = async (server: Server) => {
    const deals = await findDemoDeals(server.deps.db);
    if (server.deps.db.kind === "postgres") {
      page = await attempt("part 1 (the page under load)", () => benchPage(server, deals, seconds, log));
    } else {
      log(`\n1. GET /deal/show/{token} on PostgreSQL: not measured (DATABASE_URL not set)`);
    }
    js = await attempt("part 2 (JavaScript)", () => benchJavaScript(server, deals, log));
    pdfHttp = await attempt("part 3b (invoice through HTTP)", () => benchPdfHttp(server, deals, log));
  };

  if (options.databaseUrl) {
    await withFreshDatabase(options.databaseUrl, "bench_pages", async (url, name) => {
      // Ctrl-C or SIGTERM: the finally blocks would not run, so the database is dropped here.
      const onSignal = () => {
        const admin = postgres(options.databaseUrl, { max: 1, onnotice: () => {} });
        admin.unsafe(`drop database if exists "${name}" with (force)`)
          .catch(() => {})
          .finally(() => Deno.exit(130));
      };
      const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
      for (const s of signals) Deno.addSignalListener(s, onSignal);
      const db = openPostgres(url, { max: 10 });
      // Reads pg_stat_activity: the backends' pids and what they wait for (its own excluded).
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      try {
        const t0 = performance.now();
        await migrate(db);
        await seedDemoData(db);
        await sql`vacuum analyze`;
        log(
          `  database ${name}: migrated, seeded and analyzed in ${
            ((performance.now() - t0) / 1000).toFixed(1)
          } s`,
        );
        await withApp(db, pgProbe(sql), withServer);
      } finally {
        await db.close();
        await sql.end({ timeout: 5 });
        for (const s of signals) Deno.removeSignalListener(s, onSignal);
      }
    });
  } else {
    const db = await openPglite("memory://");
    try {
      const t0 = performance.now();
      await migrate(db);
      await seedDemoData(db);
      log(`  PGlite in memory: migrated and seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      await withApp(db, null, withServer);
    } finally {
      await db.close();
    }
  }
  pdf = await attempt("part 3a (PDF rendering)", () => benchPdfRender(log));

  // The summary (the variables are assigned in callbacks: TypeScript cannot follow them).
  const pageR = page as PageResult[] | null;
  const jsR = js as JsResult[] | null;
  const pdfR = pdf as PdfResult[] | null;
  const httpR = pdfHttp as PdfResult | null;
  log(`\nCustomer page targets:`);
  if (pageR) {
    for (const rate of RATES) {
      const rows = pageR.filter((r) => r.rate === rate);
      log(
        `  p95 < ${PAGE_TARGET_MS} ms at ${rate} req/s${
          rate === RATES[0] ? " (the target)" : " (comparison)"
        }: ${
          rows.map((r) =>
            `${r.viewer.split(" ")[0]} ${yes(r.p95 < PAGE_TARGET_MS && r.errors === 0)} (${ms(r.p95)} ms)`
          )
            .join(", ")
        }`,
      );
    }
  } else log(`  page p95 < ${PAGE_TARGET_MS} ms: not measured`);
  if (jsR) {
    log(
      `  JavaScript <= ${JS_BUDGET / 1000} kB gzip: ${
        jsR.map((r) => `${r.viewer.split(" ")[0]} ${yes(r.gzip <= JS_BUDGET)} (${kB(r.gzip)})`).join(", ")
      }`,
    );
  } else log(`  JavaScript budget: not measured`);
  if (pdfR) {
    const worst = pdfR.reduce((a, b) => (b.p95 > a.p95 ? b : a));
    log(
      `  invoice PDF < ${PDF_TARGET_MS} ms: rendering ${
        yes(pdfR.every((r) => r.p95 < PDF_TARGET_MS))
      } (worst p95 ${ms(worst.p95)} ms, ${worst.label}); through HTTP ${
        httpR ? `${yes(httpR.p95 < PDF_TARGET_MS)} (p95 ${ms(httpR.p95)} ms)` : "not measured"
      }`,
    );
  } else log(`  invoice PDF: not measured`);
  log(
    `\nCustomer page benchmark done in ${((performance.now() - started) / 1000).toFixed(0)} s${
      options.databaseUrl ? " (database dropped)" : ""
    }`,
  );
}

if (import.meta.main) {
  if (Deno.args[0] === "--page-client") {
    await runPageClient(JSON.parse(Deno.args[1]) as ClientConfig);
    Deno.exit(0);
  }
  const secondsArg = Deno.args.find((a) => a.startsWith("--seconds="));
  try {
    await benchPages({
      databaseUrl: Deno.env.get("DATABASE_URL") ?? "",
      seconds: secondsArg ? Number(secondsArg.slice(10)) : 10,
      log: (line) => console.log(line),
    });
    Deno.exit(0);
  } catch (error) {
    console.error("The customer page benchmark could not run:", error);
    Deno.exit(2);
  }
}
