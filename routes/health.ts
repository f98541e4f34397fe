// Liveness and readiness, for a load balancer or an orchestrator: unauthenticated, no data, never
// cached. Mounted before every middleware in routes/_app.tsx (no session lookup, no database call for
// /healthz).
//   GET /healthz  200 while the process and its event loop answer.
//   GET /readyz   200 when the database answers within READY_DB_TIMEOUT_MS and has this code's last
//                 migration, the worker beat recently and every LISTEN connection is up; otherwise 503
//                 naming the failing parts ({"status":"error","failing":["database"],...}).
import { Hono } from "hono";
import { statementAs, systemActor } from "../lib/actor.ts";
import type { Deps } from "../lib/deps.ts";
import { readMigrations } from "../lib/db/migrate.ts";
import { DEFAULT_PASS_TIMEOUT_MS } from "../lib/jobs/worker.ts";

/** The readiness probe's own bound on its database call. */
const READY_DB_TIMEOUT_MS = 2000;
/** A heartbeat older than this means the worker loop is stuck (its watchdog's deadline, and a pass). */
export const WORKER_STALE_MS = DEFAULT_PASS_TIMEOUT_MS + 15_000;

type Check = "ok" | "failing";

export function healthRoutes(deps: Deps, options: { workerStaleMs?: number } = {}) {
  const workerStaleMs = options.workerStaleMs ?? WORKER_STALE_MS;
  let lastMigration: Promise<string | null> | null = null;
  const codeLastMigration = () =>
    lastMigration ??= readMigrations().then((list) => list.at(-1)?.version ?? null);

  const databaseCheck = async (): Promise<[Check, Check]> => {
    const version = await codeLastMigration();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const [row] = await Promise.race([
        statementAs<{ applied: boolean }>(
          deps.db,
          systemActor("health"),
          "select public.migration_applied($1) as applied",
          [version],
        ),
        new Promise<never>((_, reject) =>
          timer = setTimeout(() => reject(new Error("timeout")), READY_DB_TIMEOUT_MS)
        ),
      ]);
      return ["ok", version === null || row?.applied === true ? "ok" : "failing"];
    } catch {
      return ["failing", "failing"];
    } finally {
      clearTimeout(timer);
    }
  };

  const app = new Hono();
  app.get("/healthz", (c) => {
    c.header("Cache-Control", "no-store");
    return c.json({ status: "ok" });
  });
  app.get("/readyz", async (c) => {
    const [database, migrations] = await databaseCheck();
    const health = deps.health;
    const beat = health?.lastWorkerBeat ?? null;
    const checks: Record<string, Check> = {
      database,
      migrations,
      worker: !health || (beat !== null && Date.now() - beat <= workerStaleMs) ? "ok" : "failing",
      listen: !health || health.listeningDown().length === 0 ? "ok" : "failing",
    };
    const failing = Object.keys(checks).filter((name) => checks[name] !== "ok");
    c.header("Cache-Control", "no-store");
    if (!failing.length) return c.json({ status: "ok", checks });
    c.header("Retry-After", "5");
    return c.json({ status: "error", failing, checks }, 503);
  });
  return app;
}
