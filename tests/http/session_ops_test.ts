// Workshop operations over HTTP, PGlite and PostgreSQL (issue 12): the waiting list from every way a
// place frees up (hold expired, line removed, capacity raised, date reopened) and in every order (the
// first subscriber first, the next one when the offer expires, nobody twice, nothing once the date has
// passed), the offer's signed single-use link; closing and canceling a date (bookers told, holds
// released, alerts stopped, idempotent); the attendees as JSON, CSV and sign-in sheet, refused to
// anonymous visitors, customers and partners; holds capped at twice the hold time; the header's cart link.
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import {
  bookingFields,
  Client,
  httpTest,
  ORIGIN,
  registrationPayload,
  TEST_LIMITS,
  testEnv,
} from "../support/app.ts";
import { loadConfig } from "../../lib/config.ts";
import { openPostgres } from "../../lib/db/postgres.ts";
import { createLogger } from "../../lib/log/logger.ts";
import { createBackground, type Deps } from "../../lib/deps.ts";
import { memoryStorage } from "../../lib/storage/storage.ts";
import { createApp } from "../../routes/_app.tsx";
import type { Database } from "../../lib/db/database.ts";
import { TEST_CARDS } from "../../lib/payments/simulated.ts";
import { systemQuery } from "../support/db.ts";
import { JOBS } from "../../lib/jobs/registry.ts";
import { statementAs, systemActor } from "../../lib/actor.ts";
import { outboxQueue } from "../../lib/outbox/worker.ts";
import { dateCanceledMailHandler, seatOfferMailHandler } from "../../lib/sessions/waiting_list.ts";
import { SENT_BODY_COLUMNS, sentText } from "../support/mail.ts";

const ADMIN = "admin@example.fr";
const PARTNER = "partenaire@example.fr";
const CUSTOMER = "client@example.fr";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

let counter = 0;
async function makeDate(places: number, options: { inDays?: number; state?: string } = {}) {
  const { db } = await testEnv();
  const slug = `ops-atelier-${Date.now().toString(36)}-${++counter}`;
  const [session] = await systemQuery<{ id: number }>(
    db,
    "insert into public.workshop_sessions (slug, title, city) values ($1, 'Atelier ops', 'Lille') returning id",
    [slug],
  );
  const [date] = await systemQuery<{ uuid: string; id: number }>(
    db,
    `insert into public.session_dates (session_id, dtstart, places, places_left, price_ttc, state)
     values ($1, date_trunc('minute', now()) + make_interval(days => $2), $3, $3, 4500, $4)
     returning uuid::text as uuid, id`,
    [session.id, options.inDays ?? 5, places, options.state ?? "open"],
  );
  return { slug, uuid: date.uuid, id: date.id };
}

async function placesLeft(uuid: string): Promise<number> {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ n: number }>(
    db,
    "select places_left as n from public.session_dates where uuid = $1",
    [uuid],
  );
  return row.n;
}

const book = async (client: Client, slug: string, uuid: string, quantity = 1) =>
  client.post(`/session/${slug}/date/${uuid}`, { ...(await bookingFields(uuid)), quantity });

let ip = 0;
async function subscribe(uuid: string, email: string) {
  const response = await new Client({ ip: `10.77.${Math.floor(++ip / 200)}.${ip % 200}` }).post(
    "/date/mail/alert",
    { date: uuid, email, optin: true },
  );
  assertEquals(response.status, 200, response.text);
}

async function expireHolds(uuid: string) {
  const { db } = await testEnv();
  await systemQuery(
    db,
    `update public.cart_lines set expires_at = now() - interval '1 second'
     where date_id = (select id from public.session_dates where uuid = $1)`,
    [uuid],
  );
}

async function runJob(name: string) {
  const { db } = await testEnv();
  const job = JOBS.find((j) => j.name === name);
  assert(job?.sql, `the registry runs ${name}`);
  await statementAs(db, systemActor("job"), job.sql);
}

/** The worker's pass over the two mail queues (as every instance runs it). */
async function drainMail() {
  const { deps } = await testEnv();
  const queue = outboxQueue([seatOfferMailHandler, dateCanceledMailHandler]);
  while (await queue.drain(deps) > 0) { /* next batch */ }
}

async function offerLinks(email: string): Promise<string[]> {
  const { db } = await testEnv();
  const rows = await systemQuery<{ text: string; sealed: string | null }>(
    db,
    `select ${SENT_BODY_COLUMNS} from public.email_outbox where recipient = $1 and template = 'seat-offer'
     order by created_at`,
    [email],
  );
  const texts = await Promise.all(rows.map(sentText));
  return texts.map((text) => /\/date\/alert\/offre\/\S+/.exec(text)![0]);
}

const unique = (name: string) => `${name}.${Date.now()}.${++counter}@example.fr`;

httpTest(
  "waiting list: an expired hold goes to the first subscriber, whose link puts it in a cart once",
  async () => {
    const d = await makeDate(1);
    const holder = new Client();
    assertEquals((await book(holder, d.slug, d.uuid)).status, 200);
    const first = unique("premier");
    const second = unique("second");
    await subscribe(d.uuid, first);
    await subscribe(d.uuid, second);

    await expireHolds(d.uuid);
    await runJob("release-expired-holds");
    assertEquals(await placesLeft(d.uuid), 0, "the freed place is set aside, not back on public sale");
    assertEquals((await book(new Client(), d.slug, d.uuid)).json<Json>().message, "COMPLET");
    await drainMail();
    await drainMail();
    const [link] = await offerLinks(first);
    assert(link, "the first subscriber is mailed");
    assertEquals((await offerLinks(second)).length, 0, "the second one waits");
    assertEquals((await offerLinks(first)).length, 1, "one email, however often the worker runs");

    const visitor = new Client();
    const page = await visitor.get(link);
    assertEquals(page.status, 200);
    assertMatch(page.text, /Une place vous est gardée jusqu/);
    assertMatch(page.text, /Ajouter cette place à mon panier/);
    const claim = await visitor.post(link, {});
    assertEquals(claim.status, 200, claim.text);
    assertEquals(claim.json<Json>().results.quantity, 1);
    const cart = (await visitor.get("/api/cart")).json<Json>().results;
    assertEquals(cart.lines.length, 1);
    assertEquals(await placesLeft(d.uuid), 0);
    const again = await new Client().post(link, {});
    assertEquals(again.status, 409);
    assertMatch(again.json<Json>().message, /déjà servi/);
    assertMatch((await new Client().get(link)).text, /déjà servi/);
    // A forged or altered link is not one.
    assertEquals((await new Client().get(link.slice(0, -2) + "AA")).status, 404);
    assertEquals((await new Client().post(link.replace(/\.[^.]+$/, ".x"), {})).status, 404);
  },
);

httpTest(
  "waiting list: an unused offer expires and passes to the next subscriber, then back on sale",
  async () => {
    const d = await makeDate(1);
    const holder = new Client();
    const line = (await book(holder, d.slug, d.uuid)).json<Json>().results.lineId;
    const first = unique("a");
    const second = unique("b");
    await subscribe(d.uuid, first);
    await subscribe(d.uuid, second);
    // A line removed frees its place at once.
    assertEquals((await holder.delete(`/api/cart/line/${line}`)).status, 200);
    await drainMail();
    const [firstLink] = await offerLinks(first);
    assert(firstLink);

    const { db } = await testEnv();
    const expire = () =>
      systemQuery(
        db,
        `update public.seat_offers set expires_at = now() - interval '1 second'
       where date_id = $1 and status = 'offered'`,
        [d.id],
      );
    await expire();
    await runJob("expire-seat-offers");
    await drainMail();
    assertEquals((await offerLinks(second)).length, 1, "the next subscriber gets the place");
    assertEquals((await offerLinks(first)).length, 1, "the first is not mailed again");
    const late = await new Client().post(firstLink, {});
    assertEquals(late.status, 409);
    assertMatch(late.json<Json>().message, /expiré/);
    assertEquals(await placesLeft(d.uuid), 0);

    // Nobody left in line: the place goes back on public sale (here through the next hold's own check).
    await expire();
    const buyer = await book(new Client(), d.slug, d.uuid);
    assertEquals(buyer.status, 200, "the expired offer's place is sold at once");
    assertEquals(await placesLeft(d.uuid), 0);
  },
);

httpTest(
  "waiting list: a raised capacity and a reopened date serve the line; a past date or an open one takes no alert",
  async () => {
    const admin = new Client();
    await admin.login(ADMIN);
    const d = await makeDate(1);
    assertEquals((await book(new Client(), d.slug, d.uuid)).status, 200);
    const waiting = [unique("c1"), unique("c2"), unique("c3")];
    for (const email of waiting) await subscribe(d.uuid, email);
    const { db } = await testEnv();
    const raised = await admin.patch(`/api/admin/session/date/${d.uuid}`, {
      dtstart:
        (await admin.get(`/api/admin/session/date/${d.uuid}/bookings`)).json<Json>().results.date.dtstart,
      places: 3,
      priceTTC: 45,
    });
    assertEquals(raised.status, 200, raised.text);
    await drainMail();
    assertEquals((await offerLinks(waiting[0])).length, 1);
    assertEquals((await offerLinks(waiting[1])).length, 1);
    assertEquals((await offerLinks(waiting[2])).length, 0, "two places, two subscribers");
    assertEquals(await placesLeft(d.uuid), 0);

    // Closing withdraws the open offers (their places come back); reopening serves whoever still waits.
    const closed = await admin.post(`/api/admin/session/date/${d.uuid}/close`);
    assertEquals(closed.status, 200, closed.text);
    assertEquals(await placesLeft(d.uuid), 2);
    const withdrawn = await new Client().post((await offerLinks(waiting[0]))[0], {});
    assertEquals(withdrawn.status, 409);
    assertEquals((await admin.post(`/api/admin/session/date/${d.uuid}/reopen`)).status, 200);
    await drainMail();
    assertEquals((await offerLinks(waiting[2])).length, 1, "the third subscriber's turn");
    assertEquals((await offerLinks(waiting[0])).length, 1, "no subscriber is offered twice");
    assertEquals(await placesLeft(d.uuid), 1);

    // A date with places takes no alert; a date that has started offers nothing.
    const open = await new Client({ ip: "10.78.0.1" }).post("/date/mail/alert", {
      date: d.uuid,
      email: unique("d"),
      optin: true,
    });
    assertEquals(open.status, 409);
    const past = await makeDate(1);
    assertEquals((await book(new Client(), past.slug, past.uuid)).status, 200);
    const late = unique("late");
    await subscribe(past.uuid, late);
    await systemQuery(
      db,
      "update public.session_dates set dtstart = now() - interval '1 hour' where id = $1",
      [
        past.id,
      ],
    );
    await expireHolds(past.uuid);
    await runJob("release-expired-holds");
    await drainMail();
    assertEquals((await offerLinks(late)).length, 0, "alerts stop once the date has passed");
    assertEquals(await placesLeft(past.uuid), 1);
  },
);

httpTest("close and cancel a date: bookers told, holds released, alerts stopped, once", async () => {
  const { db } = await testEnv();
  const admin = new Client();
  await admin.login(ADMIN);
  const d = await makeDate(8);
  // A customer who pays 3 places through the checkout (simulated card), then a visitor's hold of 2.
  const payer = new Client({ ip: "10.79.0.1" });
  const account = registrationPayload();
  assertEquals((await payer.post("/api/security/registration", account)).status, 200);
  assertEquals((await book(payer, d.slug, d.uuid, 3)).status, 200);
  const intent = (await payer.post("/api/cart/checkout", {})).json<Json>();
  const intentId = intent.paymentIntentId ?? intent.results?.paymentIntentId ?? intent.results?.id;
  assert(intentId, JSON.stringify(intent));
  assertEquals(
    (await payer.post("/api/payment/simulated/confirm", {
      paymentIntentId: intentId,
      cardNumber: TEST_CARDS.succeeds,
    }))
      .status,
    200,
  );
  assertEquals((await payer.post("/api/payment/confirm", { paymentIntentId: intentId })).status, 200);
  const visitor = new Client();
  assertEquals((await book(visitor, d.slug, d.uuid, 2)).status, 200);
  // A registration not paid yet, of a customer of its own (the demo customers' figures are other tests').
  const booker = unique("booker");
  const [customer] = await systemQuery<{ id: string }>(
    db,
    "insert into public.users (type, email, firstname) values ('Customer', $1, 'Inès') returning id",
    [booker],
  );
  await systemQuery(
    db,
    `insert into public.registrations (user_id, date_id, quantity, amount, status) values ($1, $2, 3, 13500, 'pending')`,
    [customer.id, d.id],
  );
  await systemQuery(db, "update public.session_dates set places_left = 0 where id = $1", [d.id]);
  const [paid] = await systemQuery<{ status: string; amount: number }>(
    db,
    "select r.status, r.amount from public.registrations r join public.users u on u.id = r.user_id where u.email = $1",
    [account.email],
  );
  assertEquals(paid.status, "invoiced", "paid through the checkout");

  // Closed: 'COMPLET' for the public, no booking, no alert.
  assertEquals((await admin.post(`/api/admin/session/date/${d.uuid}/close`)).status, 200);
  const offers = (await new Client().post(`/session/${d.slug}/dates`, {})).json<Json>().results;
  assertEquals(offers[0].places, 0);
  assertEquals(offers[0].closed, true);
  assertMatch((await new Client().get(`/session/${d.slug}`)).text, /COMPLET/);
  assertEquals((await book(new Client(), d.slug, d.uuid)).status, 409);
  const alert = await new Client({ ip: "10.78.0.2" }).post("/date/mail/alert", {
    date: d.uuid,
    email: unique("closed"),
    optin: true,
  });
  assertEquals(alert.status, 409);
  // The edit form cannot cancel (the bookers would not be told).
  const edit = await admin.patch(`/api/admin/session/date/${d.uuid}`, {
    dtstart: Math.floor(Date.now() / 1000) + 5 * 86400,
    places: 5,
    priceTTC: 45,
    state: "canceled",
  });
  assertEquals(edit.status, 422);

  const cancel = await admin.post(`/api/admin/session/date/${d.uuid}/cancel`);
  assertEquals(cancel.status, 200, cancel.text);
  assertEquals(cancel.json<Json>().results.already, false);
  assertEquals(cancel.json<Json>().results.registrations, 2);
  assertEquals(cancel.json<Json>().results.refunded, paid.amount, "what was paid is refunded");
  assertEquals(cancel.json<Json>().results.released, 2);
  assertEquals((await visitor.get("/api/cart")).json<Json>().results.lines, [], "holds released");
  const statuses = await systemQuery<{ status: string }>(
    db,
    "select status from public.registrations where date_id = $1",
    [d.id],
  );
  assertEquals(statuses.map((r) => r.status), ["canceled", "canceled"]);
  const [refund] = await systemQuery<{ amount: number; status: string }>(
    db,
    `select r.amount, r.status from public.refunds r join public.deal_payments p on p.id = r.payment_id
     join public.orders o on o.id = p.order_id join public.users u on u.id = o.user_id where u.email = $1`,
    [account.email],
  );
  assertEquals(Number(refund.amount), paid.amount, "the refund is queued");
  await drainMail();
  const mails = await systemQuery<{ text: string }>(
    db,
    `select text_body as text from public.email_outbox where recipient = $1 and template = 'session-date-canceled'
     and text_body like '%' || $2 || '%'`,
    [booker, "Atelier ops"],
  );
  assertEquals(mails.length, 1, "the booker who had not paid is told once");
  const [paidMail] = await systemQuery<{ n: number }>(
    db,
    "select count(*)::int as n from public.email_outbox where recipient = $1 and template = 'registration-canceled'",
    [account.email],
  );
  assertEquals(paidMail.n, 1, "the paid booker is told (and refunded) once");
  assertMatch(mails[mails.length - 1].text, /vos 3 places/);
  const again = await admin.post(`/api/admin/session/date/${d.uuid}/cancel`);
  assertEquals(again.status, 200);
  assertEquals(again.json<Json>().results.already, true);
  assertEquals((await admin.post(`/api/admin/session/date/${d.uuid}/reopen`)).status, 409);
  assertEquals((await new Client().get(`/session/${d.slug}`)).text.includes(d.uuid), false, "hidden");

  // Only admins, and not while impersonating: customers and partners are refused, anonymous asked to log in.
  const other = await makeDate(3);
  for (const verb of ["close", "reopen", "cancel"]) {
    assertEquals((await new Client().post(`/api/admin/session/date/${other.uuid}/${verb}`)).status, 401);
    for (const who of [CUSTOMER, PARTNER]) {
      const client = new Client();
      await client.login(who);
      assertEquals((await client.post(`/api/admin/session/date/${other.uuid}/${verb}`)).status, 403);
    }
  }
  const [state] = await systemQuery<{ state: string }>(
    db,
    "select state from public.session_dates where id = $1",
    [
      other.id,
    ],
  );
  assertEquals(state.state, "open");
});

httpTest(
  "attendees: JSON, CSV (BOM, ';', formulas defused) and the sign-in sheet, for admins only",
  async () => {
    const { db } = await testEnv();
    const d = await makeDate(10);
    const [customer] = await systemQuery<{ id: string }>(
      db,
      `insert into public.users (type, email, firstname, lastname, phone)
     values ('Customer', $1, '=HYPERLINK("http://x")', 'Durand; "Le Grand"', '+33612345678') returning id`,
      [unique("attendee")],
    );
    await systemQuery(
      db,
      `insert into public.registrations (user_id, date_id, quantity, amount, discount_amount, status)
     values ($1, $2, 2, 9000, 500, 'invoiced')`,
      [customer.id, d.id],
    );
    const paths = [
      `/api/admin/session/date/${d.uuid}/attendees`,
      `/api/admin/session/date/${d.uuid}/attendees.csv`,
      `/api/admin/session/date/${d.uuid}/sign-in-sheet`,
    ];
    const admin = new Client();
    await admin.login(ADMIN);
    const json = (await admin.get(paths[0])).json<Json>().results.attendees;
    assertEquals(json.length, 1);
    assertEquals(json[0].quantity, 2);
    assertEquals(json[0].paid, 85, "what was paid, in euros, after the discount");
    assertEquals(json[0].status, "invoiced");
    assertEquals(json[0].phone, "+33612345678");

    const csv = await admin.get(paths[1]);
    assertEquals(csv.status, 200);
    assertMatch(csv.contentType, /text\/csv; charset=utf-8/);
    assertMatch(csv.headers.get("content-disposition") ?? "", /attachment; filename="inscrits-ops-atelier/);
    assert(
      csv.text.startsWith("\uFEFFNom;Prénom;Email;Téléphone;Places;Statut;Montant payé (€)\r\n"),
      csv.text,
    );
    assertMatch(csv.text, /"Durand; ""Le Grand""";"'=HYPERLINK\(""http:\/\/x""\)";/);
    assertMatch(csv.text, /;'\+33612345678;2;Facturé;85,00\r\n$/);

    const sheet = await admin.get(paths[2]);
    assertEquals(sheet.status, 200);
    assertMatch(sheet.text, /Feuille d&#39;émargement|Feuille d'émargement/);
    assertEquals((sheet.text.match(/data-testid="sign-in-line"/g) ?? []).length, 2, "one line per seat");
    assertMatch(sheet.text, /Invité 2 de DURAND/);
    // A page to print: its only script is the 'Imprimer' button's (Ctrl + P works without it); the back
    // link and the button are hidden on paper.
    assertEquals(
      [...sheet.text.matchAll(/<script[^>]*src="\/build\/islands\/([A-Za-z]+)-/g)].map((m) => m[1]),
      ["PrintButton"],
    );
    assertMatch(
      sheet.text,
      /<div class="[^"]*print:hidden[^"]*"><a href="\/dashboard\/admin\/ateliers\/date\//,
    );

    for (const path of paths) {
      assertEquals((await new Client().get(path)).status, 401, path);
      for (const who of [CUSTOMER, PARTNER]) {
        const client = new Client();
        await client.login(who);
        const denied = await client.get(path);
        assertEquals(denied.status, 403, `${who} ${path}`);
        assert(!denied.text.includes("Durand"), "nothing of the attendees");
      }
    }
  },
);

httpTest("holds: booking again or changing a line never holds past twice the hold time", async () => {
  const { db, deps } = await testEnv();
  const hold = deps.config.cartHoldMinutes;
  const d = await makeDate(10);
  const customer = new Client();
  await customer.login(CUSTOMER);
  const first = (await book(customer, d.slug, d.uuid)).json<Json>().results;
  // The line was first held 1.5 hold times ago (and renewed since).
  await systemQuery(
    db,
    `update public.cart_lines set created_at = now() - make_interval(mins => $2 * 3 / 2),
       expires_at = now() + interval '1 minute' where id = $1`,
    [first.lineId, hold],
  );
  const again = (await book(customer, d.slug, d.uuid)).json<Json>().results;
  const now = Math.floor(Date.now() / 1000);
  assert(again.expiresAt <= now + (hold * 60) / 2 + 5, `capped: ${again.expiresAt - now} s left`);
  assert(again.expiresAt >= now + (hold * 60) / 2 - 5, "up to the deadline");
  const changed =
    (await customer.patch(`/api/cart/line/${first.lineId}`, { quantity: 1 })).json<Json>().results;
  assert(changed.expiresAt <= again.expiresAt, "changing the line does not extend it either");
  await customer.delete(`/api/cart/line/${first.lineId}`);
});

httpTest("header: the cart link with its count while the cart holds places, without JavaScript", async () => {
  const d = await makeDate(10);
  const visitor = new Client();
  const before = await visitor.get("/sessions");
  // The link is there for the islands to show once the cart holds places, hidden while it is empty.
  assertMatch(
    before.text,
    /<a href="\/panier" hidden[^>]*data-testid="header-cart"/,
    "no link shown for an empty cart",
  );
  assertEquals((await book(visitor, d.slug, d.uuid, 3)).status, 200);
  const after = await visitor.get("/sessions");
  assertMatch(after.text, /<a href="\/panier"\s+class[^>]*data-testid="header-cart"/);
  assertMatch(after.text, /Mon panier : 3 places/);
  assert(!after.text.includes("<script"), "the catalogue ships no JavaScript");
  const partner = new Client();
  await partner.login(PARTNER);
  assert(!(await partner.get("/sessions")).text.includes('data-testid="header-cart"'));
});

/** A second instance of the app: its own pool on the same PostgreSQL database (PGlite: the same one). */
async function secondInstance(): Promise<{ app: Awaited<ReturnType<typeof createApp>>; db: Database }> {
  const shared = await testEnv();
  const url = Deno.env.get("TEST_DATABASE_URL");
  const db = url ? openPostgres(url, { max: 4 }) : shared.db;
  const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: ORIGIN, ...TEST_LIMITS })[name]);
  const logger = createLogger(db, { quiet: true });
  const deps: Deps = {
    config,
    db,
    logger,
    background: createBackground(logger, { manual: true }),
    storage: memoryStorage(),
  };
  return { app: await createApp(deps), db };
}

httpTest(
  "waiting list on two instances: places freed while others book go to the line; one claim per link; expiry once",
  async () => {
    const { db, app } = await testEnv();
    const second = await secondInstance();
    const on = (i: number, ip: string) => new Client({ app: i % 2 === 0 ? app : second.app, ip });
    try {
      const d = await makeDate(10);
      const holders = Array.from({ length: 10 }, (_, i) => on(i, `10.81.0.${i}`));
      const lines: string[] = [];
      for (const holder of holders) {
        lines.push((await book(holder, d.slug, d.uuid)).json<Json>().results.lineId);
      }
      const waiting = Array.from({ length: 15 }, (_, i) => unique(`file${i}`));
      for (const email of waiting) await subscribe(d.uuid, email);

      // The ten holders give their places up while twenty visitors try to book, on both instances at once.
      const [removed, booked] = await Promise.all([
        Promise.all(holders.map((holder, i) => holder.delete(`/api/cart/line/${lines[i]}`))),
        Promise.all(Array.from({ length: 20 }, (_, i) => book(on(i, `10.82.0.${i}`), d.slug, d.uuid))),
      ]);
      assertEquals(removed.map((r) => r.status), Array(10).fill(200));
      const bookedOk = booked.filter((r) => r.status === 200).length;
      const [state] = await systemQuery<{ left: number; offered: number; held: number }>(
        db,
        `select d.places_left as left,
         (select count(*) from public.seat_offers o where o.date_id = d.id and o.status = 'offered')::int as offered,
         (select coalesce(sum(l.quantity), 0) from public.cart_lines l where l.date_id = d.id)::int as held
       from public.session_dates d where d.id = $1`,
        [d.id],
      );
      assertEquals(state.left + state.offered + state.held, 10, "never more than the capacity");
      assertEquals(state.left, 0, "no place sits free while subscribers wait");
      assertEquals(state.held, bookedOk, "a visitor books only a place freed before anyone waited for it");
      const offeredTo = await systemQuery<{ email: string }>(
        db,
        `select a.email from public.seat_offers o join public.seat_alerts a on a.id = o.alert_id
       where o.date_id = $1 order by a.created_at`,
        [d.id],
      );
      assertEquals(offeredTo.map((r) => r.email), waiting.slice(0, state.offered), "the oldest alerts first");

      // Ten clicks on one link, on both instances: one place in one cart.
      await drainMail();
      const [link] = await offerLinks(waiting[0]);
      const claims = await Promise.all(
        Array.from({ length: 10 }, (_, i) => on(i, `10.83.0.${i}`).post(link, {})),
      );
      assertEquals(claims.filter((r) => r.status === 200).length, 1);
      assertEquals(claims.filter((r) => r.status === 409).length, 9);

      // The other offers expire; both instances run the registry's job at once: each expires once.
      await systemQuery(
        db,
        "update public.seat_offers set expires_at = now() - interval '1 second' where date_id = $1 and status = 'offered'",
        [d.id],
      );
      const job = JOBS.find((j) => j.name === "expire-seat-offers")!;
      await Promise.all([
        statementAs(db, systemActor("job"), job.sql!),
        statementAs(second.db, systemActor("job"), job.sql!),
      ]);
      const [after] = await systemQuery<{ left: number; offered: number; expired: number }>(
        db,
        `select d.places_left as left,
         (select count(*) from public.seat_offers o where o.date_id = d.id and o.status = 'offered')::int as offered,
         (select count(*) from public.seat_offers o where o.date_id = d.id and o.status = 'expired')::int as expired
       from public.session_dates d where d.id = $1`,
        [d.id],
      );
      assertEquals(after.expired, state.offered - 1, "each unused offer expired once");
      const stillWaiting = waiting.length - state.offered;
      assertEquals(
        after.offered,
        Math.min(stillWaiting, state.offered - 1),
        "their places go to the next in line",
      );
      assertEquals(after.left, state.offered - 1 - after.offered, "the rest back on sale");
    } finally {
      if (second.db !== db) await second.db.close();
    }
  },
);

httpTest(
  "dashboard: the list of coming dates, close, reopen and cancel through forms, admins only",
  async () => {
    const d = await makeDate(4);
    const admin = new Client();
    await admin.login(ADMIN);
    const list = await admin.get("/dashboard/admin/ateliers");
    assertEquals(list.status, 200);
    assertMatch(list.text, /Prochaines dates/);
    assertMatch(list.text, new RegExp(`data-date="${d.uuid}"`));
    assertEquals(
      (list.text.match(/Bientôt disponible/g) ?? []).length <= 1,
      true,
      "one 'Bientôt disponible' at most",
    );
    const base = `/dashboard/admin/ateliers/date/${d.uuid}`;
    const datePage = await admin.get(base);
    assertEquals(
      (datePage.text.match(/>Bientôt disponible</g) ?? []).length,
      1,
      "one control for 'BIENTÔT DISPO'",
    );
    const closed = await admin.request("POST", `${base}/fermer?retour=liste`, { form: {} });
    assertEquals(closed.status, 303);
    assertEquals(closed.headers.get("location"), "/dashboard/admin/ateliers");
    assertMatch((await admin.get("/dashboard/admin/ateliers")).text, /La date est fermée/);
    assertEquals(
      (await admin.request("POST", `${base}/rouvrir`, { form: {} })).headers.get("location"),
      base,
    );
    const confirm = await admin.get(`${base}/annuler`);
    assertEquals(confirm.status, 200);
    assertMatch(confirm.text, /Annuler cette date \?/);
    assertMatch(confirm.text, /ne peut pas être annulée/);
    const canceled = await admin.request("POST", `${base}/annuler`, { form: {} });
    assertEquals(canceled.status, 303);
    assertMatch((await admin.get(base)).text, /La date a été annulée/);
    assertEquals(await placesLeft(d.uuid), 4);

    const other = await makeDate(4);
    const path = `/dashboard/admin/ateliers/date/${other.uuid}`;
    assertEquals((await new Client().request("POST", `${path}/annuler`, { form: {} })).status, 401);
    assertMatch((await new Client().get(`${path}/annuler`)).headers.get("location") ?? "", /^\/login/);
    for (const who of [CUSTOMER, PARTNER]) {
      const client = new Client();
      await client.login(who);
      assertEquals((await client.request("POST", `${path}/annuler`, { form: {} })).status, 403);
      assertEquals((await client.get(`${path}/annuler`)).status, 403);
      assertEquals((await client.get("/dashboard/admin/ateliers")).status, 403);
    }
    const { db } = await testEnv();
    const [state] = await systemQuery<{ state: string }>(
      db,
      "select state from public.session_dates where id = $1",
      [
        other.id,
      ],
    );
    assertEquals(state.state, "open");
  },
);
