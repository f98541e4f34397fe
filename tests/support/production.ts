// An app configured as in production (https APP_URL, secure cookies) over the shared test database.
import { simulatedProvider } from "../../lib/payments/simulated.ts";
import { memoryStorage } from "../../lib/storage/storage.ts";
import type { Hono } from "hono";
import type { Database } from "../../lib/db/database.ts";
import { loadConfig } from "../../lib/config.ts";
import { createLogger } from "../../lib/log/logger.ts";
import { createBackground } from "../../lib/deps.ts";
import { createApp } from "../../routes/_app.tsx";
import type { AppEnv } from "../../lib/http/context.ts";

export function productionApp(db: Database, origin: string): Promise<Hono<AppEnv>> {
  const env: Record<string, string> = {
    APP_ENV: "production",
    APP_URL: origin,
    APP_SECRET: "a-production-secret-of-at-least-32-characters",
  };
  const config = loadConfig((name) => env[name]);
  const logger = createLogger(db, { quiet: true });
  return createApp({
    config,
    db,
    logger,
    background: createBackground(logger),
    storage: memoryStorage(),
    payments: simulatedProvider(db),
  });
}
