// End-to-end tests (Playwright + the Debian Chromium). The web server builds the island bundles and
// the stylesheet, then starts the app on a fixed port with an in-memory PGlite database loaded with
// the demo data, so every run starts from the same state.
import { defineConfig, devices } from "@playwright/test";
import { fileURLToPath } from "node:url";
import path from "node:path";

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
  webServer: {
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
    },
  },
});
