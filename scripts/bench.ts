// `deno task bench`: measures how much the real stack (middleware, session lookup, database, Preact
// rendering) costs on a public page compared with a bare Hono handler that returns the same bytes, and
// how much JavaScript pages ship. A measurement, not a test: it exits 0 whatever the numbers, except
// exit 1 when the island-free page /ville/paris ships JavaScript (exit 2 when it cannot run at all).
//
// Options, all bounded: --requests=N (default 100000, max 200000) and --seconds=S (default 10, max 120)
// per target, whichever comes first; --concurrency=C (default 32, max 256); --warmup=N (default 3000,
// max 20000, and at most 10 s); --fetch to load with fetch() instead of the raw HTTP/1.1 client.
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
// - Both sides still share the machine, so the report prints each side's CPU over the measured phase
//   (server = this whole process, which can exceed 100% of one core as Deno's HTTP layer has threads of
//   its own). A client near 100% on the bare run means the bare figure is a floor and the ratio a
//   ceiling. Other processes (a test run, a build) move the numbers a lot, so the machine's load just
//   before the run is reported too.
// - Concurrency 32 keeps the single-threaded server always busy; more connections only add queueing
//   latency. Every response is checked (status 200, expected length); wrong ones are counted and
//   described, and the errors the real app logged during the run are printed.
import { Hono } from "hono";
import { cpuUsage } from "node:process";
import { loadConfig } from "../lib/config.ts";
import { openPglite } from "../lib/db/pglite.ts";
import { migrate } from "../lib/db/migrate.ts";
import { seedDemoData } from "../lib/seed/demo.ts";
import { createLogger } from "../lib/log/logger.ts";
import { createApp } from "../routes/_app.tsx";
import { createBackground } from "../lib/deps.ts";
import { systemActor, transactionAs } from "../lib/actor.ts";

import { getManifest } from "../lib/islands/manifest.ts";

const PAGE = "/ville/paris";
const ISLAND_PAGE = "/login";
const TARGET_RATIO = 0.4;

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
  const request = new TextEncoder().encode(
    `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: text/html\r\n\r\n`,
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
    const res = await fetch(target);
    const body = await res.arrayBuffer();
    return res.status === 200 && body.byteLength === expectedBytes
      ? null
      : describe(res.status, new Uint8Array(body));
  };
}

async function runClient(): Promise<void> {
  const [url, expected, requests, seconds, concurrency, warmup, kind] = Deno.args.slice(1);
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

async function load(
  url: string,
  expectedBytes: number,
  opts: { requests: number; seconds: number; concurrency: number; warmup: number; client: string },
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

async function main(): Promise<number> {
  const opts = {
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

  // The real app, as main.ts builds it, on an in-memory database with the demo data.
  Deno.env.delete("APP_ENV");
  const config = loadConfig();
  const setupStart = performance.now();
  const db = await openPglite("memory://");
  await migrate(db);
  await seedDemoData(db);
  const logger = createLogger(db, { quiet: true });
  const app = await createApp({ config, db, logger, background: createBackground(logger) });
  const servers: Deno.HttpServer[] = [];
  const serve = (handler: (req: Request) => Response | Promise<Response>) => {
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
    servers.push(server);
    return `http://127.0.0.1:${server.addr.port}`;
  };
  const realOrigin = serve(app.fetch);
  console.log(
    `Setup (PGlite memory://, migrations, demo data): ${
      Math.round(performance.now() - setupStart)
    } ms; appEnv=${config.appEnv}`,
  );

  const pageRes = await fetch(realOrigin + PAGE);
  const html = await pageRes.text();
  if (pageRes.status !== 200) throw new Error(`${PAGE}: HTTP ${pageRes.status}`);

  // The bare app: one handler, the same bytes.
  const bare = new Hono();
  bare.get(PAGE, (c) => c.html(html));
  const bareOrigin = serve(bare.fetch);
  const bareHtml = await (await fetch(bareOrigin + PAGE)).text();
  if (bareHtml !== html) throw new Error("The bare handler does not return the same bytes");
  const pageBytes = new TextEncoder().encode(html).length;

  // JavaScript shipped: /ville/paris (anonymous, no island) and /login (one island).
  const pageScripts = await pageJs(realOrigin, html);
  const loginRes = await fetch(realOrigin + ISLAND_PAGE);
  const loginHtml = await loginRes.text();
  if (loginRes.status !== 200) throw new Error(`${ISLAND_PAGE}: HTTP ${loginRes.status}`);
  const loginIslands = new Set([...loginHtml.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]));
  const loginScripts = await pageJs(realOrigin, loginHtml);

  console.log(
    `Load: up to ${opts.requests} requests or ${opts.seconds} s per target, concurrency ${opts.concurrency}, ` +
      `${opts.warmup} warm-up requests, ${opts.client} client in a child process (${navigator.hardwareConcurrency} cores)`,
  );
  // Other processes on a 2-core machine change the numbers a lot (bare req/s can halve): say so.
  const busy = await machineBusyPercent(1000);
  if (busy !== null && busy > 10) {
    console.log(`  note: the machine was ${busy.toFixed(0)}% busy just before the run (other processes)`);
  }
  const real = await load(realOrigin + PAGE, pageBytes, opts);
  const bareResult = await load(bareOrigin + PAGE, pageBytes, opts);

  const row = (name: string, r: typeof real) =>
    `${name.padEnd(24)}${String(r.requests).padStart(9)}${String(r.errors).padStart(8)}${
      r.rps.toFixed(0).padStart(10)
    }${r.p50.toFixed(2).padStart(10)}${r.p95.toFixed(2).padStart(10)}${
      r.serverCpuPercent.toFixed(0).padStart(9)
    }%${r.clientCpuPercent.toFixed(0).padStart(9)}%`;
  console.log();
  console.log(`${PAGE} (${pageBytes} bytes of HTML)`);
  console.log(
    `${"".padEnd(24)}${"requests".padStart(9)}${"errors".padStart(8)}${"req/s".padStart(10)}${
      "p50 ms".padStart(10)
    }${"p95 ms".padStart(10)}${"server".padStart(10)}${"client".padStart(10)}`,
  );
  console.log(row("real app", real));
  console.log(row("bare handler", bareResult));
  const ratio = real.rps / bareResult.rps;
  console.log(
    `ratio real/bare (req/s): ${ratio.toFixed(2)}   target: ratio >= ${TARGET_RATIO} -> ${
      ratio >= TARGET_RATIO ? "met" : "NOT met"
    }`,
  );
  if (bareResult.clientCpuPercent >= 90) {
    console.log(
      "  note: the client used ~a full core on the bare run, so bare req/s is a floor and the ratio a ceiling",
    );
  }
  if (real.errors || bareResult.errors) {
    for (const [name, r] of [["real app", real], ["bare handler", bareResult]] as const) {
      for (const [problem, count] of Object.entries(r.problems)) {
        console.log(`  warning: ${name}: ${count} wrong responses: ${problem}`);
      }
    }
  }

  console.log();
  console.log(
    `${PAGE} (anonymous): ${pageScripts.scriptTagCount} <script> tags, ${pageScripts.raw} bytes of JavaScript ` +
      `(${pageScripts.files.length} files) -> ${
        pageScripts.scriptTagCount === 0 && pageScripts.raw === 0 ? "ok, no JS" : "FAIL: ships JS"
      }`,
  );
  console.log(
    `${ISLAND_PAGE} (islands: ${
      [...loginIslands].join(", ") || "none"
    }): ${loginScripts.scriptTagCount} <script> ` +
      `tag(s), ${loginScripts.preloads.length} modulepreload(s), ${loginScripts.files.length} JS files, ` +
      `${loginScripts.raw} bytes raw, ${loginScripts.gzip} bytes gzip (each file gzipped separately)`,
  );
  if (loginScripts.notPreloaded.length) {
    console.log(`  note: imported but not modulepreloaded: ${loginScripts.notPreloaded.join(", ")}`);
  }

  // Unexpected errors the real app met during the run (its logger writes them to public.logs).
  const logged = await transactionAs(
    db,
    systemActor("seed"),
    (tx) =>
      tx<{ message: string; count: number }>`select message, count(*)::int as count from public.logs
        where type = 'error' group by message order by count desc limit 5`,
  );
  for (const { message, count } of logged) console.log(`  app error log: ${count} x ${message}`);

  for (const server of servers) await server.shutdown();
  await db.close();
  return pageScripts.scriptTagCount === 0 && pageScripts.raw === 0 ? 0 : 1;
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
