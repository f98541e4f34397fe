// In-process test app: one migrated, seeded database per test process (PGlite in memory, or the
// PostgreSQL database named by TEST_DATABASE_URL that scripts/test.ts creates and drops), and a
// small cookie-keeping client that calls the Hono app without a network.
import { memoryStorage } from "../../lib/storage/storage.ts";
import { simulatedProvider } from "../../lib/payments/simulated.ts";
import { loadConfig } from "../../lib/config.ts";
import type { Database } from "../../lib/db/database.ts";
import { openPglite } from "../../lib/db/pglite.ts";
import { openPostgres } from "../../lib/db/postgres.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { seedDemoData } from "../../lib/seed/demo.ts";
import { createLogger } from "../../lib/log/logger.ts";
import { createBackground, type Deps } from "../../lib/deps.ts";
import { createApp } from "../../routes/_app.tsx";
import { statementAs, systemActor } from "../../lib/actor.ts";
import { createSessionCache, followSessionNotices } from "../../lib/auth/session_cache.ts";
import type { Hono } from "hono";
import type { AppEnv } from "../../lib/http/context.ts";
import { setLineSink } from "../../lib/log/lines.ts";

export const ORIGIN = "http://localhost:8000";
export const PASSWORD = "Cocktail#2026";
/** Every test client registers and logs in from 127.0.0.1 unless it says otherwise: the per-address
 * limits on accounts (REGISTRATIONS_PER_HOUR, default 10) and login attempts (LOGIN_ATTEMPTS_PER_MINUTE,
 * default 60) are raised for the test apps; tests/http/limits_login_test.ts uses the defaults where it
 * tests them. */
export const TEST_LIMITS: Record<string, string> = {
  REGISTRATIONS_PER_HOUR: "10000",
  LOGIN_ATTEMPTS_PER_MINUTE: "10000",
};

interface TestEnv {
  db: Database;
  deps: Deps;
  app: Hono<AppEnv>;
  /** Waits for the work the app does after answering (background tasks). */
  settle(): Promise<void>;
}

let env: Promise<TestEnv> | null = null;

export function testEnv(): Promise<TestEnv> {
  env ??= (async () => {
    // The JSON request and job lines would flood the test output (tests/http/observability_test.ts
    // reads them with a sink of its own).
    setLineSink(() => {});
    const url = Deno.env.get("TEST_DATABASE_URL");
    const db = url ? openPostgres(url, { max: 4 }) : await openPglite("memory://");
    await migrate(db);
    await seedDemoData(db);
    const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: ORIGIN, ...TEST_LIMITS })[name]);
    const logger = createLogger(db, { quiet: true });
    // Background work waits for settle(): tests see the state between the answer and the work.
    const deps: Deps = {
      config,
      db,
      logger,
      background: createBackground(logger, { manual: true }),
      storage: memoryStorage(),
      payments: simulatedProvider(db),
      sessions: createSessionCache({ ttlMs: config.sessionCacheSeconds * 1000 }),
    };
    await followSessionNotices(db, deps.sessions!);
    const app = await createApp(deps);
    return { db, deps, app, settle: () => deps.background.settle() };
  })();
  return env;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  json<T = Record<string, unknown>>(): T;
  contentType: string;
}

/** A browser-like client: keeps cookies and sends Origin on state-changing requests. */
export class Client {
  cookies = new Map<string, string>();

  /** `ip`: the client's address as the server sees it (Deno.serve's remoteAddr). `app`: another app
   * than the shared test app (e.g. one configured for production). */
  constructor(readonly options: { ip?: string; app?: Hono<AppEnv>; origin?: string } = {}) {}

  async request(
    method: string,
    path: string,
    options: {
      json?: unknown;
      form?: Record<string, string>;
      headers?: Record<string, string>;
      body?: string;
    } = {},
  ): Promise<TestResponse> {
    const app = this.options.app ?? (await testEnv()).app;
    const origin = this.options.origin ?? ORIGIN;
    const headers = new Headers(options.headers);
    if (method !== "GET" && method !== "HEAD" && !headers.has("origin")) headers.set("origin", origin);
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    let body: string | undefined = options.body;
    if (options.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(options.form).toString();
    }
    const remoteAddr = { transport: "tcp", hostname: this.options.ip ?? defaultIp, port: 40000 };
    const response = await app.request(`${origin}${path}`, { method, headers, body, redirect: "manual" }, {
      remoteAddr,
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((a) =>
        /max-age=0/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim())
      );
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      contentType: response.headers.get("content-type") ?? "",
      json: <T>() => JSON.parse(text) as T,
    };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request("GET", path, { headers });
  }
  post(path: string, json?: unknown) {
    return this.request("POST", path, { json });
  }
  patch(path: string, json?: unknown) {
    return this.request("PATCH", path, { json });
  }
  delete(path: string) {
    return this.request("DELETE", path);
  }

  async login(email: string, password = PASSWORD): Promise<TestResponse> {
    const response = await this.post("/api/security/login", { username: email, password });
    if (response.status !== 200) {
      throw new Error(`login ${email} failed: ${response.status} ${response.text}`);
    }
    return response;
  }
}

let counter = 0;
/** Unique email and phone for accounts a test creates. */
export function uniqueContact(prefix = "test") {
  counter++;
  const n = `${Date.now() % 1_000_000}${counter}`.padStart(8, "0").slice(-8);
  return { email: `${prefix}.${n}.${counter}@example.fr`, phone: `07${n}` };
}

export function registrationPayload(overrides: Record<string, unknown> = {}) {
  const { email, phone } = uniqueContact();
  return {
    firstname: "Léa",
    lastname: "Dupont",
    birthdate: "1990-05-12",
    address: "12 rue des Lilas",
    zipcode: "69001",
    city: "Lyon",
    phone,
    email,
    password: "Cocktail#2026",
    passwordConfirmation: "Cocktail#2026",
    terms: true,
    privacy: true,
    age: true,
    optin: true,
    ...overrides,
  };
}

/** The address of a Client that names none: one per test (from its name), so that the per-address
 * limits (logins, quote requests, holds…) one test spends never refuse another test sharing the same
 * database (the PostgreSQL step runs every HTTP module on one database). */
let defaultIp = "127.0.0.1";

function addressOf(name: string): string {
  let hash = 2166136261;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 16777619) >>> 0;
  return `127.${1 + (hash & 0x7f)}.${(hash >>> 8) & 0xff}.${1 + ((hash >>> 16) % 254)}`;
}

/** HTTP tests share one database for the process: connections outlive single tests by design. */
export function httpTest(name: string, fn: () => Promise<void>) {
  Deno.test({
    name,
    fn: () => {
      defaultIp = addressOf(name);
      return fn();
    },
    sanitizeOps: false,
    sanitizeResources: false,
  });
}

/** The fields the booking form posts with a date (`session`, `timestamp`: its session's id and its start
 * in unix seconds), read from the database, for tests that add the date `uuid` to a cart by the API.
 * Nothing for a uuid that names no date (the request is then refused before they matter). */
export async function bookingFields(uuid: string): Promise<{ session?: number; timestamp?: number }> {
  const { db } = await testEnv();
  const [row] = await statementAs<{ session: number; timestamp: number }>(
    db,
    systemActor("seed"),
    `select session_id as session, floor(extract(epoch from dtstart))::bigint as timestamp
     from public.session_dates where uuid::text = $1`,
    [uuid],
  );
  return row ? { session: Number(row.session), timestamp: Number(row.timestamp) } : {};
}
