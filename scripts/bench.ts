// `deno task bench`: measures how much the real stack (middleware, session lookup, database, Preact
// rendering) costs on a public page compared with a bare Hono handler that returns the same bytes, and
// how much JavaScript pages ship. A measurement, not a test: it exits 0 whatever the numbers, except
// exit 1 when the island-free page /ville/paris ships JavaScript (exit 2 when it cannot run at all).
//
// Options, all bounded: --requests=N (default 100000, max 200000) and --seconds=S (default 10, max 120)
// per target, whichever comes first; --concurrency=C (default 32, max 256); --warmup=N (default 3000,
// max 20000, and at most 10 s); --fetch to load with fetch() instead of the raw HTTP/1.1 client;
// --parts=pglite,postgres,obs,deals,pages,sessions,chat,growth,faults (default all) to run only some parts;
// BENCH_DB_PREFIX names the throw-away PostgreSQL databases (default 'bench'). Part 'faults'
// (PostgreSQL only, ~50 s) runs the database fault scenario (scripts/faults/) and prints the time to
// ready after a 15 s network cut and how requests fared during it (refused vs waiting).
// The bare handler answers 20,000-60,000 req/s here, so a 20,000-request budget would measure it for
// under half a second; the 10 s cap bounds the real app instead.
//
// How the load is generated, and why (this machine has 2 cores):
// - The servers (the real app with its in-process PGlite, and the bare app) run on this process's one
//   JS thread. Had the client's requests been sent from the same event loop, the server's thread would
//   also pay the client's work on every request: a fixed cost added to both sides, which pushes the
//   real/bare ratio towards 1 and flatters the real app. The client is therefore a child Deno process,
//   which the kernel can run on the other core: one core per side, the nearest a 2-core machine gets to
//   a client on another machine.
// - The child speaks HTTP/1.1 by hand over 32 keep-alive connections (one precomputed request,
//   responses framed by Content-Length) rather than with fetch(): measured here on an idle machine,
//   fetch() saturated the client core at about 26,000 req/s, less than half of what the bare handler
//   serves, which would again have flattered the ratio. The raw client keeps up with about 60,000 req/s.
// - The server's CPU time per request (server ms/req) moves less with the machine's load than req/s
//   does: compare it when other processes share the cores.
// - Both sides still share the machine, so the report prints each side's CPU over the measured phase
//   (server = this whole process, which can exceed 100% of one core as Deno's HTTP layer has threads of
//   its own). A client near 100% on the bare run means the bare figure is a floor and the ratio a
//   ceiling. Other processes (a test run, a build) move the numbers a lot, so the machine's load just
//   before the run is reported too.
// - Concurrency 32 keeps the single-threaded server always busy; more connections only add queueing
//   latency. Every response is checked (status 200, expected length); wrong ones are counted and
//   described, and the errors the real app logged during the run are printed.
//
// On PostgreSQL both sides prepare their statements (the app's adapter by default, DATABASE_PREPARE; the
// bare handler with postgres.js's `prepare: true`), and the customer quote page /deal/show/{token} is
// loaded the same way, alone (no bare twin), against a req/s target, for its customer and anonymously.
//
// Then the deals capability (scripts/bench_deals.ts, also runnable alone): the quote engine on 100,000
// quotes and, with DATABASE_URL, the admin deals list on 10,000 deals in a throw-away database
// (sequential, concurrent and HTTP at a fixed rate for --seconds, at most 30). Its failure is reported
// without losing the figures above, and does not change the exit code.
//
// Last the customer quote page (scripts/bench_pages.ts, also runnable alone): GET /deal/show/{token} at
// 200 and 100 requests/s on PostgreSQL (with DATABASE_URL only) for three viewers, the page's JavaScript
// before any click, and invoice PDF rendering (those two also without DATABASE_URL, on PGlite). Its
// failure is reported the same way, after the figures above.
//
// Then the deal chat (scripts/bench_chat.ts, also runnable alone; PostgreSQL only): delivery latency with
// 200 open server-sent event streams on two app instances, and memory per open stream.
//
// Part 'obs': the overhead of the request metrics and JSON request lines (lib/http/observe.ts) on
// GET /api/user/get, against the same app built with OBSERVE_REQUESTS=false, in the same run: the two
// apps are loaded in turn (off, on, off, on) and the figures summed per side, then called in process;
// target under 5 %. The lines go to /dev/null (buffered as to stdout) in every part. Then the cost of
// a /metrics scrape at 100,000 queue rows (scripts/bench_metrics.ts, also runnable alone).
//
// Last, costs that grow with the data (scripts/bench_growth.ts, also runnable alone; PostgreSQL only):
// the admin deals list and search, 'Mes devis', the quote page with its chat, the outbox API and the
// logs page on the demo data and on 100,000 deals, 1 M log rows and 1,018 chat messages: p50, p95, bytes.
import { memoryStorage } from "../lib/storage/storage.ts";
import { Hono } from "hono";
import { cpuUsage } from "node:process";
import { loadConfig } from "../lib/config.ts";
import { openPglite } from "../lib/db/pglite.ts";
import { openPostgres } from "../lib/db/postgres.ts";
import { type Database, makeTx } from "../lib/db/database.ts";
import { withDatabase } from "./fresh_database.ts";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import postgres from "postgres";
import { migrate } from "../lib/db/migrate.ts";
import { seedDemoData } from "../lib/seed/demo.ts";
import { createLogger } from "../lib/log/logger.ts";
import { createApp } from "../routes/_app.tsx";
import { createBackground } from "../lib/deps.ts";
import { systemActor, transactionAs } from "../lib/actor.ts";

import { getManifest } from "../lib/islands/manifest.ts";
import { benchDeals } from "./bench_deals.ts";
import { runFaultScenario } from "./faults/scenario.ts";
import { createSessionCache, followSessionNotices } from "../lib/auth/session_cache.ts";
import { benchPages, findDemoDeals } from "./bench_pages.ts";
import { benchSessions } from "./bench_sessions.ts";
import { benchChat } from "./bench_chat.ts";
import { benchGrowth } from "./bench_growth.ts";
import { openPaymentProvider } from "../lib/payments/open.ts";
import { setLineTarget } from "../lib/log/lines.ts";
import type { AppEnv } from "../lib/http/context.ts";
import { benchMetrics } from "./bench_metrics.ts";

const PAGE = "/ville/paris";
const ISLAND_PAGE = "/login";

interface LoadResult {
  requests: number;
  errors: number;
  /** Kinds of wrong responses in the measured phase, with their counts. */
  problems: Record<string, number>;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  clientCpuPercent: number;
}

function intOption(name: string, fallback: number, min: number, max: number): number {
  const arg = Deno.args.find((a) => a.startsWith(`--${name}=`));
  const value = arg ? Number(arg.slice(name.length + 3)) : fallback;
  if (!Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** CPU time (user + system) of this process, in ms. */
function cpuMs(): number {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
}

// ---------------------------------------------------------------------------------------------------
// Child: the load generator. Warms up, then sends at most `requests` GETs within `seconds`, `concurrency`
// at a time, checking each response (status 200, expected body length). Prints "measuring" when the
// measured phase starts (so the parent can read its own CPU clock at the same moment), then one JSON line.

/** Sends one request; resolves to null when the response is right, else to what was wrong. */
type Fetcher = () => Promise<string | null>;

/** A keep-alive HTTP/1.1 connection driven by hand: one precomputed request, responses framed by
 * Content-Length. Several times cheaper per request than fetch(), so a client on one core can keep up
 * with a server on the other. */
async function rawConnection(target: URL, expectedBytes: number): Promise<Fetcher> {
  const conn = await Deno.connect({ hostname: target.hostname, port: Number(target.port) });
  conn.setNoDelay(true);
  const cookie = COOKIE ? `Cookie: ${COOKIE}\r\n` : "";
  const request = new TextEncoder().encode(
    `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: ${ACCEPT}\r\n${cookie}\r\n`,
  );
  let buf = new Uint8Array(Math.max(16 * 1024, expectedBytes * 2));
  const latin1 = new TextDecoder("latin1");
  return async () => {
    for (let written = 0; written < request.length;) written += await conn.write(request.subarray(written));
    let have = 0;
    let headerEnd = -1;
    let total = -1;
    let status = 0;
    let bodyLength = -1;
    while (total < 0 || have < total) {
      if (have === buf.length) {
        const bigger = new Uint8Array(buf.length * 2);
        bigger.set(buf);
        buf = bigger;
      }
      const n = await conn.read(buf.subarray(have));
      if (n === null) throw new Error("connection closed");
      const from = Math.max(0, have - 3);
      have += n;
      if (headerEnd < 0) {
        for (let i = from; i + 3 < have; i++) {
          if (buf[i] === 13 && buf[i + 1] === 10 && buf[i + 2] === 13 && buf[i + 3] === 10) {
            headerEnd = i + 4;
            break;
          }
        }
        if (headerEnd >= 0) {
          const head = latin1.decode(buf.subarray(0, headerEnd));
          status = Number(head.slice(9, 12));
          const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
          if (!length) throw new Error("response without Content-Length");
          bodyLength = Number(length[1]);
          total = headerEnd + bodyLength;
        }
      }
    }
    if (have !== total) throw new Error("unexpected bytes after the response");
    if (status === 200 && bodyLength === expectedBytes) return null;
    return describe(status, buf.subarray(headerEnd, total));
  };
}

/** A wrong response in a few words: status, size, and the body itself when it is short. */
function describe(status: number, body: Uint8Array): string {
  const text = body.length <= 200 ? `: ${JSON.stringify(new TextDecoder().decode(body))}` : "";
  return `HTTP ${status}, ${body.length} bytes${text}`;
}

function fetchConnection(target: URL, expectedBytes: number): Fetcher {
  return async () => {
    const res = await fetch(target, { headers: { accept: ACCEPT, ...(COOKIE ? { cookie: COOKIE } : {}) } });
    const body = await res.arrayBuffer();
    return res.status === 200 && body.byteLength === expectedBytes
      ? null
      : describe(res.status, new Uint8Array(body));
  };
}

// The client's cookie (a logged-in user) and Accept header, given by the parent.
let COOKIE = "";
let ACCEPT = "text/html";

async function runClient(): Promise<void> {
  const [url, expected, requests, seconds, concurrency, warmup, kind, cookie, accept] = Deno.args.slice(1);
  COOKIE = cookie ?? "";
  ACCEPT = accept || "text/html";
  const target = new URL(url);
  if (target.hostname !== "127.0.0.1") throw new Error(`Refusing non-local target ${url}`);
  const expectedBytes = Number(expected);
  const n = Number(requests);
  const c = Number(concurrency);
  let connections: Fetcher[] = [];
  const open = async () =>
    connections = kind === "fetch"
      ? Array.from({ length: c }, () => fetchConnection(target, expectedBytes))
      : await Promise.all(Array.from({ length: c }, () => rawConnection(target, expectedBytes)));

  const problems = new Map<string, number>();
  const phase = async (count: number, maxMs: number, latencies: Float64Array | null) => {
    let issued = 0;
    let done = 0;
    let errors = 0;
    const deadline = performance.now() + maxMs;
    const worker = async (index: number) => {
      while (issued < count && performance.now() < deadline) {
        issued++;
        const t0 = performance.now();
        let problem: string | null;
        try {
          problem = await connections[index]();
        } catch (error) {
          problem = `${(error as Error).name}: ${(error as Error).message}`;
          if (kind !== "fetch") {
            try {
              connections[index] = await rawConnection(target, expectedBytes); // bounded by the loop above
            } catch { /* the next request counts as an error too */ }
          }
        }
        if (latencies) latencies[done] = performance.now() - t0;
        done++;
        if (problem) {
          errors++;
          if (latencies) problems.set(problem, (problems.get(problem) ?? 0) + 1);
        }
      }
    };
    await Promise.all(Array.from({ length: c }, (_, i) => worker(i)));
    return { done, errors };
  };

  await open();
  // Warm-up: JIT on both sides, connections open. Bounded by count and 10 s.
  await phase(Number(warmup), 10_000, null);

  const latencies = new Float64Array(n);
  console.log("measuring");
  const cpu0 = cpuMs();
  const t0 = performance.now();
  const { done, errors } = await phase(n, Number(seconds) * 1000, latencies);
  const elapsedMs = performance.now() - t0;
  const cpu = cpuMs() - cpu0;
  const sorted = latencies.subarray(0, done).sort();
  const result: LoadResult = {
    requests: done,
    errors,
    problems: Object.fromEntries([...problems].slice(0, 10)),
    seconds: elapsedMs / 1000,
    rps: done / (elapsedMs / 1000),
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    clientCpuPercent: cpu / elapsedMs * 100,
  };
  console.log(JSON.stringify(result));
  Deno.exit(0); // leaves the keep-alive connections to the kernel
}

// ---------------------------------------------------------------------------------------------------
// Parent: the servers, the measurements and the report.

interface LoadOptions {
  requests: number;
  seconds: number;
  concurrency: number;
  warmup: number;
  client: string;
}

async function load(
  url: string,
  expectedBytes: number,
  opts: LoadOptions,
  request: { cookie?: string; accept?: string } = {},
): Promise<LoadResult & { serverCpuPercent: number }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL(import.meta.url).pathname,
      "--client",
      url,
      String(expectedBytes),
      String(opts.requests),
      String(opts.seconds),
      String(opts.concurrency),
      String(opts.warmup),
      opts.client,
      request.cookie ?? "",
      request.accept ?? "text/html",
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  // The child prints two lines; this process's CPU is read when the first arrives and after the
  // second, i.e. over the measured phase only. It is the whole server process (the HTTP layer uses
  // more than the JS thread), so it can exceed 100% of one core.
  let cpu0 = 0;
  let t0 = 0;
  let last = "";
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(lineSplitter());
  for await (const line of lines) {
    if (line === "measuring") {
      cpu0 = cpuMs();
      t0 = performance.now();
    } else if (line.trim()) last = line;
  }
  const serverCpuPercent = (cpuMs() - cpu0) / (performance.now() - t0) * 100;
  const status = await child.status;
  if (!status.success || !last) throw new Error(`The load client failed for ${url}`);
  return { ...(JSON.parse(last) as LoadResult), serverCpuPercent };
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

/** Share of all cores busy over `ms` (Linux /proc/stat), while this process is idle; null elsewhere. */
async function machineBusyPercent(ms: number): Promise<number | null> {
  const read = () => {
    const fields = Deno.readTextFileSync("/proc/stat").split("\n")[0].trim().split(/\s+/).slice(1).map(
      Number,
    );
    const idle = fields[3] + (fields[4] ?? 0);
    return { idle, total: fields.reduce((a, b) => a + b, 0) };
  };
  try {
    const a = read();
    await new Promise((resolve) => setTimeout(resolve, ms));
    const b = read();
    return b.total === a.total ? 0 : (1 - (b.idle - a.idle) / (b.total - a.total)) * 100;
  } catch {
    return null;
  }
}

/** Script sources and modulepreload hrefs of an HTML page, plus the byte count of inline scripts. */
function scriptsOf(html: string) {
  const tags = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)];
  const srcs = tags.map((m) => /\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(m[1])?.[1]).filter((s): s is string =>
    !!s
  );
  const inline = tags.map((m) => new TextEncoder().encode(m[2].trim())).filter((b) => b.length > 0);
  const preloads = [...html.matchAll(/<link\b[^>]*\brel\s*=\s*["']?modulepreload["']?[^>]*>/gi)]
    .map((m) => /\bhref\s*=\s*["']?([^"'\s>]+)/i.exec(m[0])?.[1])
    .filter((s): s is string => !!s);
  const scriptTagCount = (html.match(/<script\b/gi) ?? []).length;
  return { scriptTagCount, srcs, preloads, inline };
}

async function gzipSize(bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

async function fetchBytes(origin: string, path: string): Promise<Uint8Array<ArrayBuffer>> {
  const url = new URL(path, origin);
  if (url.origin !== origin) throw new Error(`Refusing non-local asset ${url}`);
  const res = await fetch(url);
  const body = new Uint8Array(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${url.pathname}: HTTP ${res.status}`);
  return body;
}

/** The JS files a page makes the browser load up front: its module scripts, their modulepreloads, and
 * (checked, not assumed) every file they statically import. */
async function pageJs(origin: string, html: string) {
  const { scriptTagCount, srcs, preloads, inline } = scriptsOf(html);
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  const queue = [...srcs, ...preloads];
  while (queue.length && files.size < 100) {
    const path = new URL(queue.shift()!, origin).pathname;
    if (files.has(path)) continue;
    const bytes = await fetchBytes(origin, path);
    files.set(path, bytes);
    const text = new TextDecoder().decode(bytes);
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*)["']([^"']+\.js)["']/g)) {
      queue.push(new URL(m[1], new URL(path, origin)).pathname);
    }
  }
  const listed = new Set([...srcs, ...preloads].map((p) => new URL(p, origin).pathname));
  const notPreloaded = [...files.keys()].filter((p) => !listed.has(p));
  let raw = 0;
  let gzip = 0;
  for (const bytes of [...inline, ...files.values()]) {
    raw += bytes.length;
    gzip += await gzipSize(bytes);
  }
  return { scriptTagCount, srcs, preloads, files: [...files.keys()], notPreloaded, raw, gzip };
}

// ---------------------------------------------------------------------------------------------------
// The scenarios: each real request is compared, in the same run, with a bare Hono handler on the same
// driver. For the logged-in ones the bare handler already knows the user (no cookie, no session) and
// runs the same select in a transaction with the role and claims set, as the real app's RLS needs.

const USER_COLUMNS = `id, type, firstname, lastname, name, address1, address2, zipcode, city, phone, email,
  vat_exemption as "vatExemption", vat_number as "vatNumber", siren,
  extract(epoch from birthdate::timestamp at time zone 'UTC')::int8 as birthdate,
  floor(extract(epoch from deleted_at))::int8 as "deletedAt", emails, optin`;
const CLAIMS = "select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)";

/** The same select in an RLS transaction, with the driver's own transaction API. */
type BareSelect = (userId: string) => Promise<Record<string, unknown>>;

/** postgres.js's own way, prepared statements included (as the app's adapter: DATABASE_PREPARE). */
function barePostgres(sql: ReturnType<typeof postgres>): BareSelect {
  return (userId) =>
    sql.begin(async (t) => {
      await t.unsafe(CLAIMS, ["authenticated", JSON.stringify({ role: "authenticated", sub: userId })], {
        prepare: true,
      });
      const [row] = await t.unsafe(
        `select ${USER_COLUMNS} from public.users where id = $1 and anonymized_at is null`,
        [userId],
        { prepare: true },
      );
      return row as Record<string, unknown>;
    }) as Promise<Record<string, unknown>>;
}

function barePglite(pg: PGlite): BareSelect {
  return (userId) =>
    pg.transaction(async (t) => {
      await t.query(CLAIMS, ["authenticated", JSON.stringify({ role: "authenticated", sub: userId })]);
      const { rows } = await t.query(
        `select ${USER_COLUMNS} from public.users where id = $1 and anonymized_at is null`,
        [userId],
      );
      return rows[0] as Record<string, unknown>;
    });
}

interface Row {
  label: string;
  real: LoadResult & { serverCpuPercent: number };
  /** The bare handler's run; null for a page measured alone against a req/s target. */
  bare: (LoadResult & { serverCpuPercent: number }) | null;
  /** The least ratio real/bare, or (without bare) the least req/s. */
  target: number | null;
  /** The same request on the app with prepared statements (this row has them off): printed as a ratio. */
  versus?: LoadResult;
}

function printRows(title: string, rows: Row[]) {
  const line = (name: string, r: Row["real"]) =>
    `  ${name.padEnd(50)}${String(r.requests).padStart(9)}${String(r.errors).padStart(7)}${
      r.rps.toFixed(0).padStart(9)
    }${r.p50.toFixed(2).padStart(9)}${r.p95.toFixed(2).padStart(9)}${
      r.serverCpuPercent.toFixed(0).padStart(8)
    }%${r.clientCpuPercent.toFixed(0).padStart(8)}%${
      (r.serverCpuPercent * 10 / r.rps).toFixed(2).padStart(13)
    }`;
  console.log(`\n${title}`);
  console.log(
    `  ${"".padEnd(50)}${"requests".padStart(9)}${"errors".padStart(7)}${"req/s".padStart(9)}${
      "p50 ms".padStart(9)
    }${"p95 ms".padStart(9)}${"server".padStart(9)}${"client".padStart(9)}${"server ms/req".padStart(14)}`,
  );
  for (const row of rows) {
    console.log(line(`${row.label} (real)`, row.real));
    if (!row.bare) {
      const met = row.target === null
        ? ""
        : `target > ${row.target} req/s: ${row.real.rps > row.target ? "met" : "NOT met"}`;
      if (met) console.log(`  ${"".padEnd(50)}${met}`);
      if (row.versus) {
        console.log(`  ${"".padEnd(50)}prepared / unprepared: ${(row.versus.rps / row.real.rps).toFixed(2)}`);
      }
      for (const [problem, count] of Object.entries(row.real.problems)) {
        console.log(`  warning: ${row.label}: ${count} wrong responses: ${problem}`);
      }
      continue;
    }
    console.log(line(`${row.label} (bare)`, row.bare));
    const ratio = row.real.rps / row.bare.rps;
    const verdict = row.target === null
      ? ""
      : `   target >= ${row.target}: ${ratio >= row.target ? "met" : "NOT met"}`;
    console.log(`  ${"".padEnd(50)}ratio real/bare ${ratio.toFixed(2)}${verdict}`);
    for (const [name, r] of [["real", row.real], ["bare", row.bare]] as const) {
      for (const [problem, count] of Object.entries(r.problems)) {
        console.log(`  warning: ${row.label} ${name}: ${count} wrong responses: ${problem}`);
      }
    }
    if (row.bare.clientCpuPercent >= 90) {
      console.log(
        "  note: the client used ~a full core on the bare run: bare req/s is a floor, the ratio a ceiling",
      );
    }
  }
}

interface Setup {
  kind: "pglite" | "postgres";
  db: Database;
  /** PostgreSQL only: the same database with DATABASE_PREPARE=false, to show what preparing gains. */
  unprepared?: Database;
  bare: BareSelect;
  /** The bare side's id of a user (the embedded bare database has its own ids). */
  bareUserId(email: string): Promise<string>;
  close(): Promise<void>;
}

async function pgliteSetup(): Promise<Setup> {
  const db = await openPglite("memory://");
  await migrate(db);
  await seedDemoData(db);
  // The bare handler gets its own PGlite with the same schema and data: the app's adapter hides its
  // instance, and the bare side must use the driver's API directly.
  const pg = await PGlite.create("memory://", { extensions: { pg_trgm } });
  const bareDb: Database = {
    kind: "pglite",
    transaction: (claims, fn) =>
      pg.transaction(async (t) => {
        await t.query(CLAIMS, [claims.role, JSON.stringify(claims)]);
        return await fn(makeTx(async (text, params) => (await t.query(text, params)).rows as never));
      }),
    statement: (claims, text, params = []) => bareDb.transaction(claims, (tx) => tx.query(text, params)),
    execScript: (script, guard) =>
      pg.transaction(async (t) => {
        if (guard && !(await guard(makeTx(async (q, p) => (await t.query(q, p)).rows as never)))) {
          return false;
        }
        await t.exec(script);
        return true;
      }),
    listen: async (channel, onMessage, onListening) => {
      const unsubscribe = await pg.listen(channel, onMessage);
      onListening?.();
      return unsubscribe;
    },
    close: () => pg.close(),
  };
  await migrate(bareDb);
  await seedDemoData(bareDb);
  return {
    kind: "pglite",
    db,
    bare: barePglite(pg),
    bareUserId: async (email) =>
      (await pg.query<{ id: string }>("select id from public.users where email = $1", [email])).rows[0].id,
    close: async () => {
      await db.close();
      await pg.close();
    },
  };
}

async function postgresSetup(adminUrl: string): Promise<Setup> {
  const name = `${Deno.env.get("BENCH_DB_PREFIX") ?? "bench"}_${Date.now().toString(36)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = withDatabase(adminUrl, name);
  const db = openPostgres(url, { max: 10 });
  await migrate(db);
  await seedDemoData(db);
  const unprepared = openPostgres(url, { max: 10, prepare: false });
  // int8 as a number, as the app's adapter does, so that both sides answer the same bytes.
  const sql = postgres(url, {
    max: 10,
    onnotice: () => {},
    types: {
      int8: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
    },
  });
  return {
    kind: "postgres",
    db,
    unprepared,
    bare: barePostgres(sql),
    bareUserId: async (email) =>
      (await sql`select id from public.users where email = ${email}`)[0].id as string,
    close: async () => {
      await db.close();
      await unprepared.close();
      await sql.end({ timeout: 5 });
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}

/** GET /api/user/get on the app with and without the request metrics and lines, loaded in turn (off,
 * on, off, on) so that a change of the machine's load hits both sides; prints the overhead by req/s and
 * by the server's CPU time per request. */
async function observationOverhead(
  observed: string,
  plain: string,
  expectedBytes: number,
  opts: LoadOptions,
  cookie: string,
): Promise<void> {
  const request = { cookie, accept: "application/json" };
  const sum = { on: { requests: 0, seconds: 0, cpu: 0 }, off: { requests: 0, seconds: 0, cpu: 0 } };
  const problems: string[] = [];
  for (let round = 0; round < 2; round++) {
    for (const [side, origin] of [["off", plain], ["on", observed]] as const) {
      const r = await load(origin + "/api/user/get", expectedBytes, opts, request);
      sum[side].requests += r.requests;
      sum[side].seconds += r.seconds;
      sum[side].cpu += r.serverCpuPercent / 100 * r.seconds * 1000;
      if (r.errors) problems.push(`${side}: ${r.errors} wrong responses ${JSON.stringify(r.problems)}`);
    }
  }
  const rps = (side: "on" | "off") => sum[side].requests / sum[side].seconds;
  const cpuPerRequest = (side: "on" | "off") => sum[side].cpu / sum[side].requests;
  const byRps = (rps("off") / rps("on") - 1) * 100;
  const byCpu = (cpuPerRequest("on") / cpuPerRequest("off") - 1) * 100;
  const verdict = (value: number) => (value < 5 ? "met" : "NOT met");
  console.log(`\nRequest metrics and JSON request lines on GET /api/user/get (2 rounds of off, on)`);
  for (const side of ["off", "on"] as const) {
    console.log(
      `  observation ${side.padEnd(4)} ${String(sum[side].requests).padStart(8)} requests ${
        rps(side).toFixed(0).padStart(7)
      } req/s ${cpuPerRequest(side).toFixed(3).padStart(8)} server ms/req`,
    );
  }
  console.log(`  overhead by req/s:          ${byRps.toFixed(1)} %   target < 5 %: ${verdict(byRps)}`);
  console.log(`  overhead by server ms/req:  ${byCpu.toFixed(1)} %   target < 5 %: ${verdict(byCpu)}`);
  for (const problem of problems) console.log(`  warning: ${problem}`);
}

/** The same comparison without the network, less at the mercy of a busy machine: GET /api/user/get
 * through each app's fetch(), one request at a time, in 40 alternating rounds of 200; the CPU time of a
 * request is each side's median round. */
type AppFetch = Hono<AppEnv>;

async function inProcessOverhead(observed: AppFetch, plain: AppFetch, cookie: string): Promise<void> {
  const env = { remoteAddr: { hostname: "127.0.0.1", port: 40000, transport: "tcp" } };
  const round = async (app: AppFetch, count: number) => {
    const cpu0 = cpuMs();
    for (let i = 0; i < count; i++) {
      const request = new Request("http://127.0.0.1/api/user/get", {
        headers: { cookie, accept: "application/json" },
      });
      const res = await app.fetch(request, env);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`/api/user/get in process: HTTP ${res.status}`);
    }
    return (cpuMs() - cpu0) / count;
  };
  await round(plain, 1000);
  await round(observed, 1000);
  const rounds = { on: [] as number[], off: [] as number[] };
  for (let i = 0; i < 40; i++) {
    // Each side goes first every other round: neither always pays the other's garbage.
    if (i % 2) rounds.on.push(await round(observed, 200));
    rounds.off.push(await round(plain, 200));
    if (!(i % 2)) rounds.on.push(await round(observed, 200));
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const on = median(rounds.on);
  const off = median(rounds.off);
  const overhead = (on / off - 1) * 100;
  console.log(
    `  in process, one at a time:  off ${off.toFixed(3)} ms/req, on ${on.toFixed(3)} ms/req of CPU: ` +
      `${overhead.toFixed(1)} % (+${((on - off) * 1000).toFixed(0)} µs)   target < 5 %: ${
        overhead < 5 ? "met" : "NOT met"
      }`,
  );
}

async function benchDatabase(
  setup: Setup,
  opts: LoadOptions,
  servers: Deno.HttpServer[],
  parts: { main: boolean; obs: boolean } = { main: true, obs: false },
): Promise<Row[]> {
  const serve = (handler: (req: Request) => Response | Promise<Response>) => {
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
    servers.push(server);
    return `http://127.0.0.1:${server.addr.port}`;
  };
  Deno.env.delete("APP_ENV");
  const stops: (() => Promise<void>)[] = [];
  const makeApp = async (pageCache: boolean, db = setup.db, observeRequests = true) => {
    const config = { ...loadConfig(), pageCache, observeRequests };
    const logger = createLogger(db, { quiet: true });
    // As main.ts runs it: resolved sessions kept a few seconds, dropped on the database's notices.
    const sessions = createSessionCache({ ttlMs: config.sessionCacheSeconds * 1000 });
    stops.push(await followSessionNotices(db, sessions));
    return await createApp({
      config,
      db,
      logger,
      background: createBackground(logger),
      storage: memoryStorage(),
      payments: openPaymentProvider(config, db),
      sessions,
    });
  };
  const cached = serve((await makeApp(true)).fetch);
  const uncachedApp = await makeApp(false);
  const uncached = serve(uncachedApp.fetch);
  const unprepared = setup.unprepared ? serve((await makeApp(false, setup.unprepared)).fetch) : null;

  // A logged-in customer: the cookie the browser would send.
  const login = await fetch(`${uncached}/api/security/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: uncached },
    body: JSON.stringify({ username: "client@example.fr", password: "Cocktail#2026" }),
  });
  if (login.status !== 200) throw new Error(`login: HTTP ${login.status} ${await login.text()}`);
  const userId = await setup.bareUserId("client@example.fr");
  const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");

  const get = async (origin: string, path: string, accept = "text/html", withCookie = false) => {
    const res = await fetch(origin + path, { headers: { accept, ...(withCookie ? { cookie } : {}) } });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
    return text;
  };
  const publicHtml = await get(uncached, PAGE);
  const apiJson = await get(uncached, "/api/user/get", "application/json", true);
  const profileHtml = await get(uncached, "/dashboard/profil", "text/html", true);

  const bare = new Hono();
  bare.get(PAGE, (c) => c.html(publicHtml));
  bare.get("/api/user/get", async (c) => c.json({ ...(await setup.bare(userId)), isPreviousAdmin: false }));
  // The page: the same select, then the same bytes (the bare side does not render).
  bare.get("/dashboard/profil", async (c) => {
    await setup.bare(userId);
    return c.html(profileHtml);
  });
  const bareOrigin = serve(bare.fetch);
  // The same bytes, but for the user's id on the embedded database (the bare side has its own copy).
  const bareJson = await get(bareOrigin, "/api/user/get", "application/json");
  const withoutId = (json: string) => json.replace(/"id":"[0-9a-f-]{36}"/, "");
  if (withoutId(bareJson) !== withoutId(apiJson) || bareJson.length !== apiJson.length) {
    throw new Error(`The bare /api/user/get does not return the same bytes:\n${apiJson}\n${bareJson}`);
  }

  const bytes = (text: string) => new TextEncoder().encode(text).length;
  const rows: Row[] = [];
  if (parts.obs) {
    const plainApp = await makeApp(false, setup.db, false);
    await observationOverhead(uncached, serve(plainApp.fetch), bytes(apiJson), opts, cookie);
    await inProcessOverhead(uncachedApp, plainApp, cookie);
  }
  if (!parts.main) {
    for (const stop of stops) await stop();
    return rows;
  }
  if (setup.kind === "pglite") {
    // The public page does not read the database when cached: measured once, on the embedded database.
    const bareRun = await load(bareOrigin + PAGE, bytes(publicHtml), opts);
    rows.push({
      label: `${PAGE} cache on`,
      real: await load(cached + PAGE, bytes(publicHtml), opts),
      bare: bareRun,
      target: 0.4,
    });
    rows.push({
      label: `${PAGE} cache off`,
      real: await load(uncached + PAGE, bytes(publicHtml), opts),
      bare: bareRun,
      target: null,
    });
  }
  const onPostgres = setup.kind === "postgres";
  const json = { cookie, accept: "application/json" };
  rows.push({
    label: "GET /api/user/get",
    real: await load(uncached + "/api/user/get", bytes(apiJson), opts, json),
    bare: await load(bareOrigin + "/api/user/get", bytes(apiJson), opts, { accept: "application/json" }),
    // On PostgreSQL both sides prepare their statements: the real app must be at least as fast.
    target: onPostgres ? 1 : null,
  });
  if (unprepared) {
    rows.push({
      label: "GET /api/user/get, prepare off",
      real: await load(unprepared + "/api/user/get", bytes(apiJson), opts, json),
      bare: null,
      target: null,
      versus: rows[rows.length - 1].real,
    });
  }
  rows.push({
    label: "GET /dashboard/profil",
    real: await load(uncached + "/dashboard/profil", bytes(profileHtml), opts, { cookie }),
    bare: await load(bareOrigin + "/dashboard/profil", bytes(profileHtml), opts),
    target: onPostgres ? 0.5 : null,
  });
  if (onPostgres) {
    // The customer quote page (routes/deal_show.tsx), as much as it can serve: no bare twin, a req/s
    // target (scripts/bench_pages.ts measures its latency at a fixed rate).
    const { page } = await findDemoDeals(setup.db);
    const path = `/deal/show/${page.token}`;
    for (const [label, viewerCookie] of [["customer", cookie], ["anonymous", ""]] as const) {
      const html = await get(uncached, path, "text/html", viewerCookie !== "");
      rows.push({
        label: `GET /deal/show/{token} ${label}`,
        real: await load(uncached + path, bytes(html), opts, { cookie: viewerCookie }),
        bare: null,
        target: label === "customer" ? 1500 : null,
      });
      if (unprepared && label === "customer") {
        // The unprepared app has its own session cache: the same cookie, resolved there once.
        rows.push({
          label: `GET /deal/show/{token} ${label}, prepare off`,
          real: await load(unprepared + path, bytes(html), opts, { cookie: viewerCookie }),
          bare: null,
          target: null,
          versus: rows[rows.length - 1].real,
        });
      }
    }
  }
  for (const stop of stops) await stop();
  return rows;
}

async function main(): Promise<number> {
  const opts: LoadOptions = {
    requests: intOption("requests", 100_000, 100, 200_000),
    seconds: intOption("seconds", 10, 1, 120),
    concurrency: intOption("concurrency", 32, 1, 256),
    warmup: intOption("warmup", 3_000, 0, 20_000),
    client: Deno.args.includes("--fetch") ? "fetch" : "raw",
  };
  try {
    getManifest();
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const databaseUrl = Deno.env.get("DATABASE_URL") ?? "";
  console.log(
    `Load: up to ${opts.requests} requests or ${opts.seconds} s per target, concurrency ${opts.concurrency}, ` +
      `${opts.warmup} warm-up requests, ${opts.client} client in a child process (${navigator.hardwareConcurrency} cores)`,
  );
  // Other processes on a 2-core machine change the numbers a lot (bare req/s can halve): say so.
  const busy = await machineBusyPercent(1000);
  const load1 = Deno.loadavg()[0];
  console.log(
    `Machine before the run: ${busy === null ? "?" : busy.toFixed(0)}% busy, load average ${
      load1.toFixed(2)
    }`,
  );

  const partsArg = Deno.args.find((a) => a.startsWith("--parts="))?.slice("--parts=".length);
  const parts = new Set(
    partsArg
      ? partsArg.split(",")
      : ["pglite", "postgres", "obs", "deals", "pages", "sessions", "chat", "growth", "faults"],
  );
  // The JSON request and job lines of every app below go to /dev/null, buffered and written as they
  // would be to stdout, so that they cost what they cost without flooding the report.
  setLineTarget(Deno.openSync("/dev/null", { write: true }));
  // 'obs' alone runs the overhead part on each database without the other rows.
  const main = parts.has("pglite") || parts.has("postgres");
  const withObs = parts.has("obs");
  const servers: Deno.HttpServer[] = [];
  let scriptsOk = true;
  const setups = [
    ...(parts.has("pglite") || (withObs && !main) ? [pgliteSetup] : []),
    ...(databaseUrl && (parts.has("postgres") || (withObs && !main))
      ? [() => postgresSetup(databaseUrl)]
      : []),
  ];
  for (const make of setups) {
    const setup = await make();
    try {
      const title = setup.kind === "pglite"
        ? "PGlite (embedded, in this process)"
        : "PostgreSQL 15 (127.0.0.1)";
      if (withObs) console.log(`\n${title}`);
      const rows = await benchDatabase(setup, opts, servers, { main, obs: withObs });
      if (!main) continue;
      printRows(title, rows);
      if (setup.kind === "pglite") scriptsOk = await reportJavaScript(servers);
      const logged = await transactionAs(
        setup.db,
        systemActor("seed"),
        (tx) =>
          tx<{ message: string; count: number }>`select message, count(*)::int as count from public.logs
          where type = 'error' group by message order by count desc limit 5`,
      );
      for (const { message, count } of logged) console.log(`  app error log: ${count} x ${message}`);
    } finally {
      for (const server of servers.splice(0)) await server.shutdown();
      await setup.close();
    }
  }
  if (!databaseUrl) console.log("\nPostgreSQL: not measured (DATABASE_URL not set)");
  // The cost of a /metrics scrape's database part at 100,000 queue rows.
  try {
    if (withObs) await benchMetrics({ databaseUrl, log: (line) => console.log(line) });
  } catch (error) {
    console.error("\nThe metrics scrape benchmark could not run:", error);
  }
  // The deals capability: the engine always, the admin list only with DATABASE_URL.
  try {
    if (parts.has("deals")) {
      await benchDeals({ databaseUrl, seconds: opts.seconds, log: (line) => console.log(line) });
    }
  } catch (error) {
    console.error("\nThe deals benchmark could not run:", error);
  }
  // The customer quote page: the JavaScript and PDF parts always, the page under load with DATABASE_URL.
  try {
    if (parts.has("pages")) {
      await benchPages({ databaseUrl, seconds: opts.seconds, log: (line) => console.log(line) });
    }
  } catch (error) {
    console.error("\nThe customer page benchmark could not run:", error);
  }
  // The workshop sessions: dates list, add-to-cart at a steady rate, the session page's JavaScript.
  try {
    if (parts.has("sessions")) {
      await benchSessions({ databaseUrl, seconds: opts.seconds, log: (line) => console.log(line) });
    }
  } catch (error) {
    console.error("\nThe sessions benchmark could not run:", error);
  }
  // The deal chat: delivery across two instances with 200 open streams (PostgreSQL only).
  try {
    if (parts.has("chat")) await benchChat({ databaseUrl, log: (line) => console.log(line) });
  } catch (error) {
    console.error("\nThe chat benchmark could not run:", error);
  }
  // Costs that grow with the data (scripts/bench_growth.ts): demo data, then 100 000 deals, 1 M log
  // rows and a chat of 1 018 messages (PostgreSQL only, about three minutes).
  try {
    if (parts.has("growth")) await benchGrowth({ databaseUrl, log: (line) => console.log(line) });
  } catch (error) {
    console.error("\nThe growth benchmark could not run:", error);
  }
  // Database faults: two app processes behind a proxy, backends terminated, the network cut.
  if (parts.has("faults")) {
    if (databaseUrl) await benchFaults(databaseUrl);
    else console.log("\nDatabase faults: not measured (DATABASE_URL not set)");
  }
  return scriptsOk ? 0 : 1;
}

async function benchFaults(adminUrl: string) {
  console.log(
    "\nDatabase faults (2 instances, 8 bounded clients, backends terminated twice, network cut 15 s)",
  );
  const ports = (Deno.env.get("FAULTS_PORTS") ?? "18101,18102,18103").split(",").map(Number);
  const { checks, figures } = await runFaultScenario({ adminUrl, ports: ports as [number, number, number] });
  const cut = figures.cut;
  console.log(`  time to /readyz 200 after the restore: ${figures.readyAfterMs.join(" ms, ")} ms`);
  console.log(
    `  during the cut: ${cut.requests} requests, ${cut.refused503} refused (503 + Retry-After), ` +
      `${cut.other} otherwise; slowest answer ${cut.maxMs} ms, ${cut.over2s} over 2 s; ` +
      `${cut.waiting} waiting over 2 s when the network came back`,
  );
  console.log(`  whole run: ${figures.requests} requests, ${figures.errors500} answered 500`);
  console.log(
    `  SIGTERM to exit: ${figures.shutdownMs.join(" ms, ")} ms (the second during a slow SMTP send)`,
  );
  const failed = checks.filter((c) => !c.ok);
  console.log(`  checks: ${checks.length - failed.length} passed, ${failed.length} failed`);
  for (const c of failed) console.log(`    FAIL ${c.name} (${c.detail})`);
}

/** JavaScript shipped: /ville/paris (anonymous, no island) must have none; /login (one island). */
async function reportJavaScript(servers: Deno.HttpServer[]): Promise<boolean> {
  const origin = `http://127.0.0.1:${(servers[0].addr as Deno.NetAddr).port}`;
  const html = await (await fetch(origin + PAGE)).text();
  const page = await pageJs(origin, html);
  const loginHtml = await (await fetch(origin + ISLAND_PAGE)).text();
  const islands = new Set([...loginHtml.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]));
  const login = await pageJs(origin, loginHtml);
  const ok = page.scriptTagCount === 0 && page.raw === 0;
  console.log(
    `\n${PAGE} (anonymous): ${page.scriptTagCount} <script> tags, ${page.raw} bytes of JavaScript -> ${
      ok ? "ok, no JS" : "FAIL: ships JS"
    }`,
  );
  console.log(
    `${ISLAND_PAGE} (islands: ${[...islands].join(", ") || "none"}): ${login.files.length} JS files, ` +
      `${login.raw} bytes raw, ${login.gzip} bytes gzip (each file gzipped separately)`,
  );
  if (login.notPreloaded.length) {
    console.log(`  note: imported but not modulepreloaded: ${login.notPreloaded.join(", ")}`);
  }
  return ok;
}

if (import.meta.main) {
  if (Deno.args[0] === "--client") {
    await runClient();
  } else {
    let code = 2;
    try {
      code = await main();
    } catch (error) {
      console.error("The benchmark could not run:", error);
    }
    Deno.exit(code);
  }
}
