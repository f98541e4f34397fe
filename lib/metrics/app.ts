// The figures read when /metrics is scraped, for one app instance (its Deps): database pool use and
// errors (when the adapter offers `stats()`), the worker's last heartbeat, each queue's ready, running
// and failed counts with its oldest wait, and the email backlog. The database part is one statement
// (queue_store.ts) kept for CACHE_MS, so that scrapes every 15 s, or several at once, cost one query at
// most every few seconds. The output joins the process registry (registry.ts) and this one.
import type { Deps } from "../deps.ts";
import { workerStall } from "../health/stall.ts";
import { client, registry as processRegistry } from "./registry.ts";
import { type QueueFigures, readQueueFigures } from "./queue_store.ts";

export const CACHE_MS = 5_000;

/** What the faults engineer's adapters may offer (lib/db/database.ts): read defensively. */
interface DbStats {
  total: number;
  idle: number;
  waiting: number;
  errors: number;
}

interface Snapshot {
  ok: boolean;
  queues: QueueFigures[];
}

function appRegistry(deps: Deps) {
  const registry = new client.Registry();
  let cached: { at: number; snapshot: Promise<Snapshot> } | null = null;
  const snapshot = (): Promise<Snapshot> => {
    const now = Date.now();
    if (!cached || now - cached.at >= CACHE_MS) {
      cached = {
        at: now,
        snapshot: readQueueFigures(deps.db).then(
          (queues) => ({ ok: true, queues }),
          () => ({ ok: false, queues: [] }),
        ),
      };
    }
    return cached.snapshot;
  };
  const dbStats = (): DbStats | null => {
    try {
      const stats = (deps.db as { stats?: () => DbStats }).stats?.();
      return stats && typeof stats.total === "number" ? stats : null;
    } catch {
      return null;
    }
  };

  new client.Gauge({
    name: "db_pool_connections",
    help: "Database pool connections, open (total) and idle",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const stats = dbStats();
      if (!stats) return;
      this.set({ state: "total" }, stats.total);
      this.set({ state: "idle" }, stats.idle);
    },
  });
  new client.Gauge({
    name: "db_pool_waiting",
    help: "Queries waiting for a pool connection",
    registers: [registry],
    collect() {
      const stats = dbStats();
      this.set(stats ? stats.waiting : 0);
    },
  });
  new client.Counter({
    name: "db_errors_total",
    help: "Database errors counted by the adapter (connection lost, timeouts, refusals)",
    registers: [registry],
    collect() {
      this.reset();
      const stats = dbStats();
      if (stats) this.inc(stats.errors);
    },
  });
  if (deps.health) {
    const health = deps.health;
    new client.Gauge({
      name: "worker_last_beat_timestamp_seconds",
      help: "Unix time of the worker's last finished pass (0 before the first)",
      registers: [registry],
      collect() {
        this.set(health.lastWorkerBeat === null ? 0 : health.lastWorkerBeat / 1000);
      },
    });
    new client.Gauge({
      name: "worker_stalled",
      help: "1 when the worker has not finished a pass for longer than WORKER_STALL_SECONDS",
      registers: [registry],
      collect() {
        this.set(workerStall(health, deps.config.workerStallSeconds).stalled ? 1 : 0);
      },
    });
  }
  new client.Gauge({
    name: "queue_stats_up",
    help: "1 when the queues' figures could be read from the database at the last scrape",
    registers: [registry],
    async collect() {
      this.set((await snapshot()).ok ? 1 : 0);
    },
  });
  new client.Gauge({
    name: "queue_jobs",
    help: "Jobs of each work queue by state: ready (due), scheduled (later), running, failed (dead letters)",
    labelNames: ["store", "queue", "state"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of (await snapshot()).queues) {
        for (const state of ["ready", "scheduled", "running", "failed"] as const) {
          this.set({ store: q.store, queue: q.queue, state }, q[state]);
        }
      }
    },
  });
  new client.Gauge({
    name: "queue_oldest_ready_seconds",
    help: "Seconds the oldest ready job of each queue has waited since it was due (0: none ready)",
    labelNames: ["store", "queue"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of (await snapshot()).queues) {
        this.set({ store: q.store, queue: q.queue }, q.oldestReadySeconds);
      }
    },
  });
  new client.Gauge({
    name: "email_backlog",
    help: "Emails not sent yet (public.email_outbox, pending: due, retrying or being sent)",
    registers: [registry],
    async collect() {
      const email = (await snapshot()).queues.find((q) => q.store === "table" && q.queue === "email");
      this.set(email ? email.ready + email.scheduled + email.running : 0);
    },
  });
  return registry;
}

const registries = new WeakMap<Deps, client.Registry>();

export const METRICS_CONTENT_TYPE = processRegistry.contentType;

/** The Prometheus text of the process's metrics and of this instance's figures. */
export async function renderMetrics(deps: Deps): Promise<string> {
  let registry = registries.get(deps);
  if (!registry) registries.set(deps, registry = appRegistry(deps));
  const [own, instance] = await Promise.all([processRegistry.metrics(), registry.metrics()]);
  return `${own}\n${instance}`;
}
