// Metrics, request ids and request lines over HTTP (in-process app, PGlite or PostgreSQL):
//   * GET /metrics: 404 without METRICS_TOKEN; 401 without or with a wrong bearer token (nothing leaks);
//     200 with it, the text parsed by parse-prometheus-text-format; requests are labelled by route
//     pattern ('/deal/show/:token', '(unmatched)'), never by path; the queues' and the email backlog's
//     gauges are there; a rate-limit refusal is counted under its limit's name;
//   * X-Request-Id: a sane incoming id comes back, anything else is replaced by a new one; the id is on
//     the 404 page ('Référence de la requête') and in a JSON error (`requestId`), and in the logger's
//     rows written while serving the request;
//   * one JSON line per request with its fields, never the password, cookie or email of a login.
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { Client, httpTest, PASSWORD, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { createApp } from "../../routes/_app.tsx";
import { setLineSink } from "../../lib/log/lines.ts";
import { enforceLimit } from "../../lib/limits/limiter.ts";
import { observeRequests } from "../../lib/http/observe.ts";
import type { AppEnv } from "../../lib/http/context.ts";
import { Hono } from "hono";
import parsePrometheus from "parse-prometheus-text-format";
import { createHealth } from "../../lib/health/state.ts";

const TOKEN = "test-metrics-token-0123456789";
const CUSTOMER = "client@example.fr";

interface Family {
  name: string;
  type: string;
  metrics: { value?: string; labels?: Record<string, string> }[];
}
const parse = (text: string) => (parsePrometheus as (text: string) => Family[])(text);

/** The shared test app with METRICS_TOKEN set (the shared one has none). */
let withToken: Promise<Hono<AppEnv>> | null = null;
function metricsApp() {
  withToken ??= testEnv().then(({ deps }) =>
    createApp({ ...deps, config: { ...deps.config, metricsToken: TOKEN } })
  );
  return withToken;
}

/** Runs `fn` with the JSON lines captured. */
async function capturingLines(fn: () => Promise<void>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const previous = setLineSink((line) => lines.push(line));
  try {
    await fn();
  } finally {
    setLineSink(previous);
  }
  return lines.map((line) => JSON.parse(line));
}

httpTest("/metrics is a 404 page when METRICS_TOKEN is not set", async () => {
  const res = await new Client().get("/metrics", { authorization: `Bearer ${TOKEN}` });
  assertEquals(res.status, 404);
  assert(!res.text.includes("http_requests_total"));
});

httpTest("/metrics refuses a missing or wrong token with a 401 that says nothing more", async () => {
  const client = new Client({ app: await metricsApp() });
  for (
    const authorization of [
      undefined,
      "Bearer wrong-token-0123456789",
      TOKEN,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
    ]
  ) {
    const res = await client.get("/metrics", authorization ? { authorization } : {});
    assertEquals(res.status, 401, String(authorization));
    assertEquals(res.headers.get("www-authenticate"), 'Bearer realm="metrics"');
    assert(!res.text.includes("http_requests_total") && !res.text.includes(TOKEN.slice(0, 10)));
  }
});

httpTest("/metrics with the token: Prometheus text, labels are route patterns, never paths", async () => {
  const client = new Client({ app: await metricsApp() });
  await client.login(CUSTOMER);
  assertEquals((await client.get("/api/user/get", { accept: "application/json" })).status, 200);
  await client.get("/deal/show/secret-token-in-the-path-4242");
  assertEquals((await client.get("/no/such/page-obs-9876")).status, 404);
  // A refusal decided by the limiter is counted under the limit's name.
  await enforceLimit((await testEnv()).db, "obs-test:198.51.100.23", { max: 0, windowSeconds: 60 }, "Trop")
    .catch(() => {});

  const res = await client.get("/metrics", { authorization: `Bearer ${TOKEN}` });
  assertEquals(res.status, 200);
  assertMatch(res.contentType, /^text\/plain; version=0\.0\.4/);
  assertEquals(res.headers.get("cache-control"), "no-store");
  const families = new Map(parse(res.text).map((family) => [family.name, family]));
  const routes = new Set(families.get("http_requests_total")!.metrics.map((m) => m.labels!.route));
  for (const route of ["/api/user/get", "/api/security/login", "/deal/show/:token", "(unmatched)"]) {
    assert(routes.has(route), `route label ${route} in ${[...routes].join(", ")}`);
  }
  for (const raw of ["secret-token-in-the-path-4242", "page-obs-9876", "198.51.100.23"]) {
    assert(!res.text.includes(raw), `${raw} must not appear in the metrics`);
  }
  const userGet = families.get("http_requests_total")!.metrics.find((m) =>
    m.labels!.route === "/api/user/get" && m.labels!.status === "200"
  )!;
  assert(Number(userGet.value) >= 1);
  assertEquals(families.get("http_request_duration_seconds")!.type, "HISTOGRAM");
  const refusals = families.get("rate_limit_refusals_total")!.metrics;
  assert(refusals.some((m) => m.labels!.limit === "obs-test" && Number(m.value) >= 1));

  // The queues: every table queue, by state, with its oldest wait; the email backlog; open streams.
  const jobs = families.get("queue_jobs")!.metrics;
  for (const queue of ["email", "deal-notifications", "refunds", "scheduled-emails"]) {
    for (const state of ["ready", "scheduled", "running", "failed"]) {
      assert(jobs.some((m) => m.labels!.queue === queue && m.labels!.state === state), `${queue} ${state}`);
    }
  }
  assert(families.get("queue_oldest_ready_seconds")!.metrics.some((m) => m.labels!.queue === "email"));
  assertEquals(families.get("queue_stats_up")!.metrics[0].value, "1");
  assertEquals(families.get("email_backlog")!.type, "GAUGE");
  assertEquals(families.get("chat_streams_open")!.type, "GAUGE");
});

httpTest("the email backlog counts the emails waiting to be sent", async () => {
  const { db } = await testEnv();
  // A fresh app: its own 5-second cache of the queues' figures.
  const { deps } = await testEnv();
  const scrape = async () => {
    const app = await createApp({ ...deps, config: { ...deps.config, metricsToken: TOKEN } });
    const res = await new Client({ app }).get("/metrics", { authorization: `Bearer ${TOKEN}` });
    return Number(parse(res.text).find((f) => f.name === "email_backlog")!.metrics[0].value);
  };
  const before = await scrape();
  await systemQuery(
    db,
    `insert into public.email_outbox (recipient, template, subject, text_body)
     select 'obs' || g || '@example.fr', 'obs-test', 'Sujet', 'Corps' from generate_series(1, 3) g`,
  );
  assertEquals(await scrape(), before + 3);
  await systemQuery(db, "delete from public.email_outbox where template = 'obs-test'");
});

httpTest(
  "X-Request-Id: a sane incoming id comes back, others are replaced, one is made otherwise",
  async () => {
    const client = new Client();
    const kept = await client.get("/", { "x-request-id": "abc-123.X_y" });
    assertEquals(kept.headers.get("x-request-id"), "abc-123.X_y");
    for (const bad of ["<script>alert(1)</script>", "a".repeat(65), "two words"]) {
      const replaced = await client.get("/", { "x-request-id": bad });
      assertMatch(replaced.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
    }
    const a = (await client.get("/")).headers.get("x-request-id");
    const b = (await client.get("/")).headers.get("x-request-id");
    assertMatch(a ?? "", /^[0-9a-f-]{36}$/);
    assert(a !== b, "each request has its own id");
    // Static files too.
    const css = await client.get("/favicon.svg");
    assertMatch(css.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
  },
);

httpTest("the request id is printed on the 404 page and returned in a JSON error", async () => {
  const client = new Client();
  const page = await client.get("/page-qui-n-existe-pas", { "x-request-id": "req-page-404" });
  assertEquals(page.status, 404);
  assertMatch(page.text, /Référence de la requête : <code[^>]*>req-page-404<\/code>/);

  const api = await client.get("/api/nexiste-pas", { "x-request-id": "req-json-404" });
  assertEquals(api.status, 404);
  assertEquals(api.json().requestId, "req-json-404");
  assertEquals(api.headers.get("x-request-id"), "req-json-404");

  const generated = await client.get("/api/nexiste-pas");
  assertEquals(generated.json().requestId, generated.headers.get("x-request-id"));
});

httpTest("a log written while serving a request carries its id (logs table and console line)", async () => {
  const { deps, db } = await testEnv();
  const message = `obs-test ${crypto.randomUUID()}`;
  const app = new Hono<AppEnv>();
  app.use("*", observeRequests());
  app.get("/obs/:n", async (c) => {
    // Deep in the work, with no id passed along.
    await new Promise((resolve) => setTimeout(resolve, 1));
    await deps.logger.info("tests", message, { n: c.req.param("n") });
    return c.text("ok");
  });
  const lines = await capturingLines(async () => {
    const res = await app.request("/obs/1", { headers: { "x-request-id": "req-logged-1" } });
    assertEquals(res.status, 200);
  });
  const [row] = await systemQuery<{ context: Record<string, unknown> }>(
    db,
    "select context from public.logs where message = $1",
    [message],
  );
  assertEquals(row.context, { n: "1", requestId: "req-logged-1" });
  assertEquals(lines.map((l) => [l.requestId, l.route]), [["req-logged-1", "/obs/:n"]]);
});

httpTest("one JSON line per request: its fields, and never the password, cookie or email", async () => {
  const client = new Client();
  const lines = await capturingLines(async () => {
    await client.request("POST", "/api/security/login?next=%2Fsecret-query", {
      json: { username: CUSTOMER, password: PASSWORD },
      headers: { "x-request-id": "req-login-1" },
    });
    await client.get("/api/user/get", { accept: "application/json", "x-request-id": "req-user-1" });
  });
  const login = lines.find((l) => l.requestId === "req-login-1")!;
  assertEquals(Object.keys(login), [
    "time",
    "level",
    "type",
    "requestId",
    "method",
    "route",
    "status",
    "durationMs",
    "userId",
  ]);
  assertEquals(login.type, "request");
  assertEquals(login.method, "POST");
  assertEquals(login.route, "/api/security/login");
  assertEquals(login.status, 200);
  assertEquals(login.level, "info");
  assert(typeof login.durationMs === "number" && login.durationMs >= 0);
  assertEquals(login.userId, null, "the login request itself came without a session");
  assert(!Number.isNaN(Date.parse(login.time as string)));

  const [user] = await systemQuery<{ id: string }>(
    (await testEnv()).db,
    "select id from public.users where email = $1",
    [
      CUSTOMER,
    ],
  );
  const profile = lines.find((l) => l.requestId === "req-user-1")!;
  assertEquals([profile.route, profile.status, profile.userId], ["/api/user/get", 200, user.id]);

  const text = lines.map((l) => JSON.stringify(l)).join("\n");
  const cookieValues = [...client.cookies.values()];
  assert(cookieValues.length > 0);
  for (const secret of [PASSWORD, CUSTOMER, "secret-query", ...cookieValues]) {
    assert(!text.includes(secret), `a request line holds ${secret}`);
  }
});

httpTest("pool gauges when the adapter offers stats(), and the worker's heartbeat", async () => {
  const { deps } = await testEnv();
  const stats = () => ({ total: 4, idle: 3, waiting: 1, errors: 7 });
  const db = Object.assign(Object.create(deps.db), { stats });
  const health = createHealth();
  health.workerBeat(1_800_000_000_000);
  const app = await createApp({ ...deps, db, health, config: { ...deps.config, metricsToken: TOKEN } });
  const res = await new Client({ app }).get("/metrics", { authorization: `Bearer ${TOKEN}` });
  const families = new Map(parse(res.text).map((family) => [family.name, family]));
  const value = (name: string, labels?: Record<string, string>) =>
    families.get(name)!.metrics.find((m) =>
      !labels || Object.entries(labels).every(([k, v]) => m.labels?.[k] === v)
    )!.value;
  assertEquals(value("db_pool_connections", { state: "total" }), "4");
  assertEquals(value("db_pool_connections", { state: "idle" }), "3");
  assertEquals(value("db_pool_waiting"), "1");
  assertEquals(value("db_errors_total"), "7");
  assertEquals(value("worker_last_beat_timestamp_seconds"), "1800000000");
  assertEquals(value("worker_stalled"), "0");
  // prom-client's own process figures are there too.
  assert(families.has("process_resident_memory_bytes") && families.has("nodejs_eventloop_lag_seconds"));

  // The test database's own adapter (both adapters offer stats()) and no worker: its pool series, no
  // heartbeat series.
  const plain = await new Client({ app: await metricsApp() }).get("/metrics", {
    authorization: `Bearer ${TOKEN}`,
  });
  const plainFamilies = new Map(parse(plain.text).map((family) => [family.name, family]));
  assertEquals(
    (plainFamilies.get("db_pool_connections")?.metrics ?? []).map((m) => m.labels?.state),
    ["total", "idle"],
  );
  assert(!plainFamilies.has("worker_last_beat_timestamp_seconds"));
});
