// Operations over HTTP, on PGlite and PostgreSQL (one file: each HTTP test file pays its own database
// set-up).
//
// Logs (spec 001 §2.13, §7, §8, §9): admins only (every other role and an admin impersonating someone are refused, on the API and the page), the answer's
// shape (`success`, `data.stats`, `data.logs`, `data.services`), the filters, 50 rows a page newest
// first, deleting one row, cleaning rows older than 30 days (and the nightly SQL function), and the
// HubSpot sync's state said on the page. And every integration logs its failures here under its own
// service name: Stripe and HubSpot below (SMTP: lib/mail/delivery_test.ts; pg_cron:
// supabase/tests/database/operations_test.sql).
//
// HubSpot both ways, through the real @hubspot/api-client
// pointed at a local fake portal (tests/support/fake_hubspot.ts):
//   * out: every change of a deal (creation, properties, status, 'Marquer devis accepté') queues one
//     sync per deal in the action's transaction; several changes → one push of the latest state;
//     only what changed is sent; 429 + Retry-After and the 190 / 10 s budget are waited for without
//     using attempts; an outage loses nothing; two workers never push the same change twice;
//   * in: POST /api/webhooks/hubspot verified against HubSpot's v3 recipe computed here with
//     node:crypto (wrong secret, old timestamp, modified body → 401); a deal created or changed in
//     HubSpot is imported or updated here, once, without being pushed back.
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { Client, httpTest, ORIGIN, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import type { LogsData } from "../../lib/ops/rules.ts";
import { FakeStripe } from "../support/fake_stripe.ts";
import { dealReadyToPay, deliverToApp, partiesOf, sharedStripeApp } from "../support/stripe_app.ts";
import { createHmac } from "node:crypto";
import { FAKE_HUBSPOT_TOKEN, type FakeHubSpot, startFakeHubSpot } from "../support/fake_hubspot.ts";
import type { Deps } from "../../lib/deps.ts";
import type { Database } from "../../lib/db/database.ts";
import { openPostgres } from "../../lib/db/postgres.ts";
import { createHubSpot, type HubSpotOptions } from "../../lib/integrations/hubspot.ts";
import { crmSyncHandler } from "../../lib/crm/sync.ts";
import { outboxQueue } from "../../lib/outbox/worker.ts";
import { createApp } from "../../routes/_app.tsx";
import { handlerFromEnvironment } from "../../supabase/functions/hubspot-webhook/index.ts";

const ADMIN = "admin@example.fr";
const CUSTOMER = "client@example.fr";
const CUSTOMER2 = "client2@example.fr";
const PARTNER = "partenaire@example.fr";
const PARTNER2 = "partenaire2@example.fr";

async function signedIn(email: string): Promise<Client> {
  const client = new Client();
  await client.login(email);
  return client;
}

/** Log rows written as the system, `ageDays` old; returns their ids. */
async function insertLogs(service: string, type: string, count: number, ageDays = 0): Promise<number[]> {
  const { db } = await testEnv();
  const rows = await systemQuery<{ id: number }>(
    db,
    `insert into public.logs (created_at, service, type, message, context)
     select now() - make_interval(days => $4) - make_interval(secs => g), $1, $2, 'Message n°' || g,
            jsonb_build_object('n', g)
     from generate_series(1, $3) g returning id`,
    [service, type, count, ageDays],
  );
  return rows.map((r) => r.id);
}

const dataOf = (res: { json<T>(): T }) => res.json<{ success: boolean; data: LogsData }>().data;

httpTest("logs: every role but admin is refused, on the API and the page", async () => {
  const [id] = await insertLogs(`t-roles-${Date.now()}`, "info", 1);
  const anonymous = new Client();
  assertEquals((await anonymous.get("/api/logs")).status, 401);
  assertEquals((await anonymous.delete(`/api/logs/${id}`)).status, 401);
  assertEquals((await anonymous.post("/api/logs/cleanup")).status, 401);
  const page = await anonymous.get("/dashboard/admin/logs");
  assertEquals(page.status, 303);
  assert(page.headers.get("location")!.startsWith("/login?redirect="));

  const admin = await signedIn(ADMIN);
  const impersonating = await signedIn(ADMIN);
  const [{ id: customerId }] = await systemQuery<{ id: string }>(
    (await testEnv()).db,
    "select id from public.users where email = $1",
    [CUSTOMER],
  );
  assertEquals((await impersonating.request("POST", `/admin/switch/${customerId}`)).status, 303);
  for (
    const [who, client] of [
      [CUSTOMER, await signedIn(CUSTOMER)],
      [CUSTOMER2, await signedIn(CUSTOMER2)],
      [PARTNER, await signedIn(PARTNER)],
      [PARTNER2, await signedIn(PARTNER2)],
      ["admin impersonating a customer", impersonating],
    ] as const
  ) {
    const list = await client.get("/api/logs");
    assertEquals(list.status, 403, `${who}: GET`);
    assertEquals(
      list.json<{ message: string }>().message,
      "La gestion des logs est réservée aux administrateurs.",
    );
    assertEquals((await client.delete(`/api/logs/${id}`)).status, 403, `${who}: DELETE`);
    assertEquals((await client.post("/api/logs/cleanup")).status, 403, `${who}: cleanup`);
    assertEquals((await client.get("/dashboard/admin/logs")).status, 403, `${who}: page`);
  }
  const { db } = await testEnv();
  assertEquals(
    (await systemQuery(db, "select 1 from public.logs where id = $1", [id])).length,
    1,
    "still there",
  );

  // The admin: the page with its title and the sync's state, in the admin menu.
  const html = await admin.get("/dashboard/admin/logs");
  assertEquals(html.status, 200);
  assert(html.text.includes("Gestion des Logs"));
  assert(html.text.includes('href="/dashboard/admin/logs"'), "in the admin menu");
  assert(html.text.includes("Synchronisation HubSpot désactivée"), "without HUBSPOT_TOKEN the page says so");
});

httpTest("logs: stats, services, filters and pages of 50, newest first", async () => {
  const service = `t-page-${Date.now()}`;
  await insertLogs(service, "error", 60);
  await insertLogs(service, "warning", 3);
  await insertLogs(service, "info", 2, 40);
  const admin = await signedIn(ADMIN);

  const all = await admin.get("/api/logs");
  assertEquals(all.status, 200);
  const body = all.json<{ success: boolean; data: LogsData }>();
  assertEquals(body.success, true);
  const { stats } = body.data;
  assertEquals(stats.total, stats.errors + stats.warnings + stats.info);
  assert(stats.today >= 63 && stats.today <= stats.total, `today: ${stats.today}`);
  assert(body.data.services.includes(service));
  assertEquals(body.data.services, [...body.data.services].sort(), "services in order");
  assertEquals(body.data.logs.length, 50);
  assertEquals(body.data.pageSize, 50);
  assertEquals(body.data.hubspot.enabled, false);
  const times = body.data.logs.map((l) => l.createdAt);
  assertEquals(times, [...times].sort((a, b) => b - a), "newest first");

  const mine = dataOf(await admin.get(`/api/logs?service=${service}`));
  assertEquals(mine.total, 65);
  assertEquals(mine.logs.length, 50);
  assertEquals(mine.logs[0].message, "Message n°1", "the newest first");
  assert(mine.logs.every((l) => l.service === service));
  const second = dataOf(await admin.get(`/api/logs?service=${service}&page=2`));
  assertEquals([second.page, second.logs.length], [2, 15]);
  assertEquals(second.logs.at(-1)!.message, "Message n°2", "the oldest last");
  assertEquals(new Set([...mine.logs, ...second.logs].map((l) => l.id)).size, 65, "no row twice");

  const warnings = dataOf(await admin.get(`/api/logs?service=${service}&type=warning`));
  assertEquals(warnings.total, 3);
  assert(warnings.logs.every((l) => l.type === "warning" && l.context.n !== undefined));
  const onlyType = dataOf(await admin.get("/api/logs?type=warning"));
  assert(onlyType.logs.every((l) => l.type === "warning"));
  assertEquals(onlyType.total, onlyType.stats.warnings);

  for (const bad of ["type=fatal", "page=0", "page=abc", `service=${"x".repeat(65)}`]) {
    const res = await admin.get(`/api/logs?${bad}`);
    assertEquals(res.status, 400, bad);
    assert(/^(Type de log|Numéro de page|Service de log)/.test(res.json<{ message: string }>().message), bad);
  }
  // The page with a filter in its URL shows those rows.
  const html = await admin.get(`/dashboard/admin/logs?service=${service}&type=warning`);
  assertEquals(html.status, 200);
  assert(html.text.includes("Message n°3"));
  // Services read in French (the filter's value keeps the id); a filter matching nothing says so.
  await insertLogs("vouchers", "info", 1);
  const named = await admin.get("/dashboard/admin/logs?service=vouchers");
  assertMatch(named.text, /<option[^>]*value="vouchers"[^>]*>Bons cadeaux<\/option>/);
  const nothing = await admin.get("/dashboard/admin/logs?service=t-nothing-here");
  assert(nothing.text.includes("Aucun log ne correspond à ces filtres."), "filtered: not 'pour le moment'");
  assert(!nothing.text.includes("Aucun log pour le moment."));
});

httpTest("logs: delete one row; clean rows older than 30 days (admin and nightly job)", async () => {
  const service = `t-clean-${Date.now()}`;
  const [recent] = await insertLogs(service, "info", 1);
  const old = await insertLogs(service, "error", 3, 31);
  const [borderline] = await insertLogs(service, "warning", 1, 29);
  const admin = await signedIn(ADMIN);
  const { db } = await testEnv();
  const left = async () =>
    (await systemQuery<{ id: number }>(db, "select id from public.logs where service = $1 order by id", [
      service,
    ]))
      .map((r) => r.id);

  const deleted = await admin.delete(`/api/logs/${recent}`);
  assertEquals(deleted.status, 200);
  assertEquals(deleted.json(), { success: true, message: "Log supprimé avec succès" });
  const again = await admin.delete(`/api/logs/${recent}`);
  assertEquals(again.status, 404);
  assertEquals(again.json<{ message: string }>().message, "Ce log n'existe pas ou a déjà été supprimé.");
  assertEquals((await admin.delete("/api/logs/abc")).status, 404);

  const cleaned = await admin.post("/api/logs/cleanup");
  assertEquals(cleaned.status, 200);
  const result = cleaned.json<{ success: boolean; message: string; data: { deleted: number } }>();
  assertEquals(result.success, true);
  assert(result.data.deleted >= 3);
  assert(/logs? de plus de 30 jours supprimés?\./.test(result.message), result.message);
  assertEquals(await left(), [borderline], "rows of 29 days stay");
  const [audit] = await systemQuery<{ context: { deleted: number } }>(
    db,
    "select context from public.logs where service = 'logs' order by id desc limit 1",
  );
  assertEquals(audit.context.deleted, result.data.deleted, "the cleanup is itself logged");

  // The nightly job's function deletes the same rows, as the system only.
  await insertLogs(service, "info", 2, 45);
  const [{ n }] = await systemQuery<{ n: number }>(db, "select public.purge_old_logs() as n");
  assert(n >= 2);
  assertEquals(await left(), [borderline]);
  void old;
});

async function stripeLogsSince(db: Parameters<typeof systemQuery>[0], since: Date) {
  return await systemQuery<{ type: string; message: string; context: Record<string, unknown> }>(
    db,
    "select type, message, context from public.logs where service = 'stripe' and created_at >= $1 order by id",
    [since],
  );
}

httpTest("Stripe failures are logged with the service 'stripe'", async () => {
  const fake = FakeStripe.start();
  try {
    const env = await sharedStripeApp(fake);
    const since = new Date(Date.now() - 1000);

    // A signed webhook about an intent Stripe does not know: Stripe will retry; the admins see why.
    const event = {
      id: `evt_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`,
      object: "event",
      type: "payment_intent.succeeded",
      api_version: "2025-01-27.acacia",
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: { id: "pi_unknownunknown00001", object: "payment_intent" } },
    };
    const delivered = await deliverToApp(env, await fake.delivery(event));
    assertEquals(delivered.status, 500);
    let logs = await stripeLogsSince(env.db, since);
    assertEquals(logs.map((l) => [l.type, l.message]), [[
      "error",
      "Webhook Stripe non traité (Stripe réessaiera)",
    ]]);
    assertEquals(logs[0].context.eventId, event.id);

    // Creating an intent fails at Stripe (500 on every retry of the library).
    const parties = await partiesOf(env);
    const deal = await dealReadyToPay(env, parties);
    fake.failNext(5, 500, { method: "POST", path: /\/v1\/payment_intents$/ });
    const refused = await parties.customer.post("/api/payment/intent", {
      dealToken: deal.token,
      paymentType: "deposit",
    });
    assert(refused.status >= 500, `intent refused: ${refused.status}`);
    logs = await stripeLogsSince(env.db, since);
    assertEquals(logs.at(-1)!.message, "Création du paiement impossible chez le prestataire");
    assertEquals(logs.at(-1)!.context.dealId, deal.id);
  } finally {
    await fake.close();
  }
});

// ---------------------------------------------------------------------------------------------------
// HubSpot both ways.

const SECRET = "hubspot-client-secret-0f9e8d7c";
const WEBHOOK_PATH = "/api/webhooks/hubspot";

/** The shared test database, with HubSpot configured against `fake`. */
async function hubspotDeps(fake: FakeHubSpot, db?: Database): Promise<Deps> {
  const { deps } = await testEnv();
  return {
    ...deps,
    db: db ?? deps.db,
    config: {
      ...deps.config,
      hubspotToken: FAKE_HUBSPOT_TOKEN,
      hubspotApiUrl: fake.url,
      hubspotClientSecret: SECRET,
    },
  };
}

function worker(fake: FakeHubSpot, options: HubSpotOptions = {}) {
  const hubspot = createHubSpot({ hubspotToken: FAKE_HUBSPOT_TOKEN, hubspotApiUrl: fake.url }, options);
  return outboxQueue([crmSyncHandler(hubspot)]);
}

async function drain(deps: Deps, queue: ReturnType<typeof worker>): Promise<number> {
  let total = 0;
  for (let n = await queue.drain(deps); n > 0; n = await queue.drain(deps)) total += n;
  return total;
}

/** Jobs queued before this test (demo deals…) are put aside: the test's drains see only its own. */
async function isolate(db: Database) {
  await systemQuery(
    db,
    `update outbox.jobs set run_at = now() + interval '1 day'
     where queue = 'crm-sync' and state = 'pending'`,
  );
}

/** Makes the deals' pending syncs due now (past their backoff or Retry-After). */
async function makeDue(db: Database, dealIds: number[]) {
  await systemQuery(
    db,
    `update outbox.jobs set run_at = now() where queue = 'crm-sync' and state = 'pending' and key = any($1::text[])`,
    [dealIds.map((id) => `deal-${id}`)],
  );
}

interface JobRow {
  state: string;
  attempts: number;
  dueIn: number;
  lastError: string | null;
}
async function jobsOf(db: Database, dealId: number): Promise<JobRow[]> {
  return await systemQuery<JobRow>(
    db,
    `select state, attempts, extract(epoch from run_at - now())::float8 as "dueIn", last_error as "lastError"
     from outbox.jobs where queue = 'crm-sync' and key = $1 order by id`,
    [`deal-${dealId}`],
  );
}

let counter = 0;
/** A deal written as the system (the trigger queues its sync like any other write). */
async function newDeal(db: Database, hubspotId: string | null = null, status = "start"): Promise<number> {
  counter++;
  const [row] = await systemQuery<{ id: number }>(
    db,
    `insert into public.deals (name, status, hubspot_id, total_ht, properties)
     values ($1, $2, $3, 0, $4::text::jsonb) returning id`,
    [
      `Mariage – Test CRM ${counter}`,
      status,
      hubspotId,
      JSON.stringify({ ville: "Lyon", nombre_de_participants: 80, deal_prestation_date: "2027-06-12" }),
    ],
  );
  await systemQuery(db, "insert into public.deal_contacts (deal_id) values ($1)", [row.id]);
  return row.id;
}

async function hubspotIdOf(db: Database, dealId: number): Promise<string | null> {
  const [row] = await systemQuery<{ id: string | null }>(
    db,
    "select hubspot_id as id from public.deals where id = $1",
    [
      dealId,
    ],
  );
  return row.id;
}

async function logsSince(db: Database, since: Date, service = "hubspot") {
  return await systemQuery<{ type: string; message: string }>(
    db,
    "select type, message from public.logs where service = $1 and created_at >= $2 order by id",
    [service, since],
  );
}

httpTest("HubSpot out: creation, coalesced changes, only what changed, and the accepted stage", async () => {
  const fake = startFakeHubSpot();
  try {
    const deps = await hubspotDeps(fake);
    const { db } = deps;
    await isolate(db);
    const queue = worker(fake);

    // A new deal is created in HubSpot with every synchronised property, and gets its HubSpot id.
    const id = await newDeal(db);
    assertEquals((await jobsOf(db, id)).map((j) => j.state), ["pending"], "queued by the insert");
    assertEquals(await drain(deps, queue), 1);
    const hubspotId = await hubspotIdOf(db, id);
    assert(hubspotId, "the deal has its HubSpot id");
    const created = fake.received.filter((r) => r.method === "POST");
    assertEquals(created.length, 1);
    assertEquals(created[0].authorization, `Bearer ${FAKE_HUBSPOT_TOKEN}`);
    assertEquals(created[0].properties.dealname, `Mariage – Test CRM ${counter}`);
    assertEquals(created[0].properties.dealstage, "appointmentscheduled");
    assertEquals(created[0].properties.pipeline, "default");
    assertEquals(created[0].properties.amount, "0.00");
    assertEquals(created[0].properties.ville, "Lyon");
    assertEquals(created[0].properties.nombre_de_participants, "80");
    assertEquals(await drain(deps, queue), 0, "saving the HubSpot id queued nothing");

    // Three changes by the admin (API, one transaction each) → one job → one push of the latest state.
    const admin = new Client({ app: await createApp(deps) });
    await admin.login(ADMIN);
    for (const ville of ["Paris", "Lille", "Nantes"]) {
      const res = await admin.patch(`/api/deal/${id}`, { properties: { ville } });
      assertEquals(res.status, 200, res.text);
    }
    assertEquals((await jobsOf(db, id)).filter((j) => j.state === "pending").length, 1, "coalesced");
    const before = fake.received.length;
    assertEquals(await drain(deps, queue), 1);
    const pushes = fake.received.slice(before).filter((r) => r.method === "PATCH");
    assertEquals(pushes.length, 1);
    assertEquals(pushes[0].dealId, hubspotId);
    assertEquals(pushes[0].properties, { ville: "Nantes" }, "only what changed, at its latest value");
    assertEquals(fake.deals.get(hubspotId!)!.ville, "Nantes");

    // 'Marquer devis accepté' moves the HubSpot deal to the won stage; the message says so.
    await systemQuery(db, "update public.deals set status = 'send' where id = $1", [id]);
    await drain(deps, queue);
    const accepted = await admin.post(`/api/deal/${id}/accept`);
    assertEquals(accepted.status, 200, accepted.text);
    assertEquals(
      accepted.json<{ message: string }>().message,
      "Le devis a été marqué comme accepté. La phase HubSpot a été mise à jour.",
    );
    assertEquals(await drain(deps, queue), 1);
    assertEquals(fake.deals.get(hubspotId!)!.dealstage, "closedwon");
    const last = fake.received.filter((r) => r.method === "PATCH").at(-1)!;
    assertEquals(last.properties, { dealstage: "closedwon" });
  } finally {
    await fake.close();
  }
});

httpTest("HubSpot out: 429 Retry-After and the 190 / 10 s budget wait without using attempts", async () => {
  const fake = startFakeHubSpot();
  try {
    const deps = await hubspotDeps(fake);
    const { db } = deps;
    await isolate(db);
    const since = new Date(Date.now() - 1000);
    fake.addDeal("5100000001", { dealname: "x" });
    const id = await newDeal(db, "5100000001");

    fake.rateLimit(1, "7");
    assertEquals(await drain(deps, worker(fake)), 1);
    let [job] = await jobsOf(db, id);
    assertEquals(job.state, "pending");
    assertEquals(job.attempts, 0, "a 429 gives the attempt back");
    assert(job.dueIn > 5 && job.dueIn <= 7.5, `due after Retry-After: ${job.dueIn}`);
    assert((await logsSince(db, since)).some((l) => l.type === "warning" && /429/.test(l.message)));

    // This instance's own budget: the third request in the window is not sent at all.
    await makeDue(db, [id]);
    const limited = worker(fake, { limit: 1, windowMs: 10_000 });
    const sent = fake.received.length;
    assertEquals(await limited.drain(deps), 1);
    assertEquals(fake.received.length, sent + 1, "the GET went out, the PATCH waited");
    [job] = await jobsOf(db, id);
    assertEquals([job.state, job.attempts], ["pending", 0]);
    assert(job.dueIn > 5 && job.dueIn <= 10.5, `due when the window frees: ${job.dueIn}`);

    await makeDue(db, [id]);
    assertEquals(await drain(deps, worker(fake)), 1);
    assertEquals((await jobsOf(db, id)).map((j) => j.state), ["done"]);
    assertEquals(fake.deals.get("5100000001")!.ville, "Lyon");
  } finally {
    await fake.close();
  }
});

httpTest("HubSpot out: across an outage no update is lost; a 404 fails the job and is logged", async () => {
  const fake = startFakeHubSpot();
  try {
    const deps = await hubspotDeps(fake);
    const { db } = deps;
    await isolate(db);
    const since = new Date(Date.now() - 1000);
    const queue = worker(fake);
    const ids = [];
    for (const n of [1, 2, 3]) {
      fake.addDeal(`520000000${n}`, { dealname: "avant" });
      ids.push(await newDeal(db, `520000000${n}`));
    }
    fake.down(true);
    assertEquals(await drain(deps, queue), 3);
    for (const id of ids) {
      const [job] = await jobsOf(db, id);
      assertEquals([job.state, job.attempts], ["pending", 1], "retried with backoff");
      assert(job.dueIn > 20, `backoff: ${job.dueIn}`);
    }
    // Changes made during the outage join the waiting jobs; a second failed round.
    for (const [i, id] of ids.entries()) {
      await systemQuery(
        db,
        "update public.deals set properties = properties || $2::text::jsonb where id = $1",
        [
          id,
          JSON.stringify({ ville: `Ville ${i}`, acces_a_l_eau: "oui" }),
        ],
      );
    }
    await makeDue(db, ids);
    await drain(deps, queue);
    const warnings = (await logsSince(db, since)).filter((l) => l.type === "warning");
    assert(warnings.length >= 6, `each failed attempt is logged as 'hubspot': ${warnings.length}`);

    fake.down(false);
    await makeDue(db, ids);
    assertEquals(await drain(deps, queue), 3);
    for (const [i, id] of ids.entries()) {
      const there = fake.deals.get(String(await hubspotIdOf(db, id)))!;
      assertEquals([there.ville, there.acces_a_l_eau, there.dealname], [
        `Ville ${i}`,
        "oui",
        `Mariage – Test CRM ${counter - 2 + i}`,
      ]);
      assertEquals((await jobsOf(db, id)).at(-1)!.state, "done");
    }

    // A deal HubSpot no longer has: failed at once, logged as an error of 'hubspot'.
    const gone = await newDeal(db, "5299999999");
    await drain(deps, queue);
    assertEquals((await jobsOf(db, gone)).map((j) => j.state), ["failed"]);
    assert((await logsSince(db, since)).some((l) => l.type === "error" && /abandonnée/.test(l.message)));
  } finally {
    await fake.close();
  }
});

httpTest("HubSpot out: two workers never push the same change twice", async () => {
  const fake = startFakeHubSpot({ delayMs: 15 });
  const url = Deno.env.get("TEST_DATABASE_URL");
  const second = url ? openPostgres(url, { max: 2 }) : undefined;
  try {
    const deps = await hubspotDeps(fake);
    const deps2 = await hubspotDeps(fake, second);
    await isolate(deps.db);
    const ids = [];
    for (let n = 0; n < 12; n++) {
      fake.addDeal(`53000000${String(n).padStart(2, "0")}`, { dealname: "avant" });
      ids.push(await newDeal(deps.db, `53000000${String(n).padStart(2, "0")}`));
    }
    const [a, b] = [worker(fake), worker(fake)];
    const [ran1, ran2] = await Promise.all([drain(deps, a), drain(deps2, b)]);
    assertEquals(ran1 + ran2, 12, `every job ran once (${ran1} + ${ran2})`);
    const patches = fake.received.filter((r) => r.method === "PATCH");
    const perDeal = new Map<string, number>();
    for (const p of patches) perDeal.set(p.dealId!, (perDeal.get(p.dealId!) ?? 0) + 1);
    assertEquals(perDeal.size, 12);
    assert([...perDeal.values()].every((n) => n === 1), "one push per deal");
  } finally {
    await second?.close();
    await fake.close();
  }
});

// ---------------------------------------------------------------------------------------------------
// Inbound.

/** HubSpot's v3 recipe, written from its documentation with node:crypto (independent of the app's
 * Web Crypto implementation): base64(HMAC-SHA256(secret, method + uri + body + timestamp)). */
function sign(secret: string, method: string, uri: string, body: string, timestamp: string): string {
  return createHmac("sha256", secret).update(method + uri + body + timestamp).digest("base64");
}

function webhook(
  app: Client,
  events: unknown[],
  options: { secret?: string; timestamp?: number; tamper?: boolean } = {},
) {
  const body = JSON.stringify(events);
  const timestamp = String(options.timestamp ?? Date.now());
  const signature = sign(options.secret ?? SECRET, "POST", `${ORIGIN}${WEBHOOK_PATH}`, body, timestamp);
  return app.request("POST", WEBHOOK_PATH, {
    body: options.tamper ? body.replace("deal.", "deal.x") : body,
    headers: {
      "content-type": "application/json",
      "x-hubspot-signature-v3": signature,
      "x-hubspot-request-timestamp": timestamp,
    },
  });
}

const event = (type: string, objectId: string, extra: Record<string, unknown> = {}) => ({
  eventId: Math.floor(Math.random() * 1e9),
  subscriptionId: 1,
  portalId: 62515,
  appId: 1160452,
  occurredAt: Date.now(),
  subscriptionType: type,
  attemptNumber: 0,
  objectId: Number(objectId),
  changeSource: "CRM_UI",
  ...extra,
});

httpTest("HubSpot in: the v3 signature (wrong secret, old timestamp, modified body → 401)", async () => {
  const fake = startFakeHubSpot();
  try {
    const deps = await hubspotDeps(fake);
    await isolate(deps.db);
    const app = new Client({ app: await createApp(deps) });
    const events = [event("deal.propertyChange", "5400000001", { propertyName: "ville" })];
    assertEquals((await webhook(app, events, { secret: "another-secret" })).status, 401);
    assertEquals((await webhook(app, events, { timestamp: Date.now() - 6 * 60_000 })).status, 401);
    assertEquals((await webhook(app, events, { timestamp: Date.now() + 6 * 60_000 })).status, 401);
    assertEquals((await webhook(app, events, { tamper: true })).status, 401);
    const unsigned = await app.request("POST", WEBHOOK_PATH, {
      body: JSON.stringify(events),
      headers: { "content-type": "application/json" },
    });
    assertEquals(unsigned.status, 401);
    assertEquals(unsigned.json<{ error: string }>().error, "Signature HubSpot invalide");
    const queued = await systemQuery(deps.db, "select 1 from outbox.jobs where key = 'hubspot-5400000001'");
    assertEquals(queued.length, 0, "nothing queued by a refused request");

    const ok = await webhook(app, events, { timestamp: Date.now() - 4 * 60_000 });
    assertEquals(ok.status, 200, ok.text);
    assertEquals(ok.json(), { received: 1, deals: 1 });
    const pending = await systemQuery(
      deps.db,
      "select payload from outbox.jobs where key = 'hubspot-5400000001' and state = 'pending'",
    );
    assertEquals(pending.map((r) => r.payload), [{ hubspotId: "5400000001" }]);
    await systemQuery(deps.db, "delete from outbox.jobs where key = 'hubspot-5400000001'");

    // Without HUBSPOT_CLIENT_SECRET the endpoint does not exist (the shared app has none).
    const off = await new Client().request("POST", WEBHOOK_PATH, { body: "[]" });
    assertEquals(off.status, 404);
  } finally {
    await fake.close();
  }
});

httpTest(
  "HubSpot in: a deal created then changed in HubSpot is imported and updated once, never echoed",
  async () => {
    const fake = startFakeHubSpot();
    try {
      const deps = await hubspotDeps(fake);
      const { db } = deps;
      await isolate(db);
      const app = new Client({ app: await createApp(deps) });
      const queue = worker(fake);
      const hubspotId = "5500000001";
      fake.addDeal(hubspotId, {
        dealname: "Anniversaire – Martin",
        dealstage: "appointmentscheduled",
        ville: "Bordeaux",
        nombre_de_participants: "60",
        deal_prestation_date: "2027-09-04",
        type_d_evenement: "Anniversaire",
        duree_2_service: "180",
      });
      // The creation event, delivered twice (HubSpot retries), plus an unrelated contact event.
      const creation = event("deal.creation", hubspotId);
      assertEquals((await webhook(app, [creation, event("contact.creation", "77")])).status, 200);
      assertEquals((await webhook(app, [creation])).status, 200);
      assertEquals(await drain(deps, queue), 1, "the repeats coalesced into one import");
      const deals = await systemQuery<
        {
          id: number;
          name: string;
          status: string;
          properties: Record<string, unknown>;
          guests: number;
          totalHt: number;
        }
      >(
        db,
        `select id, name, status, properties, guests, total_ht as "totalHt" from public.deals where hubspot_id = $1`,
        [hubspotId],
      );
      assertEquals(deals.length, 1);
      const [deal] = deals;
      assertEquals([deal.name, deal.status, deal.guests], ["Anniversaire – Martin", "start", 60]);
      assertEquals(deal.properties.ville, "Bordeaux");
      assertEquals(deal.properties.nombre_de_participants, 60);
      assert(deal.totalHt > 0, "priced with the default grid");
      assertEquals(fake.writes().length, 0, "nothing pushed back");

      // A replay after the import: nothing changes, nothing is pushed.
      assertEquals((await webhook(app, [creation])).status, 200);
      await drain(deps, queue);
      assertEquals(
        (await systemQuery(db, "select id from public.deals where hubspot_id = $1", [hubspotId])).length,
        1,
      );
      assertEquals(fake.writes().length, 0);

      // A change made in HubSpot updates ours, and is not echoed.
      fake.deals.get(hubspotId)!.ville = "Arcachon";
      fake.deals.get(hubspotId)!.dealname = "Anniversaire – Martin (60 ans)";
      fake.deals.get(hubspotId)!.dealstage = "qualifiedtobuy";
      assertEquals(
        (await webhook(app, [event("deal.propertyChange", hubspotId, { propertyName: "ville" })])).status,
        200,
      );
      assertEquals(await drain(deps, queue), 1);
      const [after] = await systemQuery<
        { name: string; status: string; properties: Record<string, unknown> }
      >(
        db,
        "select name, status, properties from public.deals where id = $1",
        [deal.id],
      );
      assertEquals(after.properties.ville, "Arcachon");
      assertEquals(after.name, "Anniversaire – Martin (60 ans)");
      assertEquals(after.status, "start", "HubSpot's stage does not drive our workflow");
      assertEquals(fake.writes().length, 0, "no push caused by the inbound update");
      assertEquals((await jobsOf(db, deal.id)).filter((j) => j.state === "pending").length, 0);

      // Our next change sends only itself (not HubSpot's values back).
      await systemQuery(
        db,
        'update public.deals set properties = properties || \'{"acces_a_l_eau": "non"}\' where id = $1',
        [
          deal.id,
        ],
      );
      assertEquals(await drain(deps, queue), 1);
      assertEquals(fake.writes().map((w) => w.properties), [{ acces_a_l_eau: "non" }]);
      assertEquals(fake.deals.get(hubspotId)!.dealstage, "qualifiedtobuy", "the salesperson's stage stays");
    } finally {
      await fake.close();
    }
  },
);

Deno.test({
  name: "HubSpot in: the Edge Function (handlerFromEnvironment) queues through the service role",
  // It connects on its own (postgres.js): PostgreSQL only.
  ignore: !Deno.env.get("TEST_DATABASE_URL"),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const { db } = await testEnv();
    await isolate(db);
    const functionUrl = "https://project.supabase.co/functions/v1/hubspot-webhook";
    const environment: Record<string, string> = {
      DATABASE_URL: Deno.env.get("TEST_DATABASE_URL")!,
      HUBSPOT_CLIENT_SECRET: SECRET,
      HUBSPOT_WEBHOOK_URL: functionUrl,
    };
    const edge = handlerFromEnvironment((name) => environment[name]);
    try {
      const body = JSON.stringify([event("deal.creation", "5600000001")]);
      const timestamp = String(Date.now());
      const request = (signature: string) =>
        new Request("http://127.0.0.1:54321/functions/v1/hubspot-webhook", {
          method: "POST",
          body,
          headers: { "x-hubspot-signature-v3": signature, "x-hubspot-request-timestamp": timestamp },
        });
      // HubSpot signs the address it was given (HUBSPOT_WEBHOOK_URL), not the runtime's internal one.
      const wrong = sign(
        SECRET,
        "POST",
        "http://127.0.0.1:54321/functions/v1/hubspot-webhook",
        body,
        timestamp,
      );
      assertEquals((await edge.handler(request(wrong))).status, 401);
      const response = await edge.handler(request(sign(SECRET, "POST", functionUrl, body, timestamp)));
      assertEquals(response.status, 200, await response.clone().text());
      const pending = await systemQuery(
        db,
        "select payload from outbox.jobs where key = 'hubspot-5600000001' and state = 'pending'",
      );
      assertEquals(pending.map((r) => r.payload), [{ hubspotId: "5600000001" }]);
      await systemQuery(db, "delete from outbox.jobs where key = 'hubspot-5600000001'");
    } finally {
      await edge.close();
    }
  },
});
