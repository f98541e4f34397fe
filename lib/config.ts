// Every setting comes from the environment, read once at start-up.
// `.env.example` documents each variable.

import { stageTable } from "./crm/mapping.ts";
import type { DealStatus } from "./deals/rules.ts";

export type AppEnv = "development" | "test" | "production";

export interface Config {
  appEnv: AppEnv;
  port: number;
  /** Public origin of the site, used for CSRF origin checks, cookies and links in emails. */
  appUrl: string;
  /** PostgreSQL connection string; when empty the embedded PGlite database is used. */
  databaseUrl: string;
  /** Prepared statements on PostgreSQL (DATABASE_PREPARE=false turns them off, for a pooler in
   * transaction mode that refuses them: Supavisor's port 6543, PgBouncer before 1.21). */
  databasePrepare: boolean;
  /** A direct or session-mode connection for LISTEN (chat, sessions ended on another instance), when
   * DATABASE_URL goes through a transaction-mode pooler that cannot hold a LISTEN; empty: DATABASE_URL. */
  databaseListenUrl: string;
  /** Connections in this instance's pool on PostgreSQL (DATABASE_POOL_SIZE, 1 to 100, default 10); LISTEN
   * holds one more. README, 'Deploying', sizes it against the plan's connection limits. */
  databasePoolSize: number;
  /** Deadlines of database calls on PostgreSQL, in ms (DATABASE_CONNECT_TIMEOUT_MS 5000,
   * DATABASE_ACQUIRE_TIMEOUT_MS 1500, DATABASE_STATEMENT_TIMEOUT_MS 15000,
   * DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS 30000). */
  databaseDeadlines: {
    connectMs: number;
    acquireMs: number;
    statementMs: number;
    idleInTransactionMs: number;
  };
  /** How long SIGTERM/SIGINT may take before the process exits anyway (SHUTDOWN_TIMEOUT_MS, 25000). */
  shutdownTimeoutMs: number;
  /** Folder of the embedded database (PGlite) when no DATABASE_URL is set. */
  dataDir: string;
  /** Secret for signed cookies. Required in production; no cookie is signed at present (flash
   * messages are kept on the server, per session). Gift voucher codes are sealed with a key derived from
   * it (lib/vouchers/codes.ts). */
  appSecret: string;
  /** Secure cookies with the `__Host-` prefix, on by default when the site is served over https. */
  secureCookies: boolean;
  /** Loads demo data on first start of an empty database (never in production). */
  loadDemoData: boolean;
  /** Set by `deno task dev`: assets are rebuilt while the server runs, so the asset manifest is re-read
   * on every request and public pages are not cached. */
  watchAssets: boolean;
  /** Phone number printed in the footer. */
  contactPhone: string;
  /** Support email address shown to customers. */
  supportEmail: string;
  /** SMTP server the email worker delivers the outbox through (smtp:// or smtps://); when empty,
   * emails stay in the outbox, readable by admins. */
  smtpUrl: string;
  /** Sender of every email. */
  mailFrom: string;
  /** How many reverse proxies in front of the app append to X-Forwarded-For (0: use the TCP peer). */
  /** Quote requests one client address may send in an hour (POST /api/deal/request). */
  quoteRequestsPerHour: number;
  /** Customer accounts one client address may create in an hour (POST /api/security/registration). */
  registrationsPerHour: number;
  /** Login attempts (successes included) one client address may make in a minute. */
  loginAttemptsPerMinute: number;
  /** At most one password-reset email per account in this many minutes. */
  resetEmailIntervalMinutes: number;
  trustProxy: number;
  /** Keeps anonymous public pages in memory for a minute (PAGE_CACHE=false turns it off). */
  pageCache: boolean;
  /** Seconds a resolved session is kept in memory (SESSION_CACHE_SECONDS, 0 to 60; 0 turns it off). */
  sessionCacheSeconds: number;
  /** Folder of uploaded files (deal photos) when no Supabase project is configured. */
  uploadsDir: string;
  /** Supabase project URL; with the service role key, deal photos go to Supabase Storage. */
  supabaseUrl: string;
  /** Server-side key of the Supabase project (never sent to browsers). */
  supabaseServiceRoleKey: string;
  /** Public bucket of the deal photos in Supabase Storage. */
  supabaseStorageBucket: string;
  /** HubSpot private app access token; when empty, the CRM sync is off (its jobs wait in the outbox). */
  hubspotToken: string;
  /** Base URL of the HubSpot API (another host for a local fake in tests), without trailing slash. */
  hubspotApiUrl: string;
  /** Deal stage id a HubSpot deal moves to when its quote is accepted. */
  hubspotDealStageAccepted: string;
  /** Our deal statuses → HubSpot deal stages (HUBSPOT_DEAL_STAGES overrides the defaults of
   * lib/crm/mapping.ts), and the pipeline of the deals the sync creates. */
  hubspotDealStages: Record<DealStatus, string>;
  hubspotPipeline: string;
  /** Client secret of the HubSpot app: verifies the v3 signatures of /api/webhooks/hubspot. */
  hubspotClientSecret: string;
  /** Stripe: with a secret key, card payments go through Stripe; without one (and outside
   * production) through the simulated provider, labelled 'Mode démo'. */
  stripeSecretKey: string;
  stripePublishableKey: string;
  stripeWebhookSecret: string;
  /** Stripe's API address: Stripe's own by default, a local fake in tests. */
  stripeApiUrl: string;
  /** Minutes a cart line holds its workshop places before they go back on sale (CART_HOLD_MINUTES, 1 to
   * 120, default 20). */
  cartHoldMinutes: number;
  /** Bearer token that GET /metrics requires (METRICS_TOKEN, at least 16 characters); when empty,
   * /metrics answers 404 as an unknown page. */
  metricsToken: string;
  /** Seconds without a pass of the worker after which the logs page shows it as stalled
   * (WORKER_STALL_SECONDS, 30 to 86400, default 300: a batch may hold calls to outside services). */
  workerStallSeconds: number;
  /** Request ids, request metrics and one JSON line per request (OBSERVE_REQUESTS=false turns them
   * off: the benchmark's app without them). */
  observeRequests: boolean;
  /** The platform's legal identity, printed on every billing document it issues. */
  platform: {
    name: string;
    siren: string;
    vatNumber: string;
    address: string[];
    email: string;
  };
}

function readEnv(name: string): string | undefined {
  const value = Deno.env.get(name);
  return value === undefined || value === "" ? undefined : value;
}

function proxies(value: string | undefined): number {
  const count = Number(value ?? 0);
  if (!Number.isInteger(count) || count < 0 || count > 10) throw new Error(`TRUST_PROXY invalide : ${value}`);
  return count;
}

function baseUrl(name: string, value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(url.protocol);
  } catch {
    throw new Error(`${name} invalide : ${value}`);
  }
  return value.replace(/\/+$/, "");
}

function flag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === "true") return true;
  if (value === "false") return false;
  throw new Error(`${name} invalide : ${value} (true ou false)`);
}

function boundedInt(name: string, value: string | undefined, fallback: number, min: number, max: number) {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} invalide : ${value}`);
  return n;
}

/** Loopback hosts: an http APP_URL on one of them is a rehearsal on one machine (the browser tests of
 * the production mode), never a public site. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** In production the app refuses to start without what it cannot run without; every problem is listed in
 * one error, so an operator fixes them in one go. */
function refuseIncompleteProduction(env: (name: string) => string | undefined, appSecret: string) {
  const problems: string[] = [];
  if (appSecret.length < 32) problems.push("APP_SECRET doit contenir au moins 32 caractères.");
  const appUrl = env("APP_URL");
  let url: URL | null = null;
  try {
    url = appUrl ? new URL(appUrl) : null;
  } catch {
    url = null;
  }
  if (!url) {
    problems.push("APP_URL doit être l'adresse publique du site (https://…).");
  } else if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK.has(url.hostname))) {
    problems.push(`APP_URL doit commencer par https:// (reçu : ${appUrl}).`);
  }
  const stripe: [string, RegExp][] = [
    ["STRIPE_SECRET_KEY", /^(sk|rk)_(live|test)_\S+$/],
    ["STRIPE_PUBLISHABLE_KEY", /^pk_(live|test)_\S+$/],
    ["STRIPE_WEBHOOK_SECRET", /^whsec_\S+$/],
  ];
  for (const [name, shape] of stripe) {
    const value = env(name);
    if (!value) problems.push(`${name} manquant : le paiement par carte passe par Stripe en production.`);
    else if (!shape.test(value)) problems.push(`${name} invalide (attendu : ${shape.source}).`);
  }
  if (problems.length) {
    throw new Error(`Configuration de production incomplète :\n- ${problems.join("\n- ")}`);
  }
}

function metricsToken(value: string | undefined): string {
  if (value === undefined) return "";
  if (value.length < 16 || /\s/.test(value)) {
    throw new Error("METRICS_TOKEN doit contenir au moins 16 caractères, sans espace.");
  }
  return value;
}

export function loadConfig(env: (name: string) => string | undefined = readEnv): Config {
  const production = env("NODE_ENV") === "production" || env("APP_ENV") === "production";
  const appEnv: AppEnv = production ? "production" : env("APP_ENV") === "test" ? "test" : "development";
  const port = Number(env("PORT") ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT invalide : ${env("PORT")}`);
  const appUrl = (env("APP_URL") ?? `http://localhost:${port}`).replace(/\/$/, "");
  const appSecret = env("APP_SECRET") ?? (production ? "" : "development-secret-not-for-production");
  if (production) refuseIncompleteProduction(env, appSecret);
  return {
    appEnv,
    port,
    appUrl,
    databaseUrl: env("DATABASE_URL") ?? "",
    databasePrepare: flag("DATABASE_PREPARE", env("DATABASE_PREPARE"), true),
    databaseListenUrl: env("DATABASE_LISTEN_URL") ?? "",
    databasePoolSize: boundedInt("DATABASE_POOL_SIZE", env("DATABASE_POOL_SIZE"), 10, 1, 100),
    databaseDeadlines: {
      connectMs: boundedInt(
        "DATABASE_CONNECT_TIMEOUT_MS",
        env("DATABASE_CONNECT_TIMEOUT_MS"),
        5000,
        100,
        120_000,
      ),
      acquireMs: boundedInt(
        "DATABASE_ACQUIRE_TIMEOUT_MS",
        env("DATABASE_ACQUIRE_TIMEOUT_MS"),
        1500,
        100,
        120_000,
      ),
      statementMs: boundedInt(
        "DATABASE_STATEMENT_TIMEOUT_MS",
        env("DATABASE_STATEMENT_TIMEOUT_MS"),
        15_000,
        100,
        3_600_000,
      ),
      idleInTransactionMs: boundedInt(
        "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS",
        env("DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS"),
        30_000,
        100,
        3_600_000,
      ),
    },
    shutdownTimeoutMs: boundedInt("SHUTDOWN_TIMEOUT_MS", env("SHUTDOWN_TIMEOUT_MS"), 25_000, 100, 600_000),
    dataDir: env("DATA_DIR") ?? "./data/pglite",
    appSecret,
    secureCookies: env("SECURE_COOKIES") ? env("SECURE_COOKIES") === "true" : appUrl.startsWith("https://"),
    loadDemoData: !production && env("DEMO_DATA") !== "false",
    watchAssets: env("WATCH_ASSETS") === "1",
    contactPhone: env("CONTACT_PHONE") ?? "01 23 45 67 89",
    supportEmail: env("SUPPORT_EMAIL") ?? "contact@example.fr",
    smtpUrl: env("SMTP_URL") ?? "",
    mailFrom: env("MAIL_FROM") ?? "Cocktails & Co <contact@example.fr>",
    trustProxy: proxies(env("TRUST_PROXY")),
    quoteRequestsPerHour: boundedInt(
      "QUOTE_REQUESTS_PER_HOUR",
      env("QUOTE_REQUESTS_PER_HOUR"),
      10,
      1,
      10_000,
    ),
    registrationsPerHour: boundedInt(
      "REGISTRATIONS_PER_HOUR",
      env("REGISTRATIONS_PER_HOUR"),
      10,
      1,
      10_000,
    ),
    loginAttemptsPerMinute: boundedInt(
      "LOGIN_ATTEMPTS_PER_MINUTE",
      env("LOGIN_ATTEMPTS_PER_MINUTE"),
      60,
      1,
      100_000,
    ),
    resetEmailIntervalMinutes: boundedInt(
      "RESET_EMAIL_INTERVAL_MINUTES",
      env("RESET_EMAIL_INTERVAL_MINUTES"),
      5,
      1,
      60,
    ),
    pageCache: env("PAGE_CACHE") !== "false",
    sessionCacheSeconds: boundedInt("SESSION_CACHE_SECONDS", env("SESSION_CACHE_SECONDS"), 10, 0, 60),
    uploadsDir: env("UPLOADS_DIR") ?? "",
    supabaseUrl: env("SUPABASE_URL")?.replace(/\/+$/, "") ?? "",
    supabaseServiceRoleKey: env("SUPABASE_SERVICE_ROLE_KEY") ?? "",
    supabaseStorageBucket: env("SUPABASE_STORAGE_BUCKET") ?? "deal-photos",
    hubspotToken: env("HUBSPOT_TOKEN") ?? "",
    hubspotApiUrl: baseUrl("HUBSPOT_API_URL", env("HUBSPOT_API_URL") ?? "https://api.hubapi.com"),
    hubspotDealStageAccepted: env("HUBSPOT_DEAL_STAGE_ACCEPTED") ?? "closedwon",
    hubspotDealStages: stageTable(
      env("HUBSPOT_DEAL_STAGES") ?? "",
      env("HUBSPOT_DEAL_STAGE_ACCEPTED") ?? "closedwon",
    ),
    hubspotPipeline: env("HUBSPOT_PIPELINE") ?? "default",
    hubspotClientSecret: env("HUBSPOT_CLIENT_SECRET") ?? "",
    stripeSecretKey: env("STRIPE_SECRET_KEY") ?? "",
    stripePublishableKey: env("STRIPE_PUBLISHABLE_KEY") ?? "",
    stripeWebhookSecret: env("STRIPE_WEBHOOK_SECRET") ?? "",
    stripeApiUrl: env("STRIPE_API_URL") ?? "https://api.stripe.com",
    cartHoldMinutes: boundedInt("CART_HOLD_MINUTES", env("CART_HOLD_MINUTES"), 20, 1, 120),
    metricsToken: metricsToken(env("METRICS_TOKEN")),
    workerStallSeconds: boundedInt("WORKER_STALL_SECONDS", env("WORKER_STALL_SECONDS"), 300, 30, 86_400),
    observeRequests: flag("OBSERVE_REQUESTS", env("OBSERVE_REQUESTS"), true),
    platform: {
      name: env("PLATFORM_NAME") ?? "Cocktails & Co SAS",
      siren: env("PLATFORM_SIREN") ?? "912345678",
      vatNumber: env("PLATFORM_VAT_NUMBER") ?? "FR74912345678",
      address: (env("PLATFORM_ADDRESS") ?? "10 rue de la Paix|75002 Paris").split("|"),
      email: env("PLATFORM_EMAIL") ?? env("SUPPORT_EMAIL") ?? "contact@example.fr",
    },
  };
}
