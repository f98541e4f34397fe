// The metrics primitive: label rules, the Prometheus text (checked with a parser we did not write,
// parse-prometheus-text-format, which throws on a malformed line), the bearer check, the request-id
// rules and the JSON lines.
import { assert, assertEquals } from "../../tests/support/assert.ts";
import parsePrometheus from "parse-prometheus-text-format";
import {
  countRefusal,
  limitName,
  observeJob,
  observeRequest,
  registry,
  UNMATCHED_ROUTE,
} from "./registry.ts";
import { bearerMatches } from "./token.ts";
import { acceptRequestId, currentRequestId, newRequestId, runWithRequestId } from "../log/request_context.ts";
import { lineTime, setLineSink, writeLine } from "../log/lines.ts";

interface Family {
  name: string;
  type: string;
  metrics: {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
  }[];
}
const parse = (text: string) => (parsePrometheus as (text: string) => Family[])(text);

Deno.test("limitName keeps the code's prefix of a bucket, never the client's part", () => {
  assertEquals(limitName("login:all"), "login");
  assertEquals(limitName("exists:203.0.113.9"), "exists");
  assertEquals(limitName("reset:email:someone@example.fr"), "reset");
  assertEquals(limitName("cart-hold:::1"), "cart-hold");
  assertEquals(limitName("203.0.113.9"), "other");
  assertEquals(limitName('Évil"name:x'), "other");
  assertEquals(limitName(""), "other");
});

Deno.test("the registry's text parses, with escaped labels, histograms and counters", async () => {
  observeRequest("GET", "/unit/:id", 200, 0.012);
  observeRequest("GET", "/unit/:id", 200, 0.3);
  observeRequest("BREW", UNMATCHED_ROUTE, 404, 0.001);
  countRefusal("unit-limit:198.51.100.7");
  countRefusal("unit-limit:198.51.100.8");
  observeJob('queue-"quoted"\\x', "done", 0.5);
  const text = await registry.metrics();
  const families = new Map(parse(text).map((family) => [family.name, family]));

  const requests = families.get("http_requests_total")!;
  assertEquals(requests.type, "COUNTER");
  const unit = requests.metrics.find((m) => m.labels?.route === "/unit/:id")!;
  assertEquals(unit.labels, { method: "GET", route: "/unit/:id", status: "200" });
  assertEquals(Number(unit.value), 2);
  // An unknown method is one label value, not whatever the client sent.
  assert(requests.metrics.some((m) => m.labels?.method === "OTHER" && m.labels?.route === UNMATCHED_ROUTE));

  // The parser folds a labelled histogram's series into one (its flattenMetrics): it checks the lines'
  // syntax and the family's type; prom-client's own JSON is the reference for the buckets.
  assertEquals(families.get("http_request_duration_seconds")!.type, "HISTOGRAM");
  const [duration] = (await registry.getMetricsAsJSON()).filter((m) =>
    m.name === "http_request_duration_seconds"
  );
  const series =
    (duration.values as { labels: Record<string, string | number>; value: number; metricName?: string }[])
      .filter((v) => v.labels.route === "/unit/:id");
  const bucket = (le: number) =>
    series.find((v) => v.metricName === "http_request_duration_seconds_bucket" && v.labels.le === le)!.value;
  assertEquals(bucket(0.01), 0);
  assertEquals(bucket(0.025), 1);
  assertEquals(bucket(0.5), 2);
  assertEquals(series.find((v) => v.metricName === "http_request_duration_seconds_count")!.value, 2);

  const refusals = families.get("rate_limit_refusals_total")!;
  assertEquals(Number(refusals.metrics.find((m) => m.labels?.limit === "unit-limit")!.value), 2);
  assert(!text.includes("198.51.100.7"), "no client address in a label");

  const jobs = families.get("job_runs_total")!;
  assert(jobs.metrics.some((m) => m.labels?.queue === 'queue-"quoted"\\x' && m.labels?.outcome === "done"));
});

Deno.test("bearerMatches: only the exact token, in the Bearer scheme", () => {
  const token = "s3cret-metrics-token-0123";
  assert(bearerMatches(`Bearer ${token}`, token));
  assert(bearerMatches(`bearer ${token}`, token));
  assert(!bearerMatches(undefined, token));
  assert(!bearerMatches("", token));
  assert(!bearerMatches(token, token), "the scheme is required");
  assert(!bearerMatches(`Basic ${token}`, token));
  assert(!bearerMatches(`Bearer ${token}x`, token));
  assert(!bearerMatches(`Bearer ${token.slice(0, -1)}`, token));
  assert(!bearerMatches("Bearer ", ""), "an empty expected token never matches");
});

Deno.test("request ids: a sane incoming id is kept, anything else is replaced", () => {
  assertEquals(acceptRequestId("abc-123.X_y"), "abc-123.X_y");
  assertEquals(acceptRequestId("a".repeat(64)), "a".repeat(64));
  assertEquals(acceptRequestId("a".repeat(65)), null);
  assertEquals(acceptRequestId("<script>"), null);
  assertEquals(acceptRequestId("with space"), null);
  assertEquals(acceptRequestId(""), null);
  assertEquals(acceptRequestId(undefined), null);
  const id = newRequestId();
  assert(/^[0-9a-f-]{36}$/.test(id) && id !== newRequestId());
});

Deno.test("the request id follows async work started under it, and nothing else", async () => {
  assertEquals(currentRequestId(), undefined);
  const seen = await runWithRequestId("req-1", async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    const later = new Promise<string | undefined>((resolve) =>
      setTimeout(() => resolve(currentRequestId()), 1)
    );
    return [currentRequestId(), await later];
  });
  assertEquals(seen, ["req-1", "req-1"]);
  assertEquals(currentRequestId(), undefined);
});

Deno.test("writeLine: one JSON object a line, time first", () => {
  const lines: string[] = [];
  const previous = setLineSink((line) => lines.push(line));
  try {
    writeLine({ time: lineTime(), type: "unit", n: 1 });
  } finally {
    setLineSink(previous);
  }
  assertEquals(lines.length, 1);
  assert(!lines[0].includes("\n"));
  const parsed = JSON.parse(lines[0]);
  assertEquals(Object.keys(parsed), ["time", "type", "n"]);
  assert(!Number.isNaN(Date.parse(parsed.time)));
});

Deno.test("lineTime: the ISO 8601 text of the instant, milliseconds included", () => {
  for (
    const t of [
      Date.UTC(2026, 10, 28, 10, 4, 14, 269),
      Date.UTC(2026, 0, 1, 0, 0, 0, 5),
      Date.UTC(2026, 0, 1, 0, 0, 0, 50),
    ]
  ) {
    assertEquals(lineTime(t), new Date(t).toISOString());
  }
  assertEquals(lineTime(Date.UTC(2026, 0, 1, 0, 0, 1, 0)), "2026-01-01T00:00:01.000Z");
});
