// How many requests one instance serves: the figures behind README's sizing ('Deploying'). A
// measurement, not a test. One app process started as the image starts it (`deno run -A main.ts`, pool
// of 10 connections, the default) on a fresh PostgreSQL database shaped like a hosted one (migrated by
// the app as the non-superuser owner, demo data; dropped after), then a closed loop of CONCURRENCY
// clients from this process for SECONDS per endpoint, after a 2 s warm-up:
//   * the customer quote page GET /deal/show/{token} as its customer (routes/deal_show.tsx);
//   * GET /api/user/get as the same customer (the cheapest authenticated request: the session, the user).
// Prints req/s, p50 and p95 and the machine's load (the machine is shared: read the figures with it).
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres deno run -A scripts/bench_capacity.ts \
//     [--seconds=10] [--concurrency=10] [--port=8934]
import { parseArgs } from "node:util";
import { withHostedDatabase } from "./fresh_database.ts";
import { findDemoDeals, machineLoad } from "./bench_pages.ts";
import { openPostgres } from "../lib/db/postgres.ts";
import { DEMO_PASSWORD } from "../lib/seed/demo.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    seconds: { type: "string", default: "10" },
    concurrency: { type: "string", default: "10" },
    port: { type: "string", default: "8934" },
  },
});
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);
const PORT = Number(values.port);
const adminUrl = Deno.env.get("DATABASE_URL");
if (!adminUrl) {
  console.error("DATABASE_URL (an admin URL of PostgreSQL) is required.");
  Deno.exit(1);
}

interface Result {
  requests: number;
  errors: number;
  reqPerSecond: number;
  p50: number;
  p95: number;
}

async function closedLoop(url: string, cookie: string, seconds: number): Promise<Result> {
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        try {
          const response = await fetch(url, { headers: { cookie } });
          await response.arrayBuffer();
          if (response.status !== 200) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  return {
    requests: latencies.length,
    errors,
    reqPerSecond: latencies.length / elapsed,
    p50: at(0.5),
    p95: at(0.95),
  };
}

async function waitReady(origin: string) {
  for (let i = 0; i < 240; i++) {
    try {
      const response = await fetch(`${origin}/login`);
      await response.body?.cancel();
      if (response.ok) return;
    } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the app did not start");
}

await withHostedDatabase(adminUrl, "deploy_capacity", async (ownerUrl) => {
  const origin = `http://127.0.0.1:${PORT}`;
  const app = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: new URL("../", import.meta.url).pathname,
    env: {
      DATABASE_URL: ownerUrl,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      APP_URL: origin,
      DEMO_DATA: "true",
      // Every request is a new client of the same address: the quote request limit is not measured here.
      NO_COLOR: "1",
    },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  try {
    await waitReady(origin);
    const db = openPostgres(ownerUrl, { max: 1 });
    const { page } = await findDemoDeals(db).finally(() => db.close());
    const login = await fetch(`${origin}/api/security/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ username: "client@example.fr", password: DEMO_PASSWORD }),
    });
    await login.body?.cancel();
    const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    console.log(
      `One instance (pool 10), ${CONCURRENCY} clients in a closed loop, ${SECONDS} s per endpoint.`,
    );
    for (
      const [name, path] of [["quote page", `/deal/show/${page.token}`], ["/api/user/get", "/api/user/get"]]
    ) {
      await closedLoop(`${origin}${path}`, cookie, 2);
      const load = machineLoad(1000);
      const r = await closedLoop(`${origin}${path}`, cookie, SECONDS);
      console.log(
        `${name}: ${r.reqPerSecond.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p95 ${
          r.p95.toFixed(1)
        } ms, ` +
          `${r.requests} requests, ${r.errors} errors; machine: ${await load}`,
      );
    }
  } finally {
    app.kill("SIGTERM");
    await app.status;
  }
});
