// Entry point: configuration, database (migrations; demo data on first start outside production),
// scheduled jobs, then the HTTP server.
import { loadConfig } from "./lib/config.ts";
import { openDatabase } from "./lib/db/open.ts";
import { migrate } from "./lib/db/migrate.ts";
import { createLogger } from "./lib/log/logger.ts";
import { createApp } from "./lib/http/app.ts";
import { isDatabaseEmpty, seedDemoData } from "./lib/seed/demo.ts";
import { pgCronRunsJobs, startTicker } from "./lib/scheduling/ticker.ts";
import { getManifest } from "./lib/islands/manifest.ts";

export async function start() {
  const config = loadConfig();
  getManifest(); // fails fast when the assets were not built
  const db = await openDatabase(config);
  const applied = await migrate(db);
  if (applied.length) console.log(`Migrations appliquées : ${applied.join(", ")}`);
  const logger = createLogger(db);
  if (config.loadDemoData && await isDatabaseEmpty(db)) {
    await seedDemoData(db);
    console.log("Données de démonstration chargées (mot de passe : Cocktail#2026).");
  }
  const stopTicker = await pgCronRunsJobs(db) ? () => {} : startTicker(db, logger);
  const app = createApp({ config, db, logger });
  const server = Deno.serve({
    port: config.port,
    hostname: Deno.env.get("HOST") ?? "0.0.0.0",
    onListen: ({ port }) =>
      console.log(
        `Prêt sur ${config.appUrl} (port ${port}, base ${db.kind}, environnement ${config.appEnv})`,
      ),
  }, app.fetch);
  const shutdown = async () => {
    stopTicker();
    await server.shutdown();
    await db.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", shutdown);
  Deno.addSignalListener("SIGTERM", shutdown);
}

if (import.meta.main) await start();
