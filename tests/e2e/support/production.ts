// The production-mode server of the end-to-end tests (the second web server of playwright.config.ts):
// its address, database folder and the admin created before it starts. Shared by the config and
// tests/e2e/production.spec.ts.
import os from "node:os";
import path from "node:path";

export const PROD_PORT = Number(process.env.E2E_PROD_PORT ?? 8932);

/** http://localhost, not 127.0.0.1: Chromium counts localhost as a secure context, so it keeps Secure
 * and `__Host-` cookies there as it would on https. APP_URL is this same address (CSRF checks). */
export const PROD_URL = `http://localhost:${PROD_PORT}`;

/** A folder emptied at each run (not memory://: the admin is created by one process, the app runs in
 * another, and production loads no demo data). */
export const PROD_DATA_DIR = path.join(os.tmpdir(), `cocktails-e2e-production-${PROD_PORT}`);

export const PROD_ADMIN = {
  email: "admin.production@example.test",
  firstname: "Paula",
  lastname: "Prod",
  /** Upper, lower, digit and one of #?!@$%^&*- (the registration rule create-admin applies). */
  password: "Production#2026",
} as const;

/** The session cookie's name on the wire with secure cookies. */
export const SECURE_SESSION_COOKIE = "__Host-session";
