import { assertEquals } from "../tests/support/assert.ts";
import nodeAssert from "node:assert/strict";
import { loadConfig } from "./config.ts";

const from = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("development defaults: embedded database, demo data, port 8000", () => {
  const config = loadConfig(from({}));
  assertEquals(config.appEnv, "development");
  assertEquals(config.port, 8000);
  assertEquals(config.databaseUrl, "");
  assertEquals(config.loadDemoData, true);
  assertEquals(config.secureCookies, false);
});

Deno.test("production never loads demo data and needs a real secret", () => {
  nodeAssert.throws(() => loadConfig(from({ NODE_ENV: "production" })), /APP_SECRET/);
  const config = loadConfig(
    from({ APP_ENV: "production", APP_SECRET: "x".repeat(32), APP_URL: "https://bar.example.fr/" }),
  );
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
