// The HubSpot adapter's pure parts: Retry-After, the 190 / 10 s sliding window, how HubSpot's answers
// are classified, and that no adapter exists without a token. (Its calls through the real client
// against a local fake: tests/http/operations_test.ts.)
import { assertEquals } from "../../tests/support/assert.ts";
import { hubspotFromConfig, retryAfterSeconds, slidingWindow, toHubSpotError } from "./hubspot.ts";

Deno.test("retryAfterSeconds and the sliding window", () => {
  const now = Date.parse("2026-11-21T10:00:00Z");
  assertEquals(retryAfterSeconds("120", 10, now), 120);
  assertEquals(retryAfterSeconds(" 0 ", 10, now), 1, "at least a second");
  assertEquals(retryAfterSeconds(undefined, 10, now), 10);
  assertEquals(retryAfterSeconds("soon", 10, now), 10);
  assertEquals(retryAfterSeconds("Sat, 21 Nov 2026 10:01:30 GMT", 10, now), 90);
  assertEquals(retryAfterSeconds("Sat, 21 Nov 2026 09:00:00 GMT", 10, now), 1, "a date past");
  assertEquals(retryAfterSeconds("999999999", 10, now), 24 * 3600, "at most a day");

  let t = 0;
  const window = slidingWindow(190, 10_000, () => t);
  for (let i = 0; i < 190; i++) assertEquals(window.take(), 0);
  t = 4000;
  assertEquals(window.take(), 6000, "the 191st call within 10 s waits until the oldest leaves");
  t = 10_000;
  assertEquals(window.take(), 0);
});

Deno.test("HubSpot's answers as what the sync should do", () => {
  const limited = toHubSpotError({
    code: 429,
    body: { message: "slow down" },
    headers: { "Retry-After": "7" },
  });
  assertEquals([limited.kind, limited.status, limited.retryAfterSeconds], ["rate_limited", 429, 7]);
  const daily = toHubSpotError({ code: 429, body: { policyName: "DAILY" }, headers: {} });
  assertEquals(daily.retryAfterSeconds, 3600);
  assertEquals(toHubSpotError({ code: 500, body: {} }).kind, "transient");
  assertEquals(toHubSpotError({ code: 401, body: {} }).kind, "transient", "a token being fixed");
  assertEquals(toHubSpotError({ code: 404, body: {} }).kind, "permanent");
  assertEquals(toHubSpotError({ code: 400, body: { message: "Property does not exist" } }).kind, "permanent");
  assertEquals(toHubSpotError(new TypeError("fetch failed")).kind, "transient");
});

Deno.test("no HubSpot adapter without a token", () => {
  assertEquals(hubspotFromConfig({ hubspotToken: "", hubspotApiUrl: "https://api.hubapi.com" }), null);
  const adapter = hubspotFromConfig({ hubspotToken: "pat-x", hubspotApiUrl: "https://api.hubapi.com" });
  assertEquals(typeof adapter?.getDeal, "function");
});
