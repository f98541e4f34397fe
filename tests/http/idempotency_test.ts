// Retries that don't double (issue "Production, part 1" §5): the POSTs that create something accept an
// Idempotency-Key. The same key from the same caller answers the first response again and creates
// nothing — twice in a row, five at once, on two app instances sharing one PostgreSQL — while another
// caller's same key, another body (422), a bad key (422) and a key older than 24 hours do not replay.
// One test per creating POST (quote request API and HTML form, registration, add to cart, checkout,
// voucher purchase, manual payment, chat message), and the crash windows: a key whose holder died
// before creating is taken over, a holder whose key was taken over cannot commit its creation, a
// creation whose answer was lost is never made twice.
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { Client, httpTest, ORIGIN, registrationPayload, testEnv, type TestResponse } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { IDEMPOTENCY_MESSAGES, REPLAYED_HEADER } from "../../lib/idempotency/rules.ts";
import { reserveKey } from "../../lib/idempotency/store.ts";
import { withReservation } from "../../lib/idempotency/context.ts";
import { postMessage } from "../../lib/chat/use_cases/post_message.ts";
import { AppError } from "../../lib/errors.ts";
import { JOBS } from "../../lib/jobs/registry.ts";
import { loadConfig } from "../../lib/config.ts";
import { openPostgres } from "../../lib/db/postgres.ts";
import { createLogger } from "../../lib/log/logger.ts";
import { createBackground, type Deps } from "../../lib/deps.ts";
import { memoryStorage } from "../../lib/storage/storage.ts";
import { simulatedProvider } from "../../lib/payments/simulated.ts";
import { createApp } from "../../routes/_app.tsx";
import type { Hono } from "hono";
import type { AppEnv } from "../../lib/http/context.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL");

let ips = 0;
const freshIp = () => `10.94.${(++ips >> 8) & 255}.${(ips & 255) || 1}`;
let emails = 0;
const uniqueEmail = () => `idem.${Date.now().toString(36)}.${++emails}@example.fr`;
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

function quote(email = uniqueEmail()): Json {
  return {
    type_d_evenement: "Anniversaire",
    deal_prestation_date: inDays(90),
    horaire_souhaite: "19:30",
    nombre_de_participants: 60,
    duree_2_service: 180,
    ville: "Lyon",
    adresse_precise: "3 place Bellecour, 69002 Lyon",
    distance_en_km: 10,
    bar_mobile: true,
    type_de_recette: "classic",
    creation_de_recette: false,
    description: "Test d'idempotence.",
    firstname: "Inès",
    lastname: "Martin",
    email,
    phone: "06 12 34 56 78",
    consent: true,
  };
}

function send(client: Client, path: string, body: unknown, key?: string): Promise<TestResponse> {
  return client.request("POST", path, { json: body, headers: key ? { "Idempotency-Key": key } : {} });
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ n: number }>(db, `select count(*)::int as n from (${sql}) x`, params);
  return Number(row.n);
}

const dealsFor = (email: string) => count("select 1 from public.deal_contacts where email = $1", [email]);

async function userId(email: string): Promise<string> {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ id: string }>(db, "select id::text from public.users where email = $1", [
    email,
  ]);
  return row.id;
}

async function signedIn(email: string, app?: Hono<AppEnv>): Promise<Client> {
  const client = new Client({ ip: freshIp(), ...(app ? { app } : {}) });
  await client.login(email);
  return client;
}

/** A new customer account, signed in. */
async function newCustomer(): Promise<{ client: Client; id: string }> {
  const client = new Client({ ip: freshIp() });
  const payload = registrationPayload();
  assertEquals((await client.post("/api/security/registration", payload)).status, 200);
  return { client, id: await userId(payload.email) };
}

async function ageKey(key: string, hours: number) {
  const { db } = await testEnv();
  await systemQuery(
    db,
    "update public.idempotency_keys set created_at = now() - make_interval(hours => $2) where key = $1",
    [
      key,
      hours,
    ],
  );
}

// ---------------------------------------------------------------------------------------------------
// The quote request: the rules, on the public API.

httpTest("idempotency: the same key twice answers the first response and makes one deal", async () => {
  const client = new Client({ ip: freshIp() });
  const body = quote();
  const key = crypto.randomUUID();
  const first = await send(client, "/api/deal/request", body, key);
  assertEquals(first.status, 200, first.text);
  assertEquals(first.headers.get(REPLAYED_HEADER), null);
  const again = await send(client, "/api/deal/request", body, key);
  assertEquals(again.status, 200, again.text);
  assertEquals(again.text, first.text, "the same body");
  assertEquals(again.headers.get(REPLAYED_HEADER), "true");
  assertMatch(again.contentType, /application\/json/);
  assertEquals(
    again.headers.get("cache-control"),
    first.headers.get("cache-control"),
    "the app's headers too",
  );
  assertEquals(await dealsFor(body.email), 1);
  // Without a key, nothing changes: each request is its own.
  assertEquals((await send(client, "/api/deal/request", body)).status, 200);
  assertEquals(await dealsFor(body.email), 2);
});

httpTest("idempotency: five requests at once with one key make exactly one deal", async () => {
  const client = new Client({ ip: freshIp() });
  const body = quote();
  const key = crypto.randomUUID();
  const answers = await Promise.all([1, 2, 3, 4, 5].map(() => send(client, "/api/deal/request", body, key)));
  const ok = answers.filter((a) => a.status === 200);
  const busy = answers.filter((a) => a.status === 409);
  assertEquals(ok.length + busy.length, 5, answers.map((a) => `${a.status} ${a.text}`).join("\n"));
  assert(ok.length >= 1);
  for (const a of ok) assertEquals(a.text, ok[0].text);
  for (const a of busy) assertEquals(a.json().message, IDEMPOTENCY_MESSAGES.inProgress);
  assertEquals(await dealsFor(body.email), 1);
  // Once the first is done, the retry is answered.
  const retry = await send(client, "/api/deal/request", body, key);
  assertEquals([retry.status, retry.text], [200, ok[0].text]);
  assertEquals(await dealsFor(body.email), 1);
});

httpTest("idempotency: another caller's same key is its own; a signed-in user's key is theirs", async () => {
  const body = quote();
  const key = crypto.randomUUID();
  assertEquals((await send(new Client({ ip: freshIp() }), "/api/deal/request", body, key)).status, 200);
  assertEquals((await send(new Client({ ip: freshIp() }), "/api/deal/request", body, key)).status, 200);
  assertEquals(await dealsFor(body.email), 2, "two visitors from two addresses: two deals");
  const customer = await signedIn("client@example.fr");
  const fromUser = await send(customer, "/api/deal/request", body, key);
  assertEquals(fromUser.headers.get(REPLAYED_HEADER), null);
  assertEquals(await dealsFor(body.email), 3, "a signed-in user is another caller");
  // The same user from another address is the same caller.
  const elsewhere = await signedIn("client@example.fr");
  const replayed = await send(elsewhere, "/api/deal/request", body, key);
  assertEquals([replayed.status, replayed.headers.get(REPLAYED_HEADER)], [200, "true"]);
  assertEquals(await dealsFor(body.email), 3);
});

httpTest("idempotency: the same key with another body is refused (422), a bad key too", async () => {
  const client = new Client({ ip: freshIp() });
  const key = crypto.randomUUID();
  const body = quote();
  assertEquals((await send(client, "/api/deal/request", body, key)).status, 200);
  const other = await send(client, "/api/deal/request", { ...body, nombre_de_participants: 61 }, key);
  assertEquals([other.status, other.json().message], [422, IDEMPOTENCY_MESSAGES.otherRequest]);
  // Another path with the same key is another request too.
  const elsewhere = await send(client, "/api/chat/messages", body, key);
  assertEquals(elsewhere.status, 401, "the chat's guard answers first");
  for (const bad of ["x".repeat(256), "clé-é", "a\tb"]) {
    const res = await client.request("POST", "/api/deal/request", {
      json: quote(),
      headers: { "Idempotency-Key": bad },
    });
    assertEquals([res.status, res.json().message], [422, IDEMPOTENCY_MESSAGES.invalidKey], bad);
  }
  const longest = await send(client, "/api/deal/request", quote(), "k".repeat(255));
  assertEquals(longest.status, 200, "255 characters are allowed");
  assertEquals(await dealsFor(body.email), 1);
});

httpTest(
  "idempotency: a refused request leaves the key free; a key older than 24 h is not honoured",
  async () => {
    const client = new Client({ ip: freshIp() });
    const key = crypto.randomUUID();
    const body = quote();
    const refused = await send(client, "/api/deal/request", { ...body, phone: "12" }, key);
    assertEquals(refused.status, 422, refused.text);
    // Nothing was created: the corrected request runs, with the same key.
    assertEquals((await send(client, "/api/deal/request", body, key)).status, 200);
    assertEquals(await dealsFor(body.email), 1);
    await ageKey(key, 23);
    assertEquals((await send(client, "/api/deal/request", body, key)).headers.get(REPLAYED_HEADER), "true");
    assertEquals(await dealsFor(body.email), 1, "23 hours later: still answered again");
    await ageKey(key, 25);
    const later = await send(client, "/api/deal/request", body, key);
    assertEquals([later.status, later.headers.get(REPLAYED_HEADER)], [200, null]);
    assertEquals(await dealsFor(body.email), 2, "25 hours later: a new request");
  },
);

httpTest("idempotency: the purge job deletes keys older than 24 hours", async () => {
  const client = new Client({ ip: freshIp() });
  const old = crypto.randomUUID();
  const recent = crypto.randomUUID();
  assertEquals((await send(client, "/api/deal/request", quote(), old)).status, 200);
  assertEquals((await send(client, "/api/deal/request", quote(), recent)).status, 200);
  await ageKey(old, 25);
  const job = JOBS.find((j) => j.name === "purge-idempotency-keys");
  assert(job?.sql, "the job is in the registry");
  const { db } = await testEnv();
  await systemQuery(db, job.sql);
  assertEquals(await count("select 1 from public.idempotency_keys where key = $1", [old]), 0);
  assertEquals(await count("select 1 from public.idempotency_keys where key = $1", [recent]), 1);
});

// ---------------------------------------------------------------------------------------------------
// The crash windows.

httpTest("idempotency: a key whose holder died before creating is taken over after its lease", async () => {
  const client = new Client({ ip: freshIp() });
  const key = crypto.randomUUID();
  const body = quote();
  // A first request reserved the key, then its process died (a lapsed lease, nothing committed).
  const first = await send(client, "/api/deal/request", body, key);
  assertEquals(first.status, 200);
  const { db } = await testEnv();
  await systemQuery(
    db,
    `update public.idempotency_keys set state = 'pending', response_status = null, response_headers = null,
       response_body = null, completed_at = null, locked_until = now() + interval '1 minute' where key = $1`,
    [key],
  );
  await systemQuery(db, "delete from public.deal_contacts where email = $1", [body.email]);
  const busy = await send(client, "/api/deal/request", body, key);
  assertEquals(
    [busy.status, busy.json().message],
    [409, IDEMPOTENCY_MESSAGES.inProgress],
    "lease still live",
  );
  await systemQuery(
    db,
    "update public.idempotency_keys set locked_until = now() - interval '1 second' where key = $1",
    [
      key,
    ],
  );
  const retry = await send(client, "/api/deal/request", body, key);
  assertEquals([retry.status, retry.headers.get(REPLAYED_HEADER)], [200, null], retry.text);
  assertEquals(await dealsFor(body.email), 1);
});

httpTest("idempotency: a creation committed whose answer was lost is never made again", async () => {
  const client = new Client({ ip: freshIp() });
  const key = crypto.randomUUID();
  const body = quote();
  assertEquals((await send(client, "/api/deal/request", body, key)).status, 200);
  // The process died after the deal's commit, before the answer was stored.
  const { db } = await testEnv();
  await systemQuery(
    db,
    `update public.idempotency_keys set state = 'committed', response_status = null, response_headers = null,
       response_body = null, completed_at = null, locked_until = now() - interval '1 second' where key = $1`,
    [key],
  );
  const retry = await send(client, "/api/deal/request", body, key);
  assertEquals([retry.status, retry.json().message], [409, IDEMPOTENCY_MESSAGES.answerLost]);
  assertEquals(await dealsFor(body.email), 1);
});

httpTest("idempotency: a request whose key was taken over cannot commit its creation", async () => {
  const { db, deps } = await testEnv();
  const author = await signedIn("client@example.fr");
  const [deal] = await systemQuery<{ id: number }>(
    db,
    `insert into public.deals (name, status, customer_id, company_id, totals)
     values ('Idempotence', 'send', $1, (select id from public.users where email = 'partenaire@example.fr'),
             '{"totalTTC": 100000}') returning id`,
    [await userId("client@example.fr")],
  );
  const ref = { scope: `user:${await userId("client@example.fr")}`, key: crypto.randomUUID() };
  const slow = crypto.randomUUID();
  assert(await reserveKey(db, ref, "POST /api/chat/messages x", slow));
  // Its lease lapses; a retry takes the key over.
  await systemQuery(
    db,
    "update public.idempotency_keys set locked_until = now() - interval '1 second' where key = $1",
    [
      ref.key,
    ],
  );
  assert(await reserveKey(db, ref, "POST /api/chat/messages x", crypto.randomUUID()));
  // The slow request now reaches its creation: refused, rolled back.
  const { resolveSession } = await import("../../lib/auth/actions.ts");
  const actor = await resolveSession(deps, author.cookies.get("session"));
  let refused: unknown = null;
  try {
    await withReservation(
      { ...ref, token: slow, finished: false },
      () => postMessage(deps, actor, { dealId: deal.id, text: "Message du retardataire" }),
    );
  } catch (error) {
    refused = error;
  }
  assert(refused instanceof AppError && refused.status === 409, String(refused));
  assertEquals(await count("select 1 from public.chat_messages where deal_id = $1", [deal.id]), 0);
});

// ---------------------------------------------------------------------------------------------------
// One test per creating POST.

httpTest(
  "idempotency: the quote request form without JavaScript carries a key and is answered once",
  async () => {
    const client = new Client({ ip: freshIp() });
    const page = await client.get("/demande-de-devis");
    const hidden = /name="idempotency_key" value="([0-9a-f-]{36})"/.exec(page.text);
    assert(hidden, "the form has a hidden key");
    const form: Record<string, string> = {};
    for (const [k, v] of Object.entries(quote())) form[k] = String(v);
    form.idempotency_key = hidden[1];
    const first = await client.request("POST", "/demande-de-devis", { form });
    assertEquals(first.status, 200);
    const again = await client.request("POST", "/demande-de-devis", { form });
    assertEquals([again.status, again.headers.get(REPLAYED_HEADER)], [200, "true"]);
    assertMatch(again.contentType, /text\/html/);
    assertEquals(again.text, first.text);
    assertEquals(await dealsFor(form.email), 1);
    // Each rendering of the form has its own key.
    const other = /name="idempotency_key" value="([0-9a-f-]{36})"/.exec(
      (await client.get("/demande-de-devis")).text,
    );
    assert(other && other[1] !== hidden[1]);
  },
);

httpTest("idempotency: registration", async () => {
  const client = new Client({ ip: freshIp() });
  const payload = registrationPayload();
  const key = crypto.randomUUID();
  const first = await send(client, "/api/security/registration", payload, key);
  assertEquals(first.status, 200, first.text);
  // The answer was lost: the retry comes without the session cookie, from the same address.
  const retry = await send(new Client({ ip: client.options.ip }), "/api/security/registration", payload, key);
  assertEquals([retry.status, retry.headers.get(REPLAYED_HEADER)], [200, "true"], retry.text);
  assertEquals(retry.text, first.text);
  assert(
    !retry.headers.getSetCookie().some((c) => c.startsWith("session=")),
    "a session token is never stored nor replayed",
  );
  assertEquals(await count("select 1 from public.users where email = $1", [payload.email]), 1);
});

async function openDate(places = 10) {
  const { db } = await testEnv();
  const slug = `idem-atelier-${Date.now().toString(36)}-${++ips}`;
  const [session] = await systemQuery<{ id: number }>(
    db,
    `insert into public.workshop_sessions (slug, title, city, published) values ($1, 'Atelier idem', 'Nantes', true)
     returning id`,
    [slug],
  );
  const [date] = await systemQuery<{ uuid: string; dtstart: number }>(
    db,
    `insert into public.session_dates (session_id, dtstart, places, places_left, price_ttc, travel_cost_ttc,
       additional_costs, soon, state)
     values ($1, date_trunc('minute', now()) + interval '20 days', $2, $2, 4000, 500, '[]', false, 'open')
     returning uuid::text as uuid, floor(extract(epoch from dtstart))::bigint as dtstart`,
    [session.id, places],
  );
  return {
    path: `/session/${slug}/date/${date.uuid}`,
    uuid: date.uuid,
    body: { session: session.id, timestamp: Number(date.dtstart), quantity: 2 },
  };
}

const placesLeft = (uuid: string) =>
  count("select generate_series(1, places_left) from public.session_dates where uuid = $1::uuid", [uuid]);

httpTest("idempotency: adding places to the cart (a visitor, the cart cookie answered again)", async () => {
  const date = await openDate();
  const visitor = new Client({ ip: freshIp() });
  const key = crypto.randomUUID();
  const first = await send(visitor, date.path, date.body, key);
  assertEquals(first.status, 200, first.text);
  const cart = first.headers.getSetCookie().find((c) => c.startsWith("cart="));
  assert(cart, "the first answer sets the cart cookie");
  // The answer was lost: the retry has no cookie yet.
  const retry = await send(new Client({ ip: visitor.options.ip }), date.path, date.body, key);
  assertEquals([retry.status, retry.text], [200, first.text]);
  assertEquals(retry.headers.getSetCookie().find((c) => c.startsWith("cart=")), cart, "the same cart");
  assertEquals(await placesLeft(date.uuid), 8, "two places held, once");
});

httpTest("idempotency: checkout", async () => {
  const date = await openDate();
  const { client, id } = await newCustomer();
  assertEquals((await send(client, date.path, date.body, crypto.randomUUID())).status, 200);
  const key = crypto.randomUUID();
  const [a, b] = await Promise.all([
    send(client, "/api/cart/checkout", {}, key),
    send(client, "/api/cart/checkout", {}, key),
  ]);
  const ok = [a, b].find((r) => r.status === 200)!;
  assert(ok, `${a.status} ${a.text} / ${b.status} ${b.text}`);
  const retry = await send(client, "/api/cart/checkout", {}, key);
  assertEquals([retry.status, retry.text], [200, ok.text]);
  assertEquals(
    await count("select 1 from public.orders where user_id = $1::uuid and kind = 'cart'", [id]),
    1,
  );
  assertEquals(await count("select 1 from public.payment_intents where customer_id = $1::uuid", [id]), 1);
});

httpTest("idempotency: voucher purchase", async () => {
  const { client, id } = await newCustomer();
  const body = {
    recipientName: "Camille Martin",
    recipientEmail: "camille.martin@example.fr",
    sendOn: inDays(0),
    message: "Joyeux anniversaire !",
  };
  const key = crypto.randomUUID();
  const first = await send(client, "/api/customer/discounts", body, key);
  assertEquals(first.status, 200, first.text);
  const retry = await send(client, "/api/customer/discounts", body, key);
  assertEquals([retry.status, retry.text], [200, first.text]);
  assertEquals(await count("select 1 from public.vouchers where buyer_id = $1::uuid", [id]), 1);
  // A new submission (a new key) is a second voucher.
  assertEquals((await send(client, "/api/customer/discounts", body, crypto.randomUUID())).status, 200);
  assertEquals(await count("select 1 from public.vouchers where buyer_id = $1::uuid", [id]), 2);
});

httpTest("idempotency: manual payment", async () => {
  const { db } = await testEnv();
  const admin = await signedIn("admin@example.fr");
  const [deal] = await systemQuery<{ id: number }>(
    db,
    `insert into public.deals (name, status, customer_id, company_id, totals)
     values ('Idempotence paiement', 'send', $1, (select id from public.users where email = 'partenaire@example.fr'),
             '{"totalTTC": 100000}') returning id`,
    [await userId("client@example.fr")],
  );
  const key = crypto.randomUUID();
  const body = { kind: "deposit", amount: 300 };
  const first = await send(admin, `/api/deal/${deal.id}/payments`, body, key);
  assertEquals(first.status, 200, first.text);
  const retry = await send(admin, `/api/deal/${deal.id}/payments`, body, key);
  assertEquals([retry.status, retry.text], [200, first.text]);
  assertEquals(await count("select 1 from public.deal_payments where deal_id = $1", [deal.id]), 1);
});

httpTest("idempotency: chat message", async () => {
  const { db } = await testEnv();
  const customer = await signedIn("client@example.fr");
  const [deal] = await systemQuery<{ id: number }>(
    db,
    `insert into public.deals (name, status, customer_id, company_id, totals)
     values ('Idempotence chat', 'send', $1, (select id from public.users where email = 'partenaire@example.fr'),
             '{"totalTTC": 100000}') returning id`,
    [await userId("client@example.fr")],
  );
  const key = crypto.randomUUID();
  const body = { entityId: deal.id, entityType: "DealCompany", type: "message", text: "Bonjour !" };
  const answers = await Promise.all([1, 2, 3].map(() => send(customer, "/api/chat/messages", body, key)));
  assert(answers.some((a) => a.status === 200), answers.map((a) => a.text).join("\n"));
  assertEquals(answers.filter((a) => a.status !== 200 && a.status !== 409).length, 0);
  const retry = await send(customer, "/api/chat/messages", body, key);
  assertEquals(retry.status, 200);
  assertEquals(await count("select 1 from public.chat_messages where deal_id = $1", [deal.id]), 1);
  // The partner's same key is theirs.
  const partner = await signedIn("partenaire@example.fr");
  await systemQuery(
    db,
    "update public.deals set admin_settings = '{\"showChatForPartner\": true}' where id = $1",
    [deal.id],
  );
  assertEquals((await send(partner, "/api/chat/messages", body, key)).status, 200);
  assertEquals(await count("select 1 from public.chat_messages where deal_id = $1", [deal.id]), 2);
});

// ---------------------------------------------------------------------------------------------------
// Two app instances sharing one PostgreSQL database (skipped on PGlite).

let second: Promise<Hono<AppEnv>> | null = null;
function secondInstance() {
  second ??= (async () => {
    const db = openPostgres(TEST_DATABASE_URL!, { max: 4 });
    const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: ORIGIN })[name]);
    const logger = createLogger(db, { quiet: true });
    const deps: Deps = {
      config,
      db,
      logger,
      background: createBackground(logger, { manual: true }),
      storage: memoryStorage(),
      payments: simulatedProvider(db),
    };
    return await createApp(deps);
  })();
  return second;
}

Deno.test({
  name: "idempotency, two instances: one key sent to both at once makes one deal, one message",
  ignore: !TEST_DATABASE_URL,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const { app } = await testEnv();
    const other = await secondInstance();
    const ip = freshIp();
    for (let round = 0; round < 5; round++) {
      const body = quote();
      const key = crypto.randomUUID();
      const answers = await Promise.all(
        [app, other, app, other].map((target) =>
          send(new Client({ ip, app: target }), "/api/deal/request", body, key)
        ),
      );
      assertEquals(answers.filter((a) => a.status !== 200 && a.status !== 409).length, 0);
      assertEquals(await dealsFor(body.email), 1, `round ${round}`);
    }
    const author = await signedIn("client@example.fr");
    const twin = new Client({ ip: author.options.ip, app: other });
    twin.cookies = author.cookies;
    const { db } = await testEnv();
    const [deal] = await systemQuery<{ id: number }>(
      db,
      `insert into public.deals (name, status, customer_id, company_id, totals)
       values ('Idempotence 2 instances', 'send', $1, (select id from public.users where email = 'partenaire@example.fr'),
               '{"totalTTC": 100000}') returning id`,
      [await userId("client@example.fr")],
    );
    const body = { entityId: deal.id, entityType: "DealCompany", type: "message", text: "Deux instances" };
    const key = crypto.randomUUID();
    await Promise.all([author, twin, author, twin].map((c) => send(c, "/api/chat/messages", body, key)));
    const retry = await send(twin, "/api/chat/messages", body, key);
    assertEquals([retry.status, retry.headers.get(REPLAYED_HEADER)], [200, "true"]);
    assertEquals(await count("select 1 from public.chat_messages where deal_id = $1", [deal.id]), 1);
  },
});
