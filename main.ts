// Entry point: configuration, database (migrations; demo data on first start outside production),
// scheduled jobs and the worker loop, then the HTTP server.
import { loadConfig } from "./lib/config.ts";
import { degradedReport } from "./lib/config_degraded.ts";
import { openDatabase } from "./lib/db/open.ts";
import { migrate } from "./lib/db/migrate.ts";
import { createLogger } from "./lib/log/logger.ts";
import { createBackground, type Deps } from "./lib/deps.ts";
import { isDatabaseEmpty, seedDemoData } from "./lib/seed/demo.ts";
import { startScheduler } from "./lib/jobs/scheduler.ts";
import { startWorker } from "./lib/jobs/worker.ts";
import { outboxQueues } from "./lib/jobs/queues.ts";
import { getManifest } from "./lib/islands/manifest.ts";
import { openStorage } from "./lib/storage/open.ts";
import { openPaymentProvider } from "./lib/payments/open.ts";
import { createApp } from "./routes/_app.tsx";
import { createSessionCache, followSessionNotices } from "./lib/auth/session_cache.ts";
import { chatHubOf } from "./lib/chat/hub.ts";
import { createHealth } from "./lib/health/state.ts";
import { recordCrmSync } from "./lib/crm/switch.ts";

export async function start() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    // A configuration error is the operator's to fix: its message, without a stack trace.
    console.error((error as Error).message);
    Deno.exit(1);
  }
  // In production, once: what runs degraded with this configuration (no SMTP, HubSpot off…).
  const degraded = config.appEnv === "production" ? degradedReport(config) : null;
  if (degraded) console.warn(degraded);
  getManifest(); // fails fast when the assets were not built
  const health = createHealth();
  const db = await openDatabase(config, { onListenState: health.setListening });
  const applied = await migrate(db);
  if (applied.length) console.log(`Migrations appliquées : ${applied.join(", ")}`);
  const logger = createLogger(db);
  // Whether deals queue their HubSpot sync (HUBSPOT_TOKEN), before any demo deal is written.
  const purged = await recordCrmSync(db, config);
  if (purged) console.log(`Synchronisation HubSpot désactivée : ${purged} tâches en attente supprimées.`);
  if (config.loadDemoData && await isDatabaseEmpty(db)) {
    await seedDemoData(db);
    console.log("Données de démonstration chargées (mot de passe : Cocktail#2026).");
  }
  const sessions = createSessionCache({ ttlMs: config.sessionCacheSeconds * 1000 });
  const stopSessionNotices = await followSessionNotices(db, sessions);
  const deps: Deps = {
    config,
    db,
    logger,
    background: createBackground(logger),
    storage: openStorage(config),
    payments: openPaymentProvider(config, db),
    sessions,
    health,
  };
  // The chat's one listener for this instance (LISTEN app_chat), fanning out to its open streams.
  const chatHub = await chatHubOf(db, (error) => logger.error("chat", String(error)));
  const scheduler = await startScheduler(deps);
  const worker = startWorker(deps, outboxQueues(config));
  const app = await createApp(deps);
  const server = Deno.serve({
    port: config.port,
    hostname: Deno.env.get("HOST") ?? "0.0.0.0",
    onListen: ({ port }) =>
      console.log(
        `Prêt sur ${config.appUrl} (port ${port}, base ${db.kind}, environnement ${config.appEnv}, ` +
          `tâches planifiées par ${scheduler.pgCron ? "pg_cron" : "l'application"})`,
      ),
  }, app.fetch);
  // Shutdown has a deadline: new connections are refused at once, chat streams get their 'reconnect'
  // event, in-flight requests and the worker's pass in hand finish within it (or their rows are left
  // to their lease), and the process exits whatever still waits.
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    // The last half second is the exit's own (and the signal's way here).
    const budget = Math.max(0, config.shutdownTimeoutMs - 500);
    const deadline = Date.now() + budget;
    const left = () => Math.max(0, deadline - Date.now());
    const force = setTimeout(() => {
      console.error(`Arrêt forcé après ${budget} ms.`);
      Deno.exit(1);
    }, budget);
    const step = (name: string, work: () => Promise<unknown>) =>
      within(work(), left()).catch((error) => console.error(`[shutdown] ${name}: ${error}`));
    scheduler.stop();
    await step("chat", () => chatHub.stop());
    await step("http", () => server.shutdown());
    // The pass in hand may take what is left but a second (closing the database needs one).
    await step("worker", () => worker.stop(Math.max(0, left() - 1000)));
    await step("background", () => deps.background.settle());
    await step("sessions", () => stopSessionNotices());
    await step("database", () => db.close());
    clearTimeout(force);
    Deno.exit(0);
  };
  // A stray rejection must not take the instance down (it is logged; the failed call has answered).
  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    console.error("[unhandledrejection]", event.reason);
  });
  Deno.addSignalListener("SIGINT", shutdown);
  Deno.addSignalListener("SIGTERM", shutdown);
}

if (import.meta.main) await start();

/** `promise`, or a rejection once `ms` have passed. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      timer = setTimeout(() => reject(new Error(`pas fini en ${ms} ms`)), ms)
    ),
  ]).finally(() => clearTimeout(timer));
}
