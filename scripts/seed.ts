// `deno task seed`: applies migrations and loads the demo data (refused in production).
import { loadConfig } from "../lib/config.ts";
import { openDatabase } from "../lib/db/open.ts";
import { migrate } from "../lib/db/migrate.ts";
import { seedDemoData } from "../lib/seed/demo.ts";

const config = loadConfig();
if (config.appEnv === "production") {
  console.error("Les données de démonstration ne sont jamais chargées en production.");
  Deno.exit(1);
}
const db = await openDatabase(config);
await migrate(db);
await seedDemoData(db);
await db.close();
console.log("Données de démonstration chargées.");
