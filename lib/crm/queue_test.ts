// Delivery of the CRM outbox through the real @hubspot/api-client (basePath pointed at a local fake
// HubSpot: Deno.serve on 127.0.0.1, answering PATCH /crm/v3/objects/deals/{id} as HubSpot does), on the
// embedded database (PGlite): what HubSpot receives, how 429, 5xx and 4xx answers are handled, and that
// two drains at once never send a row twice.
import { memoryStorage } from "../storage/storage.ts";
import { assert, assertEquals } from "../../tests/support/assert.ts";
import { type SessionUser, statementAs, systemActor, userActor } from "../actor.ts";
import { loadConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { openPglite } from "../db/pglite.ts";
import { createBackground, type Deps } from "../deps.ts";
import { createLogger } from "../log/logger.ts";
import { acceptDeal } from "../deals/use_cases/accept_deal.ts";
import { outboxQueues } from "../jobs/queues.ts";
import {
  createHubSpot,
  type HubSpotConfig,
  hubspotFromConfig,
  type HubSpotOptions,
  retryAfterSeconds,
  slidingWindow,
} from "../integrations/hubspot.ts";
import { backoffMinutes, CRM_BATCH, crmQueue, MAX_ATTEMPTS } from "./queue.ts";
import { crmUpdateQueued } from "./rules.ts";

const SYSTEM = systemActor("seed");
const TOKEN = "pat-eu1-11111111-2222-3333-4444-555555555555";

async function openDeps(): Promise<Deps> {
  const db = await openPglite("memory://");
  await migrate(db);
  const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: "http://localhost:8000" })[name]);
  const logger = createLogger(db, { quiet: true });
  return {
    config,
    db,
    logger,
    background: createBackground(logger, { manual: true }),
    storage: memoryStorage(),
  };
}

function sql<T = Record<string, unknown>>(db: Database, text: string, params: unknown[] = []) {
  return statementAs<T>(db, SYSTEM, text, params);
}

// ---------------------------------------------------------------------------------------------------
// A fake HubSpot portal: the deals it knows, the requests it received, and an optional override of its
// answer (to play 429, 500…) per request.

interface Received {
  method: string;
  path: string;
  dealId: string;
  authorization: string | null;
  contentType: string | null;
  body: { properties?: Record<string, string> };
}

type Override = (request: Received) => Response | undefined | Promise<Response | undefined>;

function hubspotError(
  status: number,
  message: string,
  category: string,
  extra: Record<string, unknown> = {},
) {
  return Response.json(
    { status: "error", message, correlationId: crypto.randomUUID(), category, ...extra },
    { status },
  );
}

function startHubSpot(options: { token?: string; override?: Override } = {}) {
  const token = options.token ?? TOKEN;
  const deals = new Map<string, Record<string, string>>();
  const received: Received[] = [];
  let override = options.override;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const match = url.pathname.match(/^\/crm\/v3\/objects\/deals\/([^/]+)$/);
    if (!match || req.method !== "PATCH") {
      return hubspotError(404, "resource not found", "OBJECT_NOT_FOUND");
    }
    const text = await req.text();
    let body: Received["body"] = {};
    try {
      body = JSON.parse(text);
    } catch { /* answered below */ }
    const request: Received = {
      method: req.method,
      path: url.pathname,
      dealId: decodeURIComponent(match[1]),
      authorization: req.headers.get("authorization"),
      contentType: req.headers.get("content-type"),
      body,
    };
    received.push(request);
    const answer = await override?.(request);
    if (answer) return answer;
    if (request.authorization !== `Bearer ${token}`) {
      return hubspotError(
        401,
        "Authentication credentials not found. This API supports OAuth 2.0 authentication.",
        "INVALID_AUTHENTICATION",
      );
    }
    if (!body.properties || typeof body.properties !== "object") {
      return hubspotError(400, "Invalid input JSON on line 1", "VALIDATION_ERROR");
    }
    const deal = deals.get(request.dealId);
    if (!deal) return hubspotError(404, "resource not found", "OBJECT_NOT_FOUND");
    Object.assign(deal, body.properties);
    return Response.json({
      id: request.dealId,
      properties: { ...deal, hs_lastmodifieddate: new Date().toISOString() },
      createdAt: "2026-11-01T09:00:00.000Z",
      updatedAt: new Date().toISOString(),
      archived: false,
    });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    received,
    deals,
    /** Adds a deal to the portal, at the stage of a quote sent. */
    addDeal(id: string) {
      deals.set(id, { dealname: `Deal ${id}`, dealstage: "presentationscheduled" });
    },
    setOverride(fn: Override | undefined) {
      override = fn;
    },
    close: () => server.shutdown(),
  };
}

function hubspotConfig(url: string, stage = "closedwon"): HubSpotConfig {
  return { hubspotToken: TOKEN, hubspotApiUrl: url, hubspotDealStageAccepted: stage };
}

function queueFor(url: string, options: HubSpotOptions & { stage?: string } = {}) {
  return crmQueue(createHubSpot(hubspotConfig(url, options.stage), options));
}

// ---------------------------------------------------------------------------------------------------
// Rows.

let counter = 0;

/** A deal (status 'accepted' unless told) with an optional HubSpot id; returns its id. */
async function insertDeal(db: Database, hubspotId: string | null, status = "accepted"): Promise<number> {
  counter++;
  const [row] = await sql<{ id: number }>(
    db,
    "insert into public.deals (name, status, hubspot_id) values ($1, $2, $3) returning id",
    [`Soirée n°${counter}`, status, hubspotId],
  );
  return row.id;
}

/** The row acceptDeal writes, written as the system. */
async function insertEvent(db: Database, dealId: number | null, hubspotId: string | null): Promise<number> {
  const [row] = await sql<{ id: number }>(
    db,
    `insert into public.crm_outbox (deal_id, event, payload)
     values ($1, 'deal_accepted', jsonb_build_object('hubspotId', $2::text, 'status', 'accepted')) returning id`,
    [dealId, hubspotId],
  );
  return row.id;
}

async function acceptedDeal(db: Database, hubspotId: string | null) {
  const dealId = await insertDeal(db, hubspotId);
  return { dealId, outboxId: await insertEvent(db, dealId, hubspotId) };
}

interface OutboxRow {
  status: string;
  attempts: number;
  last_error: string | null;
  sent_at: Date | null;
  /** Seconds from the database's now() to next_attempt_at. */
  wait: number;
}

async function outboxRow(db: Database, id: number): Promise<OutboxRow> {
  const [row] = await sql<OutboxRow>(
    db,
    `select status, attempts, last_error, sent_at, extract(epoch from next_attempt_at - now())::float8 as wait
     from public.crm_outbox where id = $1`,
    [id],
  );
  return row;
}

async function makeDue(db: Database, id: number) {
  await sql(db, "update public.crm_outbox set next_attempt_at = now() where id = $1", [id]);
}

/** Empties the outbox, so that each step only sees its own rows. */
async function clearOutbox(db: Database) {
  await sql(db, "delete from public.crm_outbox");
}

function assertWaitAbout(wait: number, seconds: number, what: string) {
  assert(Math.abs(wait - seconds) < 5, `${what}: next attempt in ${wait} s, expected ${seconds} s`);
}

async function errorLogs(db: Database, outboxId: number) {
  return await sql<{ service: string; message: string; context: Record<string, unknown> }>(
    db,
    "select service, message, context from public.logs where type = 'error' and (context ->> 'outboxId')::bigint = $1",
    [outboxId],
  );
}

const cases: [string, (deps: Deps) => Promise<void>][] = [];
function dbTest(name: string, fn: (deps: Deps) => Promise<void>) {
  cases.push([name, fn]);
}

// ---------------------------------------------------------------------------------------------------

dbTest(
  "a quote accepted by an admin reaches HubSpot once: won stage, bearer token, row sent",
  async (deps) => {
    await clearOutbox(deps.db);
    const hubspot = startHubSpot();
    try {
      hubspot.addDeal("18345678901");
      // The admin's use case writes the outbox row in its transaction.
      const [admin] = await sql<SessionUser>(
        deps.db,
        `insert into public.users (type, email, firstname, lastname)
       values ('Admin', 'admin.crm@example.fr', 'Anne', 'Admin')
       returning id, type, firstname, lastname, name, email`,
      );
      const dealId = await insertDeal(deps.db, "18345678901", "send");
      await acceptDeal(deps, userActor(admin, "session-hash"), dealId);
      const [queued] = await sql<{ id: number; status: string; payload: unknown }>(
        deps.db,
        "select id, status, payload from public.crm_outbox where deal_id = $1",
        [dealId],
      );
      assertEquals(queued.status, "pending");
      assertEquals(queued.payload, { hubspotId: "18345678901", status: "accepted" });

      const queue = queueFor(hubspot.url);
      assertEquals(await queue.drain(deps), 1);
      assertEquals(hubspot.received.length, 1);
      const [request] = hubspot.received;
      assertEquals(request.method, "PATCH");
      assertEquals(request.path, "/crm/v3/objects/deals/18345678901");
      assertEquals(request.authorization, `Bearer ${TOKEN}`);
      assert(request.contentType?.startsWith("application/json"), String(request.contentType));
      assertEquals(request.body, { properties: { dealstage: "closedwon" } });
      assertEquals(hubspot.deals.get("18345678901")?.dealstage, "closedwon");

      const row = await outboxRow(deps.db, queued.id);
      assertEquals([row.status, row.attempts, row.last_error], ["sent", 1, null]);
      assert(row.sent_at instanceof Date, "sent_at is set");
      assertEquals(await queue.drain(deps), 0, "nothing left to send");
      assertEquals(hubspot.received.length, 1, "sent once");
    } finally {
      await hubspot.close();
    }
  },
);

dbTest("the stage comes from HUBSPOT_DEAL_STAGE_ACCEPTED", async (deps) => {
  await clearOutbox(deps.db);
  const hubspot = startHubSpot();
  try {
    hubspot.addDeal("501");
    const { outboxId } = await acceptedDeal(deps.db, "501");
    const config = loadConfig((name) =>
      ({
        HUBSPOT_TOKEN: TOKEN,
        HUBSPOT_API_URL: `${hubspot.url}/`,
        HUBSPOT_DEAL_STAGE_ACCEPTED: "987654321",
      })[name]
    );
    assertEquals(await crmQueue(createHubSpot(config)).drain(deps), 1);
    assertEquals(hubspot.received.map((r) => r.body), [{ properties: { dealstage: "987654321" } }]);
    assertEquals((await outboxRow(deps.db, outboxId)).status, "sent");
  } finally {
    await hubspot.close();
  }
});

dbTest("a deal without HubSpot id: its row is skipped and HubSpot is not called", async (deps) => {
  await clearOutbox(deps.db);
  const hubspot = startHubSpot();
  try {
    const none = await acceptedDeal(deps.db, null);
    const blank = await acceptedDeal(deps.db, "  ");
    const queue = queueFor(hubspot.url);
    assertEquals(await queue.drain(deps), 2, "both handled");
    assertEquals(hubspot.received.length, 0);
    for (const { outboxId } of [none, blank]) {
      const row = await outboxRow(deps.db, outboxId);
      assertEquals([row.status, row.attempts, row.sent_at], ["skipped", 0, null]);
    }
    assertEquals(await queue.drain(deps), 0, "a skipped row is never taken again");
  } finally {
    await hubspot.close();
  }
});

dbTest(
  "the deal's current HubSpot id counts; a deleted deal's event uses the id it recorded",
  async (deps) => {
    await clearOutbox(deps.db);
    const hubspot = startHubSpot();
    try {
      hubspot.addDeal("701");
      hubspot.addDeal("702");
      // Accepted before the admin filled in the HubSpot id: the id set since is used.
      const later = await acceptedDeal(deps.db, null);
      await sql(deps.db, "update public.deals set hubspot_id = '701' where id = $1", [later.dealId]);
      // Deleted since: the row keeps the id of the event (deal_id set null).
      const gone = await acceptedDeal(deps.db, "702");
      await sql(deps.db, "delete from public.deals where id = $1", [gone.dealId]);
      assertEquals(await queueFor(hubspot.url).drain(deps), 2);
      assertEquals(hubspot.received.map((r) => r.dealId).sort(), ["701", "702"]);
      assertEquals((await outboxRow(deps.db, later.outboxId)).status, "sent");
      assertEquals((await outboxRow(deps.db, gone.outboxId)).status, "sent");
    } finally {
      await hubspot.close();
    }
  },
);

dbTest(
  "429 with Retry-After: the row waits that long, the attempt is not counted, the batch pauses",
  async (deps) => {
    await clearOutbox(deps.db);
    const hubspot = startHubSpot({
      override: () =>
        new Response(
          JSON.stringify({
            status: "error",
            message: "You have reached your ten_secondly_rolling limit.",
            errorType: "RATE_LIMIT",
            correlationId: crypto.randomUUID(),
            policyName: "TEN_SECONDLY_ROLLING",
            groupName: "publicapi:private-app-api-calls-ten-secondly:1234",
          }),
          { status: 429, headers: { "content-type": "application/json", "retry-after": "120" } },
        ),
    });
    try {
      hubspot.addDeal("801");
      hubspot.addDeal("802");
      const first = await acceptedDeal(deps.db, "801");
      const second = await acceptedDeal(deps.db, "802");
      const queue = queueFor(hubspot.url);
      const started = Date.now();
      assertEquals(await queue.drain(deps), 2);
      assert(Date.now() - started < 5000, "the queue does not sleep on a 429");
      assertEquals(hubspot.received.length, 1, "the rest of the batch is not sent after a 429");
      for (const { outboxId } of [first, second]) {
        const row = await outboxRow(deps.db, outboxId);
        assertEquals([row.status, row.attempts, row.sent_at], ["pending", 0, null]);
        assertWaitAbout(row.wait, 120, "Retry-After: 120");
        assert(row.last_error?.includes("429"), String(row.last_error));
      }
      assertEquals(await queue.drain(deps), 0, "not due before Retry-After");
      assertEquals(hubspot.received.length, 1);

      // Once due, and HubSpot serves again: both are sent.
      hubspot.setOverride(undefined);
      await makeDue(deps.db, first.outboxId);
      await makeDue(deps.db, second.outboxId);
      assertEquals(await queue.drain(deps), 2);
      for (const { outboxId } of [first, second]) {
        const row = await outboxRow(deps.db, outboxId);
        assertEquals([row.status, row.attempts], ["sent", 1]);
      }
      assertEquals((await errorLogs(deps.db, first.outboxId)).length, 0, "a 429 is not an error");
    } finally {
      await hubspot.close();
    }
  },
);

dbTest("429 with an HTTP-date Retry-After, and without one (10 s, the rolling window)", async (deps) => {
  await clearOutbox(deps.db);
  const at = new Date(Date.now() + 300_000).toUTCString();
  const hubspot = startHubSpot({
    override: (r) =>
      r.dealId === "811"
        ? hubspotError(429, "You have reached your secondly limit.", "RATE_LIMITS", {})
        : new Response("{}", { status: 429, headers: { "retry-after": at } }),
  });
  try {
    const dated = await acceptedDeal(deps.db, "810");
    assertEquals(await queueFor(hubspot.url).drain(deps), 1);
    assertWaitAbout((await outboxRow(deps.db, dated.outboxId)).wait, 300, "Retry-After as a date");
    const bare = await acceptedDeal(deps.db, "811");
    assertEquals(await queueFor(hubspot.url).drain(deps), 1);
    const row = await outboxRow(deps.db, bare.outboxId);
    assertEquals([row.status, row.attempts], ["pending", 0]);
    assertWaitAbout(row.wait, 10, "no Retry-After");
  } finally {
    await hubspot.close();
  }
});

dbTest("this instance's own budget (190 / 10 s) defers rows without calling HubSpot", async (deps) => {
  await clearOutbox(deps.db);
  const hubspot = startHubSpot();
  try {
    const rows = [];
    for (const id of ["821", "822", "823"]) {
      hubspot.addDeal(id);
      rows.push(await acceptedDeal(deps.db, id));
    }
    // A budget of 2 requests per 10 s, on a frozen clock.
    const queue = queueFor(hubspot.url, { limit: 2, windowMs: 10_000, now: () => 1_000_000 });
    assertEquals(await queue.drain(deps), 3);
    assertEquals(hubspot.received.length, 2);
    const third = await outboxRow(deps.db, rows[2].outboxId);
    assertEquals([third.status, third.attempts], ["pending", 0]);
    assertWaitAbout(third.wait, 10, "until the window frees a request");
  } finally {
    await hubspot.close();
  }
});

dbTest("500: retried with exponential backoff, then sent", async (deps) => {
  await clearOutbox(deps.db);
  let failures = 2;
  const hubspot = startHubSpot({
    override: () =>
      failures-- > 0 ? hubspotError(500, "Internal error, please retry", "INTERNAL_ERROR") : undefined,
  });
  try {
    hubspot.addDeal("901");
    const { outboxId } = await acceptedDeal(deps.db, "901");
    const queue = queueFor(hubspot.url);
    for (const attempt of [1, 2]) {
      assertEquals(await queue.drain(deps), 1, `attempt ${attempt}`);
      const row = await outboxRow(deps.db, outboxId);
      assertEquals([row.status, row.attempts, row.sent_at], ["pending", attempt, null]);
      assert(row.last_error?.includes("500"), String(row.last_error));
      assertWaitAbout(row.wait, backoffMinutes(attempt) * 60, `after ${attempt} failures`);
      assertEquals(await queue.drain(deps), 0, "not due before its backoff");
      await makeDue(deps.db, outboxId);
    }
    assertEquals(await queue.drain(deps), 1);
    const row = await outboxRow(deps.db, outboxId);
    assertEquals([row.status, row.attempts, row.last_error], ["sent", 3, null]);
    assertEquals(hubspot.received.length, 3);
    assertEquals(hubspot.deals.get("901")?.dealstage, "closedwon");
  } finally {
    await hubspot.close();
  }
});

dbTest(`a 5xx that lasts: failed after ${MAX_ATTEMPTS} attempts, logged once`, async (deps) => {
  await clearOutbox(deps.db);
  const hubspot = startHubSpot({
    override: () => hubspotError(503, "Service unavailable", "SERVICE_UNAVAILABLE"),
  });
  try {
    const { outboxId } = await acceptedDeal(deps.db, "902");
    const queue = queueFor(hubspot.url);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await makeDue(deps.db, outboxId);
      assertEquals(await queue.drain(deps), 1, `attempt ${attempt}`);
      const row = await outboxRow(deps.db, outboxId);
      assertEquals([row.status, row.attempts], [attempt < MAX_ATTEMPTS ? "pending" : "failed", attempt]);
    }
    const logs = await errorLogs(deps.db, outboxId);
    assertEquals(logs.length, 1, "logged once, when abandoned");
    assertEquals(logs[0].service, "crm");
    assertEquals([logs[0].context.hubspotId, logs[0].context.status], ["902", 503]);
    await makeDue(deps.db, outboxId);
    assertEquals(await queue.drain(deps), 0, "a failed row is never tried again");
    assertEquals(hubspot.received.length, MAX_ATTEMPTS);
  } finally {
    await hubspot.close();
  }
});

dbTest("404 (no such deal in HubSpot): failed at once, an error logged, no retry", async (deps) => {
  await clearOutbox(deps.db);
  const hubspot = startHubSpot();
  try {
    const { outboxId, dealId } = await acceptedDeal(deps.db, "404404");
    const queue = queueFor(hubspot.url);
    assertEquals(await queue.drain(deps), 1);
    const row = await outboxRow(deps.db, outboxId);
    assertEquals([row.status, row.attempts, row.sent_at], ["failed", 1, null]);
    assert(row.last_error?.includes("404") && row.last_error.includes("resource not found"), row.last_error!);
    const logs = await errorLogs(deps.db, outboxId);
    assertEquals(logs.length, 1);
    assertEquals(logs[0].service, "crm");
    assertEquals([logs[0].context.dealId, logs[0].context.hubspotId, logs[0].context.status], [
      dealId,
      "404404",
      404,
    ]);
    await makeDue(deps.db, outboxId);
    assertEquals(await queue.drain(deps), 0);
    assertEquals(hubspot.received.length, 1, "never retried");
  } finally {
    await hubspot.close();
  }
});

dbTest(
  "400 fails at once; 401 (token revoked) is retried, and the token never reaches the logs",
  async (deps) => {
    await clearOutbox(deps.db);
    const hubspot = startHubSpot({
      token: "another-token",
      override: (r) =>
        r.dealId === "400"
          ? hubspotError(400, "Property values were not valid", "VALIDATION_ERROR")
          : undefined,
    });
    try {
      const bad = await acceptedDeal(deps.db, "400");
      const unauthorised = await acceptedDeal(deps.db, "401");
      assertEquals(await queueFor(hubspot.url).drain(deps), 2);
      assertEquals((await outboxRow(deps.db, bad.outboxId)).status, "failed");
      const row = await outboxRow(deps.db, unauthorised.outboxId);
      assertEquals([row.status, row.attempts], ["pending", 1]);
      assert(row.last_error?.includes("401"), String(row.last_error));
      const [{ n }] = await sql<{ n: number }>(
        deps.db,
        `select count(*)::int as n from public.crm_outbox o, public.logs l
       where o.last_error like $1 or l.context::text like $1 or l.message like $1`,
        [`%${TOKEN}%`],
      );
      assertEquals(n, 0, "the token is in no row and no log");
    } finally {
      await hubspot.close();
    }
  },
);

dbTest("HubSpot unreachable, or silent past the timeout: pending, retried with backoff", async (deps) => {
  await clearOutbox(deps.db);
  const closed = startHubSpot();
  const url = closed.url;
  await closed.close();
  const unreachable = await acceptedDeal(deps.db, "1001");
  assertEquals(await queueFor(url).drain(deps), 1);
  let row = await outboxRow(deps.db, unreachable.outboxId);
  assertEquals([row.status, row.attempts], ["pending", 1]);
  assert(row.last_error?.includes("injoignable"), String(row.last_error));
  assertWaitAbout(row.wait, backoffMinutes(1) * 60, "after a network error");

  await clearOutbox(deps.db);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const hubspot = startHubSpot({ override: () => gate.then(() => undefined) });
  try {
    hubspot.addDeal("1002");
    const silent = await acceptedDeal(deps.db, "1002");
    assertEquals(await queueFor(hubspot.url, { timeoutMs: 200 }).drain(deps), 1);
    row = await outboxRow(deps.db, silent.outboxId);
    assertEquals([row.status, row.attempts], ["pending", 1]);
    assert(row.last_error?.includes("pas de réponse"), String(row.last_error));
  } finally {
    release();
    await hubspot.close();
  }
});

dbTest("two drains at once never send a row twice", async (deps) => {
  await clearOutbox(deps.db);
  const hubspot = startHubSpot();
  try {
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) {
      hubspot.addDeal(`2${i}`);
      ids.push((await acceptedDeal(deps.db, `2${i}`)).outboxId);
    }
    // Two instances (two clients), draining at the same time, twice each.
    const a = queueFor(hubspot.url);
    const b = queueFor(hubspot.url);
    const counts = await Promise.all([a.drain(deps), b.drain(deps), a.drain(deps), b.drain(deps)]);
    let more = 0;
    while ((more = await a.drain(deps)) > 0) assert(more <= CRM_BATCH);
    const sent = hubspot.received.map((r) => r.dealId);
    assertEquals(sent.length, 25, `handled ${counts} in the concurrent drains`);
    assertEquals(new Set(sent).size, 25, "each deal updated once");
    const rows = await sql<{ status: string; attempts: number }>(
      deps.db,
      "select status, attempts from public.crm_outbox where id = any($1::bigint[])",
      [ids],
    );
    assert(
      rows.length === 25 && rows.every((r) => r.status === "sent" && r.attempts === 1),
      JSON.stringify(rows),
    );
  } finally {
    await hubspot.close();
  }
});

dbTest("a row being sent is claimed: a drain meanwhile does not take it", async (deps) => {
  await clearOutbox(deps.db);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const inFlight = new Promise<void>((resolve) => (arrived = resolve));
  const hubspot = startHubSpot({
    override: async () => {
      arrived();
      await gate;
      return undefined;
    },
  });
  try {
    hubspot.addDeal("3001");
    const { outboxId } = await acceptedDeal(deps.db, "3001");
    const first = queueFor(hubspot.url).drain(deps);
    await inFlight;
    const during = await outboxRow(deps.db, outboxId);
    assertEquals([during.status, during.attempts], ["pending", 1]);
    assert(during.wait > 60, `claimed for a while: ${during.wait} s`);
    assertEquals(await queueFor(hubspot.url).drain(deps), 0);
    release();
    assertEquals(await first, 1);
    assertEquals(hubspot.received.length, 1);
    assertEquals((await outboxRow(deps.db, outboxId)).status, "sent");
  } finally {
    release();
    await hubspot.close();
  }
});

dbTest(
  "the CRM queue runs only with a HubSpot token; the message claims the update only then",
  async (deps) => {
    await clearOutbox(deps.db);
    const without = loadConfig((name) => ({ APP_ENV: "test" })[name]);
    assertEquals(hubspotFromConfig(without), null);
    assertEquals(outboxQueues(without).map((q) => q.name).includes("crm"), false);
    // The worker without a token: the event stays pending, ready for when a token is configured.
    const { outboxId } = await acceptedDeal(deps.db, "5001");
    for (const queue of outboxQueues(without)) await queue.drain(deps);
    const row = await outboxRow(deps.db, outboxId);
    assertEquals([row.status, row.attempts], ["pending", 0]);
    const withToken = loadConfig((name) => ({ APP_ENV: "test", HUBSPOT_TOKEN: TOKEN })[name]);
    assertEquals(outboxQueues(withToken).filter((q) => q.name === "crm").length, 1);

    assertEquals(crmUpdateQueued(withToken, "123"), true);
    assertEquals(crmUpdateQueued(withToken, null), false);
    assertEquals(crmUpdateQueued(withToken, " "), false);
    assertEquals(crmUpdateQueued(without, "123"), false);
  },
);

dbTest("retryAfterSeconds and the sliding window", () => {
  const now = Date.parse("2026-11-21T10:00:00Z");
  assertEquals(retryAfterSeconds("120", 10, now), 120);
  assertEquals(retryAfterSeconds(" 0 ", 10, now), 1, "at least a second");
  assertEquals(retryAfterSeconds(undefined, 10, now), 10);
  assertEquals(retryAfterSeconds("soon", 10, now), 10);
  assertEquals(retryAfterSeconds("Sat, 21 Nov 2026 10:01:30 GMT", 10, now), 90);
  assertEquals(retryAfterSeconds("Sat, 21 Nov 2026 09:00:00 GMT", 10, now), 1, "a date past");
  assertEquals(retryAfterSeconds("999999999", 10, now), 24 * 3600, "at most a day");

  let t = 0;
  const window = slidingWindow(3, 10_000, () => t);
  assertEquals([window.take(), window.take(), window.take()], [0, 0, 0]);
  t = 4000;
  assertEquals(window.take(), 6000, "the oldest call leaves the window at 10 s");
  t = 10_000;
  assertEquals(window.take(), 0);
  assertEquals(backoffMinutes(1), 1);
  assertEquals([2, 3, 4].map(backoffMinutes), [2, 4, 8]);
  assertEquals(backoffMinutes(20), 360);
  return Promise.resolve();
});

Deno.test({
  name: "CRM outbox delivery to HubSpot (PGlite, real @hubspot/api-client, fake HubSpot)",
  // fetch connections may outlive the step that used them; servers and PGlite are closed.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const deps = await openDeps();
    try {
      for (const [name, fn] of cases) await t.step(name, () => fn(deps));
    } finally {
      await deps.db.close();
    }
  },
});
