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

/** Keys of Stripe's shape for a production-mode app that never reaches Stripe. */
export const PRODUCTION_STRIPE_KEYS = {
  STRIPE_SECRET_KEY: "sk_test_production_mode_tests",
  STRIPE_PUBLISHABLE_KEY: "pk_test_production_mode_tests",
  STRIPE_WEBHOOK_SECRET: "whsec_production_mode_tests",
  // Nothing listens there: a call that should never happen fails at once.
  STRIPE_API_URL: "http://127.0.0.1:9",
} as const;

export function productionApp(db: Database, origin: string): Promise<Hono<AppEnv>> {
  const env: Record<string, string> = {
    APP_ENV: "production",
    APP_URL: origin,
    APP_SECRET: "a-production-secret-of-at-least-32-characters",
    // Production refuses to start without Stripe keys; the payments themselves go through the
    // simulated provider below (these tests never pay).
    ...PRODUCTION_STRIPE_KEYS,
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
