import type { Config } from "../config.ts";
import type { Database } from "./database.ts";
import { openPglite } from "./pglite.ts";
import { openPostgres } from "./postgres.ts";

export function openDatabase(
  config:
    & Pick<Config, "databaseUrl" | "databasePrepare" | "dataDir">
    & Partial<Pick<Config, "databaseListenUrl" | "databasePoolSize" | "databaseDeadlines">>,
  options: { onListenState?: (channel: string, up: boolean) => void } = {},
): Promise<Database> {
  return config.databaseUrl
    ? Promise.resolve(openPostgres(config.databaseUrl, {
      prepare: config.databasePrepare,
      max: config.databasePoolSize,
      listenUrl: config.databaseListenUrl || undefined,
      deadlines: config.databaseDeadlines,
      onListenState: options.onListenState,
    }))
    : openPglite(config.dataDir);
}
