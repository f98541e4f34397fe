// Never seated twice, on two app instances sharing one PostgreSQL database (TEST_DATABASE_URL; skipped
// on PGlite, whose one connection runs everything in turn): the last place of a date, whose first
// buyer's hold expired, is paid for by that buyer on one instance while another customer checks it out
// and pays on the other — exactly one is seated, the other is refunded in full; one intent confirmed
// at once on both instances is recorded once, with one invoice and one receipt; two intents of one
// cart paid and confirmed together leave one payment counted.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, ORIGIN, registrationPayload, TEST_LIMITS, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { loadConfig } from "../../lib/config.ts";
import { openPostgres } from "../../lib/db/postgres.ts";
import { createLogger } from "../../lib/log/logger.ts";
import { createBackground, type Deps } from "../../lib/deps.ts";
import { memoryStorage } from "../../lib/storage/storage.ts";
import { simulatedProvider } from "../../lib/payments/simulated.ts";
import { TEST_CARDS } from "../../lib/payments/simulated.ts";
import { createApp } from "../../routes/_app.tsx";
import type { Database } from "../../lib/db/database.ts";
import type { Hono } from "hono";
import type { AppEnv } from "../../lib/http/context.ts";

const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL");

function concurrencyTest(name: string, fn: () => Promise<void>) {
  Deno.test({
    name: `checkout, two instances: ${name}`,
    ignore: !TEST_DATABASE_URL,
    fn,
    sanitizeOps: false,
    sanitizeResources: false,
  });
}

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

let second: Promise<{ app: Hono<AppEnv>; db: Database }> | null = null;
function secondInstance() {
  second ??= (async () => {
    const db = openPostgres(TEST_DATABASE_URL!, { max: 4 });
    const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: ORIGIN, ...TEST_LIMITS })[name]);
    const logger = createLogger(db, { quiet: true });
    const deps: Deps = {
      config,
      db,
      logger,
      background: createBackground(logger, { manual: true }),
      storage: memoryStorage(),
      payments: simulatedProvider(db),
    };
    return { app: await createApp(deps), db };
  })();
  return second;
}

let n = 0;
/** A new customer signed in on `app`; its session works on both instances (one database). */
async function customer(
  app: Hono<AppEnv>,
): Promise<{ client: Client; id: string; on: (app: Hono<AppEnv>) => Client }> {
  const client = new Client({ app, ip: `10.91.${Math.floor(++n / 250)}.${n % 250}` });
  const payload = registrationPayload();
  const res = await client.post("/api/security/registration", payload);
  assertEquals(res.status, 200, res.text);
  const { db } = await testEnv();
  const [user] = await systemQuery<{ id: string }>(db, "select id::text from public.users where email = $1", [
    payload.email,
  ]);
  return {
    client,
    id: user.id,
    on: (other) => {
      const twin = new Client({ app: other, ip: client.options.ip });
      twin.cookies = client.cookies;
      return twin;
    },
  };
}

async function lastPlaceDate(): Promise<{ slug: string; uuid: string; sessionId: number; dtstart: number }> {
  const { db } = await testEnv();
  const slug = `derniere-place-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 6)}`;
  const [session] = await systemQuery<{ id: number }>(
    db,
    "insert into public.workshop_sessions (slug, title, city) values ($1, 'Dernière place', 'Paris') returning id",
    [slug],
  );
  const [date] = await systemQuery<{ uuid: string; dtstart: number }>(
    db,
    `insert into public.session_dates (session_id, dtstart, places, places_left, price_ttc)
     values ($1, date_trunc('minute', now()) + interval '5 days', 1, 1, 4500)
     returning uuid::text as uuid, extract(epoch from dtstart)::bigint as dtstart`,
    [session.id],
  );
  return { slug, uuid: date.uuid, sessionId: session.id, dtstart: Number(date.dtstart) };
}

const add = (c: Client, d: { slug: string; uuid: string; sessionId: number; dtstart: number }) =>
  c.post(`/session/${d.slug}/date/${d.uuid}`, { session: d.sessionId, timestamp: d.dtstart, quantity: 1 });
const card = (c: Client, id: string) =>
  c.post("/api/payment/simulated/confirm", { paymentIntentId: id, cardNumber: TEST_CARDS.succeeds });
const confirm = (c: Client, id: string) => c.post("/api/payment/confirm", { paymentIntentId: id });

concurrencyTest(
  "the last place after an expired hold: exactly one buyer is seated, every round",
  async () => {
    const { app, db } = await testEnv();
    const other = await secondInstance();
    for (let round = 1; round <= 4; round++) {
      const date = await lastPlaceDate();
      const a = await customer(app);
      const b = await customer(other.app);
      assertEquals((await add(a.client, date)).status, 200);
      const intentA = (await a.client.post("/api/cart/checkout", {})).json<Json>().paymentIntentId;
      assertEquals((await card(a.client, intentA)).status, 200, "A's card is taken at the provider");
      // A's hold expires before A's payment is recorded; B takes the freed place and pays.
      await systemQuery(
        db,
        "update public.cart_lines set expires_at = now() - interval '1 second' where date_id = (select id from public.session_dates where uuid = $1)",
        [date.uuid],
      );
      assertEquals((await add(b.client, date)).status, 200, "the expired hold's place is free again");
      const intentB = (await b.client.post("/api/cart/checkout", {})).json<Json>().paymentIntentId;
      assertEquals((await card(b.client, intentB)).status, 200);
      // Both payments reported at once, on both instances, twice each (confirm, and a second report).
      const answers = await Promise.all([
        confirm(round % 2 ? a.client : a.on(other.app), intentA),
        confirm(round % 2 ? b.on(app) : b.client, intentB),
        confirm(a.on(other.app), intentA),
        confirm(b.on(app), intentB),
      ]);
      for (const r of answers) assertEquals(r.status, 200, r.text);
      const seated = await systemQuery<{ user_id: string; n: number }>(
        db,
        `select g.user_id::text, sum(g.quantity)::int as n from public.registrations g
       where g.date_id = (select id from public.session_dates where uuid = $1) and g.status = 'invoiced'
       group by g.user_id`,
        [date.uuid],
      );
      assertEquals(seated.length, 1, `round ${round}: exactly one buyer seated (${JSON.stringify(seated)})`);
      assertEquals(seated[0].n, 1);
      const [left] = await systemQuery<{ n: number }>(
        db,
        "select places_left as n from public.session_dates where uuid = $1",
        [date.uuid],
      );
      assertEquals(left.n, 0);
      const payments = await systemQuery<{ overpayment: boolean; refunds: number }>(
        db,
        `select p.overpayment, (select count(*)::int from public.refunds r where r.payment_id = p.id) as refunds
       from public.deal_payments p where p.provider_payment_id in ($1, $2) order by p.overpayment`,
        [intentA, intentB],
      );
      assertEquals(
        payments.map((p) => ({ ...p })),
        [{ overpayment: false, refunds: 0 }, { overpayment: true, refunds: 1 }],
        `round ${round}: one payment kept, the other recorded once and refunded once`,
      );
    }
  },
);

concurrencyTest(
  "one intent confirmed at once on both instances: one payment, one invoice, one receipt",
  async () => {
    const { app, db } = await testEnv();
    const other = await secondInstance();
    const date = await lastPlaceDate();
    const a = await customer(app);
    assertEquals((await add(a.client, date)).status, 200);
    const intent = (await a.client.post("/api/cart/checkout", {})).json<Json>().paymentIntentId;
    assertEquals((await card(a.client, intent)).status, 200);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => confirm(i % 2 ? a.client : a.on(other.app), intent)),
    );
    assert(answers.every((r) => r.status === 200 && r.json<Json>().paymentStatus === "succeeded"));
    const [counts] = await systemQuery<{ payments: number; fa: number; re: number; mails: number }>(
      db,
      `select (select count(*)::int from public.deal_payments where provider_payment_id = $1) as payments,
       (select count(*)::int from public.invoices i join public.deal_payments p on p.id = i.payment_id
        where p.provider_payment_id = $1 and i.series = 'FA') as fa,
       (select count(*)::int from public.invoices i join public.deal_payments p on p.id = i.payment_id
        where p.provider_payment_id = $1 and i.series = 'RE') as re,
       (select count(*)::int from public.email_outbox e where e.template = 'registration-confirmation'
        and e.recipient = (select email from public.users where id = $2)) as mails`,
      [intent, a.id],
    );
    assertEquals({ ...counts }, { payments: 1, fa: 1, re: 1, mails: 1 });
  },
);
