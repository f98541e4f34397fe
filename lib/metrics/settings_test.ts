// The observability settings of lib/config.ts: METRICS_TOKEN, WORKER_STALL_SECONDS, OBSERVE_REQUESTS.
import { assert, assertEquals } from "../../tests/support/assert.ts";
import { loadConfig } from "../config.ts";

const configWith = (env: Record<string, string>) => loadConfig((name) => env[name]);
const throws = (env: Record<string, string>) => {
  try {
    configWith(env);
    return false;
  } catch {
    return true;
  }
};

Deno.test("METRICS_TOKEN: unset turns /metrics off; when set, 16 characters at least, no space", () => {
  assertEquals(configWith({}).metricsToken, "");
  assertEquals(configWith({ METRICS_TOKEN: "0123456789abcdef" }).metricsToken, "0123456789abcdef");
  assert(throws({ METRICS_TOKEN: "short" }));
  assert(throws({ METRICS_TOKEN: "0123456789 abcdef" }));
});

Deno.test("WORKER_STALL_SECONDS (30 to 86400, default 300) and OBSERVE_REQUESTS (default on)", () => {
  assertEquals(configWith({}).workerStallSeconds, 300);
  assertEquals(configWith({ WORKER_STALL_SECONDS: "60" }).workerStallSeconds, 60);
  assert(throws({ WORKER_STALL_SECONDS: "5" }));
  assert(throws({ WORKER_STALL_SECONDS: "abc" }));
  assertEquals(configWith({}).observeRequests, true);
  assertEquals(configWith({ OBSERVE_REQUESTS: "false" }).observeRequests, false);
  assert(throws({ OBSERVE_REQUESTS: "no" }));
});
