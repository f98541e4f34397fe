// Paying the workshop cart (issue 12, the money half) over HTTP, PGlite and PostgreSQL: checkout by
// role, the order's intent paid through the existing confirm path, the registrations invoiced and the
// holds sold, the invoice (Factur-X) and the receipt downloaded by the customer and admins only, a
// second checkout superseding the first, payments that arrive after the places were sold again
// (refunded with a credit note and an email), and cancel_registration.
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { Client, ORIGIN, registrationPayload, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { attachment, facturXSchemaErrors, pdfText } from "../../lib/billing/fixtures_test.ts";
import { TEST_CARDS } from "../../lib/payments/simulated.ts";
import { CHECKOUT_MESSAGES } from "../../lib/orders/rules.ts";
import { drainRefunds } from "../support/stripe_app.ts";
import { freshIp } from "./deals_fixtures_test.ts";
import { OUTBOX_HANDLERS } from "../../lib/jobs/queues.ts";
import { outboxQueue } from "../../lib/outbox/worker.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

function checkoutTest(name: string, fn: () => Promise<void>) {
  Deno.test({ name: `checkout: ${name}`, fn, sanitizeOps: false, sanitizeResources: false });
}

async function newCustomer(): Promise<{ client: Client; email: string; id: string }> {
  const client = new Client({ ip: freshIp() });
  const payload = registrationPayload();
  const res = await client.post("/api/security/registration", payload);
  assert(res.status === 200 || res.status === 201, `registration: ${res.status} ${res.text}`);
  const { db } = await testEnv();
  const [user] = await systemQuery<{ id: string }>(db, "select id::text from public.users where email = $1", [
    payload.email,
  ]);
  return { client, email: payload.email, id: user.id };
}

async function as(email: string): Promise<Client> {
  const client = new Client({ ip: freshIp() });
  await client.login(email);
  return client;
}

let counter = 0;
/** A published session with one date in 10 days: 40 € a place, 5 € travel, a 10 € HT kit at 20 %. */
async function makeDate(
  places: number,
): Promise<{ slug: string; uuid: string; dtstart: number; sessionId: number }> {
  const { db } = await testEnv();
  const slug = `atelier-paiement-${Date.now().toString(36)}-${++counter}`;
  const [session] = await systemQuery<{ id: number }>(
    db,
    `insert into public.workshop_sessions (slug, title, city, published) values ($1, 'Atelier paiement', 'Nantes', true)
     returning id`,
    [slug],
  );
  const [row] = await systemQuery<{ uuid: string; dtstart: number }>(
    db,
    `insert into public.session_dates (session_id, dtstart, places, places_left, price_ttc, travel_cost_ttc, additional_costs)
     values ($1, date_trunc('minute', now()) + interval '10 days', $2, $2, 4000, 500, '[{"title":"Kit","ht":1000,"vat":20}]')
     returning uuid::text as uuid, extract(epoch from dtstart)::bigint as dtstart`,
    [session.id, places],
  );
  return { slug, uuid: row.uuid, dtstart: Number(row.dtstart), sessionId: session.id };
}

async function add(
  client: Client,
  date: { slug: string; uuid: string; dtstart: number; sessionId: number },
  quantity: number,
) {
  const res = await client.post(`/session/${date.slug}/date/${date.uuid}`, {
    session: date.sessionId,
    timestamp: date.dtstart,
    quantity,
  });
  assertEquals(res.status, 200, res.text);
}

async function placesLeft(uuid: string): Promise<number> {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ n: number }>(
    db,
    "select places_left as n from public.session_dates where uuid = $1",
    [uuid],
  );
  return Number(row.n);
}

async function checkout(client: Client): Promise<Json> {
  const res = await client.post("/api/cart/checkout", {});
  assertEquals(res.status, 200, res.text);
  return res.json<Json>();
}

async function pay(client: Client, intentId: string): Promise<Json> {
  const card = await client.post("/api/payment/simulated/confirm", {
    paymentIntentId: intentId,
    cardNumber: TEST_CARDS.succeeds,
  });
  assertEquals(card.status, 200, card.text);
  const res = await client.post("/api/payment/confirm", { paymentIntentId: intentId });
  assertEquals(res.status, 200, res.text);
  return res.json<Json>();
}

async function registrationsOf(userId: string) {
  const { db } = await testEnv();
  return await systemQuery<{ id: string; status: string; quantity: number; amount: number; orderId: number }>(
    db,
    `select id::text, status, quantity, amount, order_id as "orderId" from public.registrations where user_id = $1
     order by created_at`,
    [userId],
  );
}

async function download(client: Client, path: string) {
  const headers = new Headers();
  if (client.cookies.size) headers.set("cookie", [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
  const response = await (await testEnv()).app.request(`${ORIGIN}${path}`, { headers }, {
    remoteAddr: { transport: "tcp", hostname: client.options.ip ?? "127.0.0.1", port: 40000 },
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

/** Runs the outbox's due jobs (order-settle, intent cancels). */
async function drainOutbox() {
  const { deps } = await testEnv();
  const queue = outboxQueue(OUTBOX_HANDLERS);
  for (let i = 0; i < 20 && (await queue.drain(deps)) > 0; i++);
}

checkoutTest(
  "a customer pays the cart: registrations invoiced, holds sold, invoice and receipt, email",
  async () => {
    const date = await makeDate(5);
    const { client, email, id } = await newCustomer();
    await add(client, date, 2);
    assertEquals(await placesLeft(date.uuid), 3);
    const intent = await checkout(client);
    // (40 + 5 + 12) € × 2 = 114 €, computed on the server.
    assertEquals([intent.status, intent.amount, intent.amountCents, intent.paymentType], [
      "success",
      114,
      11400,
      "full",
    ]);
    assertMatch(intent.clientSecret, /_secret_/);
    let regs = await registrationsOf(id);
    assertEquals(regs.map((r) => [r.status, r.quantity, Number(r.amount)]), [["pending", 2, 11400]]);
    const confirmed = await pay(client, intent.paymentIntentId);
    assertEquals([confirmed.paymentStatus, confirmed.message], ["succeeded", CHECKOUT_MESSAGES.paid]);
    // The cart page says it in its success block: no flash repeats it on the next page ('Vos sessions').
    const next = await client.get("/dashboard/client/sessions");
    assert(!next.text.includes(CHECKOUT_MESSAGES.paid), "the payment's success is not said twice");
    regs = await registrationsOf(id);
    assertEquals(regs.map((r) => r.status), ["invoiced"]);
    assertEquals(await placesLeft(date.uuid), 3, "the held places are sold, not given back");
    const cart = (await client.get("/api/cart")).json<Json>();
    assertEquals(cart.results.lines.length, 0, "the hold is consumed");
    const { db } = await testEnv();
    const docs = await systemQuery<{ series: string; kind: string; number: string }>(
      db,
      "select series, kind, number from public.invoices where order_id = $1 order by series",
      [regs[0].orderId],
    );
    assertEquals(docs.map((d) => [d.series, d.kind]), [["FA", "full"], ["RE", "receipt"]]);
    assertMatch(docs[0].number, /^FA-\d{4}-CC-\d{5}$/);
    const [order] = await systemQuery<{ status: string }>(
      db,
      "select status from public.orders where id = $1",
      [regs[0].orderId],
    );
    assertEquals(order.status, "paid");
    const mails = await systemQuery<{ template: string; subject: string }>(
      db,
      "select template, subject from public.email_outbox where recipient = $1",
      [email],
    );
    assert(mails.some((m) => m.template === "registration-confirmation"), JSON.stringify(mails));

    // Downloads: the receipt (plain PDF) and the Factur-X invoice, for the customer and admins only.
    const receipt = await download(client, `/api/customer/registration/receipt/${regs[0].id}`);
    assertEquals(receipt.status, 200);
    assertEquals(receipt.headers.get("content-type"), "application/pdf");
    const text = await pdfText(receipt.bytes);
    assertMatch(text, /Reçu de paiement/);
    assertMatch(text, /RE-\d{4}-CC-\d{5}/);
    assertMatch(text, /Atelier « Atelier paiement » — Nantes/);
    assertMatch(text, /114,00/);
    assertMatch(text, /Places : 2/);
    assertMatch(text, /Facture n° FA-\d{4}-CC-\d{5}/);
    const invoice = await download(client, `/api/customer/registration/invoice/${regs[0].id}`);
    assertEquals(invoice.status, 200);
    const invoiceText = await pdfText(invoice.bytes);
    assertMatch(invoiceText, /Commande n° \d+/);
    assertMatch(invoiceText, /Frais de déplacement/);
    assertEquals(await facturXSchemaErrors(await attachment(invoice.bytes)), []);
    const admin = await download(
      await as("admin@example.fr"),
      `/api/customer/registration/invoice/${regs[0].id}`,
    );
    assertEquals(admin.status, 200);
    assertEquals(
      (await download(await as("partenaire@example.fr"), `/api/customer/registration/receipt/${regs[0].id}`))
        .status,
      403,
    );
    assertEquals(
      (await download(await as("client2@example.fr"), `/api/customer/registration/receipt/${regs[0].id}`))
        .status,
      404,
    );
    assertEquals(
      (await download(new Client(), `/api/customer/registration/receipt/${regs[0].id}`)).status,
      401,
    );
    assertEquals((await download(client, "/api/customer/registration/receipt/not-a-uuid")).status, 404);
    // The documents by id (/quote/invoice/{id}): the customer and admins; a partner or another customer
    // reads nothing (RLS).
    const [fa] = await systemQuery<{ id: string }>(
      db,
      "select id::text from public.invoices where order_id = $1 and series = 'FA'",
      [regs[0].orderId],
    );
    assertEquals((await download(client, `/quote/invoice/${fa.id}`)).status, 200);
    assertEquals((await download(await as("partenaire@example.fr"), `/quote/invoice/${fa.id}`)).status, 404);
    assertEquals((await download(await as("client2@example.fr"), `/quote/invoice/${fa.id}`)).status, 404);
  },
);

checkoutTest(
  "checkout refusals: anonymous 401, partner and admin 403, empty cart 422, expired holds 409",
  async () => {
    const anonymous = new Client({ ip: freshIp() });
    const res = await anonymous.post("/api/cart/checkout", {});
    assertEquals(res.status, 401);
    for (const email of ["partenaire@example.fr", "admin@example.fr"]) {
      const r = await (await as(email)).post("/api/cart/checkout", {});
      assertEquals(r.status, 403, email);
      assertEquals(r.json<Json>().message, CHECKOUT_MESSAGES.customersOnly);
    }
    const { client, id } = await newCustomer();
    const empty = await client.post("/api/cart/checkout", {});
    assertEquals([empty.status, empty.json<Json>().message], [422, CHECKOUT_MESSAGES.emptyCart]);
    const date = await makeDate(3);
    await add(client, date, 1);
    const { db } = await testEnv();
    await systemQuery(
      db,
      "update public.cart_lines set expires_at = now() - interval '1 second' where cart_id = (select id from public.carts where user_id = $1)",
      [id],
    );
    const expired = await client.post("/api/cart/checkout", {});
    assertEquals([expired.status, expired.json<Json>().message], [409, CHECKOUT_MESSAGES.expired]);
    assertEquals(await placesLeft(date.uuid), 3, "the expired hold gave its place back");
    // A date marked 'BIENTÔT DISPO' (or closed) since the hold is not paid for.
    const later = await makeDate(3);
    await add(client, later, 1);
    await systemQuery(db, "update public.session_dates set soon = true where uuid = $1", [later.uuid]);
    const soon = await client.post("/api/cart/checkout", {});
    assertEquals([soon.status, soon.json<Json>().message], [409, CHECKOUT_MESSAGES.dateUnavailable]);
  },
);

checkoutTest(
  "a second checkout supersedes the first intent: paying the first is refunded, never seated twice",
  async () => {
    const date = await makeDate(4);
    const { client, id } = await newCustomer();
    await add(client, date, 1);
    const first = await checkout(client);
    const second = await checkout(client);
    assert(first.paymentIntentId !== second.paymentIntentId);
    const { db, deps } = await testEnv();
    const [superseded] = await systemQuery<{ superseded: boolean }>(
      db,
      "select superseded_at is not null as superseded from public.payment_intents where id = $1",
      [first.paymentIntentId],
    );
    assert(superseded.superseded, "the first intent is superseded");
    // The customer pays both before any worker canceled the first at the provider.
    const late = await pay(client, first.paymentIntentId);
    assertEquals([late.paymentStatus, late.message], ["refunding", CHECKOUT_MESSAGES.refunding]);
    const ok = await pay(client, second.paymentIntentId);
    assertEquals(ok.paymentStatus, "succeeded");
    const regs = await registrationsOf(id);
    assertEquals(regs.filter((r) => r.status === "invoiced").length, 1, "one registration seated");
    assertEquals(await placesLeft(date.uuid), 3);
    // The refund of the first payment goes to the provider, then its credit note.
    await drainRefunds(deps);
    await drainOutbox();
    const docs = await systemQuery<{ id: string; series: string; kind: string }>(
      db,
      `select i.id::text, i.series, i.kind from public.invoices i join public.deal_payments p on p.id = i.payment_id
     where p.provider_payment_id = $1 order by i.series`,
      [first.paymentIntentId],
    );
    assertEquals(docs.map((d) => `${d.series}:${d.kind}`), ["AV:credit_note", "FA:deposit"]);
    // Both stay valid Factur-X (EN 16931): the advance invoice (386) and its credit note (381).
    const adminClient = await as("admin@example.fr");
    for (const doc of docs) {
      const pdf = await download(adminClient, `/quote/invoice/${doc.id}`);
      assertEquals(pdf.status, 200, doc.series);
      assertEquals(await facturXSchemaErrors(await attachment(pdf.bytes)), [], doc.series);
    }
    // 'Vos sessions': the booking, and the replaced checkout's registration as 'Annulé' since money was
    // taken (and refunded) for it.
    const list = (await client.get("/api/customer/registrations")).json<Json>();
    assertEquals(list.results.map((r: Json) => r.status), ["invoiced", "canceled"]);
    // A payment for an order already paid is refunded too (a replayed confirm changes nothing).
    const again = await client.post("/api/payment/confirm", { paymentIntentId: second.paymentIntentId });
    assertEquals(again.json<Json>().paymentStatus, "succeeded");
    const [count] = await systemQuery<{ n: number }>(
      db,
      "select count(*)::int as n from public.deal_payments where order_id = $1",
      [regs.find((r) => r.status === "invoiced")!.orderId],
    );
    assertEquals(Number(count.n), 1);
  },
);

checkoutTest(
  "a payment after the hold expired: seated if the places are still there, refunded if sold again",
  async () => {
    const { db, deps } = await testEnv();
    // Still there: seated.
    const date = await makeDate(2);
    const a = await newCustomer();
    await add(a.client, date, 2);
    const intentA = await checkout(a.client);
    await systemQuery(
      db,
      "update public.cart_lines set expires_at = now() - interval '1 second' where order_id is not null and date_id = (select id from public.session_dates where uuid = $1)",
      [date.uuid],
    );
    await systemQuery(db, "select public.release_expired_holds()");
    await systemQuery(db, "select public.expire_unpaid_orders()");
    assertEquals(await placesLeft(date.uuid), 2);
    assertEquals((await registrationsOf(a.id)).map((r) => r.status), ["canceled"]);
    const seated = await pay(a.client, intentA.paymentIntentId);
    assertEquals(seated.paymentStatus, "succeeded");
    assertEquals((await registrationsOf(a.id)).map((r) => r.status), ["invoiced"]);
    assertEquals(await placesLeft(date.uuid), 0);

    // Sold again to someone else: recorded, refunded in full, the customer told, registrations canceled.
    const date2 = await makeDate(1);
    const b = await newCustomer();
    const c = await newCustomer();
    await add(b.client, date2, 1);
    const intentB = await checkout(b.client);
    await systemQuery(
      db,
      "update public.cart_lines set expires_at = now() - interval '1 second' where order_id is not null and date_id = (select id from public.session_dates where uuid = $1)",
      [date2.uuid],
    );
    await add(c.client, date2, 1);
    const intentC = await checkout(c.client);
    assertEquals((await pay(c.client, intentC.paymentIntentId)).paymentStatus, "succeeded");
    const refunded = await pay(b.client, intentB.paymentIntentId);
    assertEquals([refunded.paymentStatus, refunded.message], ["refunding", CHECKOUT_MESSAGES.refunding]);
    assertEquals((await registrationsOf(b.id)).map((r) => r.status), ["canceled"]);
    assertEquals((await registrationsOf(c.id)).map((r) => r.status), ["invoiced"]);
    assertEquals(await placesLeft(date2.uuid), 0, "never seated twice");
    const [payment] = await systemQuery<{ id: string; overpayment: boolean }>(
      db,
      "select id::text, overpayment from public.deal_payments where provider_payment_id = $1",
      [intentB.paymentIntentId],
    );
    assert(payment.overpayment);
    const mails = await systemQuery<{ template: string }>(
      db,
      "select template from public.email_outbox where recipient = $1",
      [b.email],
    );
    assert(mails.some((m) => m.template === "order-payment-refunded"), JSON.stringify(mails));
    await drainRefunds(deps);
    await drainOutbox();
    const [refund] = await systemQuery<{ status: string; amount: number }>(
      db,
      "select status, amount from public.refunds where payment_id = $1",
      [payment.id],
    );
    assertEquals([refund.status, Number(refund.amount)], ["succeeded", 5700]);
    const [note] = await systemQuery<{ n: number }>(
      db,
      "select count(*)::int as n from public.invoices where payment_id = $1 and series = 'AV'",
      [payment.id],
    );
    assertEquals(Number(note.n), 1, "its credit note");
    // The customer's list shows it canceled (a payment was made), no document for a canceled row.
    const list = (await b.client.get("/api/customer/registrations")).json<Json>();
    assertEquals(list.results.map((r: Json) => r.status), ["canceled"]);
  },
);

checkoutTest(
  "cancel_registration: an admin cancels a paid registration — places back, refund and credit note, email",
  async () => {
    const { db, deps } = await testEnv();
    const date = await makeDate(3);
    const { client, id, email } = await newCustomer();
    await add(client, date, 2);
    const intent = await checkout(client);
    await pay(client, intent.paymentIntentId);
    const [reg] = await registrationsOf(id);
    assertEquals(await placesLeft(date.uuid), 1);
    // Only admins.
    assertEquals((await client.post(`/api/admin/registration/${reg.id}/cancel`, {})).status, 403);
    assertEquals(
      (await (await as("partenaire@example.fr")).post(`/api/admin/registration/${reg.id}/cancel`, {})).status,
      403,
    );
    const admin = await as("admin@example.fr");
    assertEquals(
      (await new Client({ ip: freshIp() }).post(`/api/admin/registration/${reg.id}/cancel`, {})).status,
      401,
    );
    const res = await admin.post(`/api/admin/registration/${reg.id}/cancel`, { reason: "Date annulée" });
    assertEquals(res.status, 200, res.text);
    assertEquals(res.json<Json>().results.refunded, 11400);
    assertEquals(await placesLeft(date.uuid), 3);
    assertEquals((await registrationsOf(id)).map((r) => r.status), ["canceled"]);
    const again = await admin.post(`/api/admin/registration/${reg.id}/cancel`, {});
    assertEquals(again.status, 409);
    await drainRefunds(deps);
    await drainOutbox();
    const docs = await systemQuery<{ series: string }>(
      db,
      "select series from public.invoices where order_id = $1 order by series",
      [reg.orderId],
    );
    assertEquals(docs.map((d) => d.series), ["AV", "FA", "RE"]);
    const mails = await systemQuery<{ template: string }>(
      db,
      "select template from public.email_outbox where recipient = $1",
      [email],
    );
    assert(mails.some((m) => m.template === "registration-canceled"));
    // Canceled: the customer keeps every document issued to them, the invoice and the receipt too.
    assertEquals((await download(client, `/api/customer/registration/receipt/${reg.id}`)).status, 200);
    assertEquals((await download(client, `/api/customer/registration/invoice/${reg.id}`)).status, 200);
    assertEquals((await download(admin, `/api/customer/registration/receipt/${reg.id}`)).status, 200);
    // The cancel email promises the credit note: 'Vos sessions' offers it on the canceled row, for its
    // customer and admins only (another customer reads no such registration, partners are refused).
    const creditNote = `/api/customer/registration/credit-note/${reg.id}`;
    const page = await client.get("/dashboard/client/sessions");
    assertMatch(page.text, new RegExp(`href="${creditNote}"[^>]*data-testid="registration-credit-note"`));
    const note = await download(client, creditNote);
    assertEquals([note.status, note.headers.get("content-type")], [200, "application/pdf"]);
    assertMatch(await pdfText(note.bytes), /Avoir/i);
    assertEquals((await download(admin, creditNote)).status, 200);
    assertEquals((await download((await newCustomer()).client, creditNote)).status, 404);
    assertEquals((await download(await as("partenaire@example.fr"), creditNote)).status, 403);
    assertEquals((await download(new Client({ ip: freshIp() }), creditNote)).status, 401);
    // The admin's date page: the order reads refunded, not 'Réglée'.
    const datePage = await admin.get(`/dashboard/admin/ateliers/date/${date.uuid}`);
    assertMatch(datePage.text, /data-testid="admin-order-status">Remboursée</);
  },
);

checkoutTest(
  "recorded by the webhook alone (SQL only), then confirmed: the 'order-settle' job issues the documents once",
  async () => {
    const { db } = await testEnv();
    const date = await makeDate(3);
    const { client, id, email } = await newCustomer();
    await add(client, date, 1);
    const intent = await checkout(client);
    const card = await client.post("/api/payment/simulated/confirm", {
      paymentIntentId: intent.paymentIntentId,
      cardNumber: TEST_CARDS.succeeds,
    });
    assertEquals(card.status, 200);
    // What the Stripe webhook edge function does: one statement, no app code.
    const [row] = await systemQuery<{ recorded: boolean; overpayment: boolean }>(
      db,
      "select recorded, overpayment from public.record_card_payment('simulated', $1, 'succeeded', $2, 'eur')",
      [intent.paymentIntentId, intent.amountCents],
    );
    assertEquals([row.recorded, row.overpayment], [true, false]);
    const [{ orderId }] = await registrationsOf(id);
    const count = async (series: string) =>
      Number(
        (await systemQuery<{ n: number }>(
          db,
          "select count(*)::int as n from public.invoices where order_id = $1 and series = $2",
          [orderId, series],
        ))[0].n,
      );
    assertEquals(await count("FA"), 0, "nothing issued by the webhook itself");
    await drainOutbox();
    assertEquals(
      [await count("FA"), await count("RE")],
      [1, 1],
      "the job issued the invoice and the receipt",
    );
    // The customer's confirm arrives after: success, nothing issued twice, one email.
    const confirmed = await client.post("/api/payment/confirm", { paymentIntentId: intent.paymentIntentId });
    assertEquals(confirmed.json<Json>().message, CHECKOUT_MESSAGES.paid);
    await drainOutbox();
    assertEquals([await count("FA"), await count("RE")], [1, 1]);
    const mails = await systemQuery<{ n: number }>(
      db,
      "select count(*)::int as n from public.email_outbox where recipient = $1 and template = 'registration-confirmation'",
      [email],
    );
    assertEquals(Number(mails[0].n), 1);
  },
);

checkoutTest(
  "checking out again and again never holds a line past three hold times from its first hold",
  async () => {
    const { db } = await testEnv();
    const date = await makeDate(4);
    const { client, id } = await newCustomer();
    await add(client, date, 4);
    const line = async () =>
      (await systemQuery<{ minutesLeft: number }>(
        db,
        `select extract(epoch from l.expires_at - now()) / 60 as "minutesLeft" from public.cart_lines l
         join public.carts c on c.id = l.cart_id where c.user_id = $1`,
        [id],
      ))[0];
    const age = (firstHold: string, expiresIn: string) =>
      systemQuery(
        db,
        `update public.cart_lines set created_at = now() - $2::interval, expires_at = now() + $3::interval
         where cart_id = (select id from public.carts where user_id = $1)`,
        [id, firstHold, expiresIn],
      );
    // First held 35 minutes ago (the cart's 40-minute cap is near): the checkout still gives a full
    // hold time to pay, within the 60-minute deadline.
    await age("35 minutes", "5 minutes");
    await checkout(client);
    const first = Number((await line()).minutesLeft);
    assert(first > 19 && first <= 20, `a full hold time to pay: ${first}`);
    // First held 3 hours ago, about to expire: checking out again gives nothing more, however often.
    for (let round = 0; round < 3; round++) {
      await age("3 hours", "1 minute");
      await checkout(client);
      const left = Number((await line()).minutesLeft);
      assert(left <= 1, `checkout #${round + 1} extended the hold past its cap: ${left} min left`);
    }
    await systemQuery(
      db,
      "update public.cart_lines set expires_at = now() - interval '1 second' where cart_id = (select id from public.carts where user_id = $1)",
      [id],
    );
    const expired = await client.post("/api/cart/checkout", {});
    assertEquals(expired.status, 409);
    assertEquals(await placesLeft(date.uuid), 4, "the places came back");
  },
);

checkoutTest(
  "places added to a line during its payment stay in the cart once the order is paid",
  async () => {
    const { db } = await testEnv();
    const date = await makeDate(8);
    const { client, id } = await newCustomer();
    await add(client, date, 2);
    const intent = await checkout(client);
    const lineId = (await client.get("/api/cart")).json<Json>().results.lines[0].id;
    // During the payment: the line raised to 4, then the same date added again (+1).
    const patched = await client.patch(`/api/cart/line/${lineId}`, { quantity: 4 });
    assertEquals(patched.status, 200, patched.text);
    await add(client, date, 1);
    assertEquals(await placesLeft(date.uuid), 3);
    const confirmed = await pay(client, intent.paymentIntentId);
    assertEquals(confirmed.paymentStatus, "succeeded");
    const regs = await registrationsOf(id);
    assertEquals(regs.map((r) => [r.status, r.quantity]), [["invoiced", 2]]);
    // The 3 places beyond the 2 paid are still held in the cart, free of the paid order.
    const cart = (await client.get("/api/cart")).json<Json>();
    assertEquals(cart.results.lines.map((l: Json) => l.quantity), [3]);
    const [left] = await systemQuery<{ orderId: number | null }>(
      db,
      `select l.order_id as "orderId" from public.cart_lines l join public.carts c on c.id = l.cart_id
       where c.user_id = $1`,
      [id],
    );
    assertEquals(left.orderId, null);
    assertEquals(await placesLeft(date.uuid), 3, "2 sold + 3 held of 8");
    // They can be paid for in turn.
    const second = await checkout(client);
    assertEquals(second.amountCents, 3 * 5700);
    assertEquals((await pay(client, second.paymentIntentId)).paymentStatus, "succeeded");
    assertEquals((await registrationsOf(id)).map((r) => [r.status, r.quantity]), [["invoiced", 2], [
      "invoiced",
      3,
    ]]);
    assertEquals(await placesLeft(date.uuid), 3);
    assertEquals((await client.get("/api/cart")).json<Json>().results.lines.length, 0);
  },
);

checkoutTest(
  "'Vos sessions': order reference, venue, session link; an unpaid checkout offers to finish paying or to release it",
  async () => {
    const date = await makeDate(5);
    const { client, id } = await newCustomer();
    await add(client, date, 2);
    const intent = await checkout(client);
    const [reg] = await registrationsOf(id);
    assertEquals(reg.status, "pending");

    const page = await client.get("/dashboard/client/sessions");
    assertEquals(page.status, 200);
    const html = page.text.replaceAll("&#39;", "'");
    assert(html.includes(`Commande n° ${reg.orderId}`), "the order's reference");
    assert(
      html.includes(`href="/session/${date.slug}?date=${date.dtstart}"`),
      "the session's page at its date",
    );
    assert(html.includes("Nantes"), "the venue");
    assert(html.includes(CHECKOUT_MESSAGES.unpaidNote), "the unpaid checkout is explained");
    assert(html.includes(`href="/panier"`) && html.includes(CHECKOUT_MESSAGES.finishPaying));
    assert(html.includes(`action="/dashboard/client/sessions/${reg.id}/liberer"`));
    const api = (await client.get("/api/customer/registrations")).json<Json>().results as Json[];
    assertEquals(api.length, 1);
    assertEquals(
      [api[0].orderReference, api[0].venue, api[0].url, api[0].amount],
      [`Commande n° ${reg.orderId}`, "Nantes", `/session/${date.slug}?date=${date.dtstart}`, 114],
    );
    assert(api[0].unpaidUntil > Date.now() / 1000, "held until a time to come");

    // Another customer can neither see nor release it.
    const other = await newCustomer();
    const foreign = await other.client.post(`/api/customer/registration/${reg.id}/release`, {});
    assertEquals(foreign.status, 404);
    assertEquals((await client.post("/api/customer/registration/pas-un-id/release", {})).status, 404);

    // Released from the page's form: places back on sale, the order and its registration canceled, the
    // row gone from the list (an abandoned checkout is not a booking), the intent no longer payable.
    const released = await client.post(`/dashboard/client/sessions/${reg.id}/liberer`, {});
    assertEquals(released.status, 303);
    assertEquals(await placesLeft(date.uuid), 5);
    assertEquals((await registrationsOf(id)).map((r) => r.status), ["canceled"]);
    const { db } = await testEnv();
    const [order] = await systemQuery<{ status: string }>(
      db,
      "select status from public.orders where id = $1",
      [
        reg.orderId,
      ],
    );
    assertEquals(order.status, "canceled");
    const after = await client.get("/dashboard/client/sessions");
    assert(after.text.includes(CHECKOUT_MESSAGES.released), "the flash message says it");
    assert(!after.text.includes(`Commande n° ${reg.orderId}`));
    const again = await client.post(`/api/customer/registration/${reg.id}/release`, {});
    assertEquals(again.status, 409);
    assertEquals(again.json<Json>().message, CHECKOUT_MESSAGES.notReleasable);
    assert(intent.paymentIntentId);

    // A paid booking is not releasable (the customer writes to the support to cancel it).
    await add(client, date, 1);
    const paidIntent = await checkout(client);
    await pay(client, paidIntent.paymentIntentId);
    const paid = (await registrationsOf(id)).find((r) => r.status === "invoiced")!;
    const refused = await client.post(`/api/customer/registration/${paid.id}/release`, {});
    assertEquals(refused.status, 409);
    const list = (await client.get("/dashboard/client/sessions")).text;
    assert(!list.includes(`/dashboard/client/sessions/${paid.id}/liberer`));
    assert(!list.includes(CHECKOUT_MESSAGES.unpaidNote));
  },
);
