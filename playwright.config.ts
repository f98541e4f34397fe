// End-to-end tests (Playwright + the Debian Chromium). The first web server builds the island bundles
// and the stylesheet, then starts the app on a fixed port with an in-memory PGlite database loaded with
// the demo data, so every run starts from the same state. The second one (started after the first, so
// the assets are built) runs the same app as in production — APP_ENV=production, https-style cookies
// (`__Host-session`, Secure), no demo data — on a PGlite folder emptied at each run, with one admin
// created by `deno task create-admin`; tests/e2e/production.spec.ts uses it.
import { defineConfig, devices } from "@playwright/test";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { PROD_ADMIN, PROD_DATA_DIR, PROD_PORT, PROD_URL } from "./tests/e2e/support/production.ts";

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const DENO_BIN_DIR = path.join(ROOT, ".tools", "node_modules", ".bin");
const DENO = path.join(DENO_BIN_DIR, "deno");

const PORT = Number(process.env.E2E_PORT ?? 8931);
const BASE_URL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  // One browser at a time: the machine has 2 cores and the app runs on the same machine.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: BASE_URL,
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: "/usr/bin/chromium",
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
          ],
        },
      },
    },
  ],
  webServer: [{
    command: `"${DENO}" task build && "${DENO}" run -A main.ts`,
    cwd: ROOT,
    url: `${BASE_URL}/ville/paris`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
    env: {
      PATH: `${DENO_BIN_DIR}${path.delimiter}${process.env.PATH ?? ""}`,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      // Always the embedded database, even when the test run has DATABASE_URL for the other steps.
      DATABASE_URL: "",
      DATA_DIR: "memory://",
      APP_URL: BASE_URL,
      DEMO_DATA: "true",
      // Every browser test runs from 127.0.0.1, and many create a quote request.
      QUOTE_REQUESTS_PER_HOUR: "1000",
      // …and many create an account and log in.
      REGISTRATIONS_PER_HOUR: "1000",
      LOGIN_ATTEMPTS_PER_MINUTE: "10000",
    },
  }, {
    // Production: a fresh database folder each run, one admin, then the app.
    command: [
      `rm -rf "${PROD_DATA_DIR}"`,
      `mkdir -p "${PROD_DATA_DIR}"`,
      // The password only for create-admin, in the same shell command (main.ts does not see it).
      `ADMIN_PASSWORD='${PROD_ADMIN.password}' "${DENO}" task create-admin ${PROD_ADMIN.email} ` +
      `${PROD_ADMIN.firstname} ${PROD_ADMIN.lastname}`,
      `"${DENO}" run -A main.ts`,
    ].join(" && "),
    cwd: ROOT,
    // No cities without demo data: the login page answers 200.
    url: `${PROD_URL}/login`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
    env: {
      PATH: `${DENO_BIN_DIR}${path.delimiter}${process.env.PATH ?? ""}`,
      PORT: String(PROD_PORT),
      HOST: "127.0.0.1",
      APP_ENV: "production",
      APP_SECRET: "e2e-production-secret-0123456789abcdef",
      APP_URL: PROD_URL,
      // APP_URL is http (the browser's address), so secure cookies are asked for explicitly, as a
      // deployment behind a TLS proxy would get them from its https APP_URL.
      SECURE_COOKIES: "true",
      DATABASE_URL: "",
      DATA_DIR: PROD_DATA_DIR,
      // Production refuses to start without Stripe keys (lib/config.ts). Keys of Stripe's shape and an
      // address where nothing listens: this server never takes a payment.
      STRIPE_SECRET_KEY: "sk_test_e2e_production",
      STRIPE_PUBLISHABLE_KEY: "pk_test_e2e_production",
      STRIPE_WEBHOOK_SECRET: "whsec_e2e_production",
      STRIPE_API_URL: "http://127.0.0.1:9",
    },
  }],
});
