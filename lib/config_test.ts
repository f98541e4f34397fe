import { assert, assertEquals } from "../tests/support/assert.ts";
import nodeAssert from "node:assert/strict";
import { loadConfig } from "./config.ts";
import { degradedFeatures, degradedReport } from "./config_degraded.ts";

const from = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("development defaults: embedded database, demo data, port 8000", () => {
  const config = loadConfig(from({}));
  assertEquals(config.appEnv, "development");
  assertEquals(config.port, 8000);
  assertEquals(config.databaseUrl, "");
  assertEquals(config.loadDemoData, true);
  assertEquals(config.secureCookies, false);
});

/** What production needs at the least (lib/config.ts refuses to start without it). */
const PRODUCTION = {
  APP_ENV: "production",
  APP_SECRET: "x".repeat(32),
  APP_URL: "https://bar.example.fr/",
  STRIPE_SECRET_KEY: "sk_live_abc",
  STRIPE_PUBLISHABLE_KEY: "pk_live_abc",
  STRIPE_WEBHOOK_SECRET: "whsec_abc",
};

Deno.test("production never loads demo data and needs a real secret", () => {
  nodeAssert.throws(() => loadConfig(from({ NODE_ENV: "production" })), /APP_SECRET/);
  nodeAssert.throws(() => loadConfig(from({ ...PRODUCTION, APP_SECRET: "short" })), /APP_SECRET/);
  const config = loadConfig(from(PRODUCTION));
  assertEquals(config.loadDemoData, false);
  assertEquals(config.secureCookies, true);
  assertEquals(config.appUrl, "https://bar.example.fr");
});

Deno.test("PORT is honoured and checked", () => {
  assertEquals(loadConfig(from({ PORT: "3000" })).port, 3000);
  nodeAssert.throws(() => loadConfig(from({ PORT: "abc" })), /PORT invalide/);
});

Deno.test("HubSpot: no token by default, HubSpot's own API, the won stage; all from the environment", () => {
  const defaults = loadConfig(from({}));
  assertEquals(defaults.hubspotToken, "");
  assertEquals(defaults.hubspotApiUrl, "https://api.hubapi.com");
  assertEquals(defaults.hubspotDealStageAccepted, "closedwon");
  const local = loadConfig(
    from({
      HUBSPOT_TOKEN: "pat-eu1-secret",
      HUBSPOT_API_URL: "http://127.0.0.1:4010/",
      HUBSPOT_DEAL_STAGE_ACCEPTED: "123456789",
    }),
  );
  assertEquals(local.hubspotToken, "pat-eu1-secret");
  assertEquals(local.hubspotApiUrl, "http://127.0.0.1:4010");
  assertEquals(local.hubspotDealStageAccepted, "123456789");
  nodeAssert.throws(
    () => loadConfig(from({ HUBSPOT_API_URL: "api.hubapi.com" })),
    /HUBSPOT_API_URL invalide/,
  );
  nodeAssert.throws(
    () => loadConfig(from({ HUBSPOT_API_URL: "ftp://example.fr" })),
    /HUBSPOT_API_URL invalide/,
  );
});

Deno.test("DATABASE_PREPARE: prepared statements by default, false turns them off, anything else refused", () => {
  assertEquals(loadConfig(from({})).databasePrepare, true);
  assertEquals(loadConfig(from({ DATABASE_PREPARE: "true" })).databasePrepare, true);
  assertEquals(loadConfig(from({ DATABASE_PREPARE: "false" })).databasePrepare, false);
  nodeAssert.throws(() => loadConfig(from({ DATABASE_PREPARE: "off" })), /DATABASE_PREPARE invalide/);
});

Deno.test("production refuses to start without an https APP_URL and Stripe, and lists every problem at once", () => {
  const refused = (vars: Record<string, string>) => {
    try {
      loadConfig(from(vars));
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error(`accepted: ${JSON.stringify(vars)}`);
  };
  // NODE_ENV=production alone: every problem in one message.
  const all = refused({ NODE_ENV: "production" });
  for (
    const name of [
      "APP_SECRET",
      "APP_URL",
      "STRIPE_SECRET_KEY",
      "STRIPE_PUBLISHABLE_KEY",
      "STRIPE_WEBHOOK_SECRET",
    ]
  ) {
    assert(all.includes(name), `${name} in: ${all}`);
  }
  assert(all.startsWith("Configuration de production incomplète"), all);
  // Without APP_URL (the development default http://localhost would be taken otherwise).
  const { APP_URL: _, ...noUrl } = PRODUCTION;
  assert(/APP_URL/.test(refused(noUrl)));
  assert(/https/.test(refused({ ...PRODUCTION, APP_URL: "http://bar.example.fr" })));
  assert(/APP_URL/.test(refused({ ...PRODUCTION, APP_URL: "bar.example.fr" })));
  // http only on a loopback host: a rehearsal on one machine (the browser tests of the production mode).
  assertEquals(loadConfig(from({ ...PRODUCTION, APP_URL: "http://localhost:8932" })).appEnv, "production");
  assertEquals(loadConfig(from({ ...PRODUCTION, APP_URL: "http://127.0.0.1:9300" })).appEnv, "production");
  // Each Stripe key missing, or of another shape.
  for (const name of ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"]) {
    const { [name as keyof typeof PRODUCTION]: _, ...without } = PRODUCTION;
    assert(refused(without).includes(`${name} manquant`), name);
  }
  assert(refused({ ...PRODUCTION, STRIPE_SECRET_KEY: "pk_live_abc" }).includes("STRIPE_SECRET_KEY invalide"));
  assert(refused({ ...PRODUCTION, STRIPE_WEBHOOK_SECRET: "abc" }).includes("STRIPE_WEBHOOK_SECRET invalide"));
  // A restricted key is a secret key too; development needs none of this.
  assertEquals(
    loadConfig(from({ ...PRODUCTION, STRIPE_SECRET_KEY: "rk_live_abc" })).stripeSecretKey,
    "rk_live_abc",
  );
  assertEquals(loadConfig(from({ APP_URL: "http://bar.example.fr" })).appEnv, "development");
});

Deno.test("degraded features: each missing setting says what runs degraded; a complete setup says nothing", () => {
  const bare = loadConfig(from(PRODUCTION));
  const notes = degradedFeatures(bare).join("\n");
  for (const what of ["SMTP_URL", "HUBSPOT_TOKEN", "HUBSPOT_CLIENT_SECRET", "DATABASE_URL", "Photos"]) {
    assert(notes.includes(what), `${what} in: ${notes}`);
  }
  assert(/boîte d'envoi/.test(notes) && /HubSpot désactivée/.test(notes));
  assert(degradedReport(bare)!.startsWith("Fonctionnement dégradé (5) :\n  - SMTP_URL absent"));
  const complete = loadConfig(
    from({
      ...PRODUCTION,
      SMTP_URL: "smtp://mail.example.fr:587",
      HUBSPOT_TOKEN: "pat-eu1-x",
      HUBSPOT_CLIENT_SECRET: "secret",
      DATABASE_URL: "postgres://app@db.example.fr:6543/postgres",
      DATABASE_PREPARE: "false",
      DATABASE_LISTEN_URL: "postgres://app@db.example.fr:5432/postgres",
      SUPABASE_URL: "https://xyz.supabase.co",
      SUPABASE_SERVICE_ROLE_KEY: "service-role",
    }),
  );
  assertEquals(complete.databaseListenUrl, "postgres://app@db.example.fr:5432/postgres");
  assertEquals(complete.databasePoolSize, 10);
  assertEquals(loadConfig(from({ DATABASE_POOL_SIZE: "4" })).databasePoolSize, 4);
  nodeAssert.throws(() => loadConfig(from({ DATABASE_POOL_SIZE: "0" })), /DATABASE_POOL_SIZE invalide/);
  assertEquals(degradedFeatures(complete), []);
  assertEquals(degradedReport(complete), null);
  // A transaction pooler without a LISTEN connection; test keys in production.
  const pooled = degradedFeatures({ ...complete, databaseListenUrl: "", stripeSecretKey: "sk_test_x" });
  assertEquals(pooled.length, 2);
  assert(pooled[0].startsWith("DATABASE_PREPARE=false sans DATABASE_LISTEN_URL"), pooled[0]);
  assert(pooled[1].startsWith("Clés Stripe de test"), pooled[1]);
});
