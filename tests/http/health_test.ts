// GET /healthz and GET /readyz (routes/health.ts), and the answer to a database that cannot be reached
// (routes/_app.tsx onError): 503 with Retry-After, the French page or JSON `status: "error"`, never a
// 500 and never a session lookup for the probes. PostgreSQL's own faults: scripts/faults.ts.
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { Client, httpTest, testEnv } from "../support/app.ts";
import { createApp } from "../../routes/_app.tsx";
import { createHealth, type Health } from "../../lib/health/state.ts";
import type { Database } from "../../lib/db/database.ts";
import { DatabaseUnavailable, isDatabaseUnavailable } from "../../lib/db/unavailable.ts";

const UNAVAILABLE = "Le service est momentanément indisponible, veuillez réessayer dans quelques instants.";

/** The test database, or one whose every call fails as a lost database does. */
function unreachable(db: Database): Database {
  const fail = () => Promise.reject(new DatabaseUnavailable("POOL_TIMEOUT", "No connection within 1500 ms"));
  return { ...db, transaction: fail, statement: fail };
}

async function appWith(options: { health?: Health; down?: boolean } = {}) {
  const { deps } = await testEnv();
  const db = options.down ? unreachable(deps.db) : deps.db;
  return await createApp({ ...deps, db, health: options.health });
}

function healthy(): Health {
  const health = createHealth();
  health.workerBeat();
  health.setListening("app_chat", true);
  return health;
}

httpTest("/healthz answers 200 without touching the database, even when it is down", async () => {
  const client = new Client({ app: await appWith({ down: true }) });
  const res = await client.get("/healthz", { cookie: "session=whatever" });
  assertEquals(res.status, 200);
  assertEquals(res.json(), { status: "ok" });
  assertEquals(res.headers.get("cache-control"), "no-store");
  assertEquals(res.headers.getSetCookie(), []);
});

httpTest(
  "/readyz answers 200 when the database, its migrations, the worker and LISTEN are fine",
  async () => {
    const res = await new Client({ app: await appWith({ health: healthy() }) }).get("/readyz");
    assertEquals(res.status, 200, res.text);
    assertEquals(res.json(), {
      status: "ok",
      checks: { database: "ok", migrations: "ok", worker: "ok", listen: "ok" },
    });
  },
);

httpTest("/readyz answers 503 naming the failing parts", async () => {
  const noBeat = createHealth();
  let res = await new Client({ app: await appWith({ health: noBeat }) }).get("/readyz");
  assertEquals(res.status, 503);
  assertEquals(res.json<{ failing: string[] }>().failing, ["worker"]);
  assert(res.headers.get("retry-after"));

  const listenDown = healthy();
  listenDown.setListening("app_sessions", false);
  res = await new Client({ app: await appWith({ health: listenDown }) }).get("/readyz");
  assertEquals(res.status, 503);
  assertEquals(res.json<{ failing: string[] }>().failing, ["listen"]);

  res = await new Client({ app: await appWith({ health: healthy(), down: true }) }).get("/readyz");
  assertEquals(res.status, 503);
  assertEquals(res.json<{ status: string; failing: string[] }>(), {
    status: "error",
    failing: ["database", "migrations"],
    checks: { database: "failing", migrations: "failing", worker: "ok", listen: "ok" },
  } as never);
});

httpTest("a page answers 503 with Retry-After and the French message when the database is down", async () => {
  const client = new Client({ app: await appWith({ down: true }) });
  // The session lookup is the request's first database call.
  const res = await client.get("/", { cookie: "session=abc", accept: "text/html" });
  assertEquals(res.status, 503);
  assertEquals(res.headers.get("retry-after"), "5");
  assertMatch(res.contentType, /text\/html/);
  assert(res.text.includes(UNAVAILABLE.replace("'", "&#39;")), res.text);
});

httpTest("the API answers 503 JSON with status 'error' when the database is down", async () => {
  const client = new Client({ app: await appWith({ down: true }) });
  const res = await client.post("/email/exists", { email: "personne@example.fr" });
  assertEquals(res.status, 503);
  assertEquals(res.headers.get("retry-after"), "5");
  const json = res.json<{ status: string; message: string }>();
  assertEquals([json.status, json.message], ["error", UNAVAILABLE]);
});

Deno.test("connection failures, deadlines and an administrator's termination count as unavailable", () => {
  for (
    const code of ["CONNECTION_CLOSED", "CONNECT_TIMEOUT", "ECONNREFUSED", "57P01", "57014", "25P03", "08006"]
  ) {
    assert(isDatabaseUnavailable(Object.assign(new Error(code), { code })), code);
  }
  for (const code of ["23505", "42501", "22P02", undefined]) {
    assert(!isDatabaseUnavailable(Object.assign(new Error("x"), { code })), String(code));
  }
  assert(isDatabaseUnavailable(new DatabaseUnavailable("POOL_TIMEOUT", "x")));
});
