// The deal chat's delivery (issue 13), printed, never asserted: 200 server-sent event streams open on
// two app instances (two connection pools, two hubs, each LISTENing once) over one throw-away
// PostgreSQL database; messages are posted alternately on A and B, and each delivery is timed from the
// POST's start to the event's arrival on every stream of that deal, on both instances. Also the memory
// per open stream (this process's heap and RSS before and after opening them; the two servers and the
// client live in this one process, so it is an upper bound of the servers' share) and the machine's
// load. Needs DATABASE_URL (PostgreSQL); runnable alone: `deno run -A scripts/bench_chat.ts`.
//
// The per-user rate limit (20 messages a minute) is lifted for the bench by clearing its counters
// before each post: the bench measures delivery, not the limiter.
import { loadConfig } from "../lib/config.ts";
import { openPostgres } from "../lib/db/postgres.ts";
import type { Database } from "../lib/db/database.ts";
import { migrate } from "../lib/db/migrate.ts";
import { seedDemoData } from "../lib/seed/demo.ts";
import { createLogger } from "../lib/log/logger.ts";
import { createBackground, type Deps } from "../lib/deps.ts";
import { createApp } from "../routes/_app.tsx";
import { memoryStorage } from "../lib/storage/storage.ts";
import { simulatedProvider } from "../lib/payments/simulated.ts";
import { createSessionCache, followSessionNotices } from "../lib/auth/session_cache.ts";
import { statementAs, systemActor } from "../lib/actor.ts";
import { chatHubOf } from "../lib/chat/hub.ts";
import { withFreshDatabase } from "./fresh_database.ts";
import postgres from "postgres";
import { machineLoad } from "./bench_pages.ts";

export interface BenchChatOptions {
  databaseUrl: string | undefined;
  streams?: number;
  messages?: number;
  log: (line: string) => void;
}

const SEED = systemActor("seed");

interface Instance {
  origin: string;
  db: Database;
  server: Deno.HttpServer;
  stop(): Promise<void>;
}

async function startInstance(url: string, seed: boolean): Promise<Instance> {
  const db = openPostgres(url, { max: 8 });
  if (seed) {
    await migrate(db);
    await seedDemoData(db);
  }
  const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: "http://127.0.0.1" })[name]);
  const logger = createLogger(db, { quiet: true });
  const deps: Deps = {
    config,
    db,
    logger,
    background: createBackground(logger),
    storage: memoryStorage(),
    payments: simulatedProvider(db),
    sessions: createSessionCache({ ttlMs: config.sessionCacheSeconds * 1000 }),
  };
  const stopSessions = await followSessionNotices(db, deps.sessions!);
  const hub = await chatHubOf(db);
  const app = await createApp(deps);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
  return {
    origin: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    db,
    server,
    async stop() {
      await hub.stop();
      await server.shutdown();
      await stopSessions();
      await db.close();
    },
  };
}

async function login(origin: string, email: string): Promise<string> {
  const res = await fetch(`${origin}/api/security/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ username: email, password: "Cocktail#2026" }),
  });
  await res.body?.cancel();
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("session="));
  if (!cookie) throw new Error(`login ${email}: ${res.status}`);
  return cookie.split(";")[0];
}

/** Opens a stream and calls `onMessage(text, arrivedAt)` for each entry; resolves once 'ready'. */
async function openStream(
  origin: string,
  cookie: string,
  dealId: number,
  onMessage: (text: string, at: number) => void,
): Promise<() => Promise<void>> {
  const res = await fetch(`${origin}/api/chat/stream?entityId=${dealId}&entityType=DealCompany`, {
    headers: { cookie },
  });
  if (res.status !== 200) throw new Error(`stream ${res.status}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let ready!: () => void;
  const isReady = new Promise<void>((r) => ready = r);
  (async () => {
    try {
      while (true) {
        const { done, value } = await reader.read();
        if (done) return;
        const at = performance.now();
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith("event: ready")) ready();
          const data = block.split("\n").find((l) => l.startsWith("data: "));
          if (data && !block.startsWith("event:")) onMessage(JSON.parse(data.slice(6)).text, at);
        }
      }
    } catch {
      // cancelled
    }
  })();
  await isReady;
  return () => reader.cancel().catch(() => {});
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p / 100 * sorted.length) - 1)] : NaN;

export async function benchChat(options: BenchChatOptions): Promise<void> {
  const { log } = options;
  const streamCount = Math.min(1000, Math.max(2, options.streams ?? 200));
  const messageCount = Math.min(500, Math.max(5, options.messages ?? 60));
  log(`\nDeal chat (goal: delivery p95 < 250 ms with ${streamCount} open streams on two instances)`);
  if (!options.databaseUrl) {
    log("  not measured (DATABASE_URL not set: the cross-instance path needs PostgreSQL)");
    return;
  }
  await withFreshDatabase(options.databaseUrl, "bench_chat", async (url) => {
    const a = await startInstance(url, true);
    const b = await startInstance(url, false);
    const closers: (() => Promise<void>)[] = [];
    try {
      // 20 deals, 10 streams each (half on A, half on B).
      const deals = (await statementAs<{ id: number }>(
        a.db,
        SEED,
        "select id from public.deals order by id limit 20",
      )).map((r) => r.id);
      const cookieA = await login(a.origin, "admin@example.fr");
      const expected = new Map<string, { at: number; deal: number }>();
      const latencies: number[] = [];
      let lost = 0;
      const onMessage = (text: string, at: number) => {
        const sent = expected.get(text);
        if (sent) latencies.push(at - sent.at);
      };
      (globalThis as { gc?: () => void }).gc?.();
      const before = Deno.memoryUsage();
      for (let i = 0; i < streamCount; i++) {
        const instance = i % 2 === 0 ? a : b;
        closers.push(await openStream(instance.origin, cookieA, deals[i % deals.length], onMessage));
      }
      (globalThis as { gc?: () => void }).gc?.();
      await new Promise((r) => setTimeout(r, 500));
      const after = Deno.memoryUsage();
      const perStream = (key: "heapUsed" | "rss") => (after[key] - before[key]) / streamCount / 1024;
      log(`  ${streamCount} streams open (${streamCount / 2} on each instance, ${deals.length} deals)`);
      // postgres.js keeps every LISTEN of a pool on one connection: one per instance, whatever the streams.
      const admin = postgres(url, { max: 1, onnotice: () => {} });
      const [listening] = await admin<{ n: number }[]>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`;
      await admin.end();
      log(`  connections listening on the database: ${listening.n} (two instances)`);
      log(
        `  memory per open stream: heap ${perStream("heapUsed").toFixed(1)} kB, RSS ${
          perStream("rss").toFixed(1)
        } kB (servers and client in this process: an upper bound)`,
      );
      log(`  machine before posting: ${await machineLoad(1000)}`);
      const perDeal = new Map<number, number>();
      for (let i = 0; i < streamCount; i++) {
        perDeal.set(deals[i % deals.length], (perDeal.get(deals[i % deals.length]) ?? 0) + 1);
      }
      let deliveriesExpected = 0;
      const started = performance.now();
      for (let i = 0; i < messageCount; i++) {
        const deal = deals[i % deals.length];
        const origin = i % 2 === 0 ? a.origin : b.origin;
        const text = `bench ${i} ${crypto.randomUUID()}`;
        await statementAs(a.db, SEED, "delete from identity.rate_limits where bucket like 'chat:%'");
        expected.set(text, { at: performance.now(), deal });
        deliveriesExpected += perDeal.get(deal)!;
        const res = await fetch(`${origin}/api/chat/messages`, {
          method: "POST",
          headers: { "content-type": "application/json", origin, cookie: cookieA },
          body: JSON.stringify({ entityId: deal, entityType: "DealCompany", type: "message", text }),
        });
        await res.body?.cancel();
        if (res.status !== 200) lost++;
        await new Promise((r) => setTimeout(r, 100)); // 10 messages a second
      }
      await new Promise((r) => setTimeout(r, 2000));
      const seconds = (performance.now() - started) / 1000;
      const sorted = latencies.sort((x, y) => x - y);
      log(
        `  ${messageCount} messages in ${seconds.toFixed(1)} s (posted alternately on A and B), ` +
          `${sorted.length} of ${deliveriesExpected} deliveries received${
            lost ? `, ${lost} posts failed` : ""
          }`,
      );
      log(
        `  delivery latency (POST start → event on the stream): p50 ${
          percentile(sorted, 50).toFixed(1)
        } ms, ` +
          `p95 ${percentile(sorted, 95).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${
            sorted.at(-1)?.toFixed(1)
          } ms`,
      );
      log(`  machine after: ${await machineLoad(1000)}`);
    } finally {
      for (const close of closers) await close();
      await b.stop();
      await a.stop();
    }
  });
}

if (import.meta.main) {
  await benchChat({ databaseUrl: Deno.env.get("DATABASE_URL"), log: (line) => console.log(line) });
}
