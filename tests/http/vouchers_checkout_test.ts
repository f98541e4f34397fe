// Gift vouchers with money (issue 12), PGlite and PostgreSQL: buying one (POST /api/customer/discounts,
// the simulated card, the one confirm path) activates it for a year, issues its invoice in the FA series
// (category O, valid against the EN 16931 XSD) and schedules the recipient's email on the chosen day;
// redeeming it at checkout lowers the card payment, keeps the remainder, pays an order it covers whole
// without a card, and gives its reservation back when a newer checkout supersedes the order. On
// PostgreSQL, 20 simultaneous checkouts on one voucher over two app instances never take more than it
// has.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, ORIGIN, registrationPayload, TEST_LIMITS, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { attachment, facturXSchemaErrors, pdfText, plain } from "../../lib/billing/fixtures_test.ts";
import { TEST_CARDS } from "../../lib/payments/simulated.ts";
import { simulatedProvider } from "../../lib/payments/simulated.ts";
import { freshIp } from "./deals_fixtures_test.ts";
import { VOUCHER_MESSAGES } from "../../lib/vouchers/rules.ts";
import { PAID_BY_VOUCHER_MESSAGE } from "../../lib/vouchers/use_cases/redeem_at_checkout.ts";
import { loadConfig } from "../../lib/config.ts";
import { openPostgres } from "../../lib/db/postgres.ts";
import { createLogger } from "../../lib/log/logger.ts";
import { createBackground, type Deps } from "../../lib/deps.ts";
import { memoryStorage } from "../../lib/storage/storage.ts";
import { createApp } from "../../routes/_app.tsx";
import { SENT_BODY_COLUMNS, sentText } from "../support/mail.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;
const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL");

function voucherTest(name: string, fn: () => Promise<void>, ignore = false) {
  Deno.test({ name: `vouchers: ${name}`, fn, ignore, sanitizeOps: false, sanitizeResources: false });
}

async function newCustomer(app?: Client["options"]["app"]): Promise<{ client: Client; email: string }> {
  const client = new Client({ ip: freshIp(), app });
  const payload = registrationPayload();
  const res = await client.post("/api/security/registration", payload);
  assert(res.status === 200 || res.status === 201, `registration: ${res.status} ${res.text}`);
  return { client, email: payload.email };
}

const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(new Date());
const inDays = (n: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(new Date(Date.now() + n * 86400_000));

async function payCard(client: Client, intentId: string): Promise<Json> {
  const card = await client.post("/api/payment/simulated/confirm", {
    paymentIntentId: intentId,
    cardNumber: TEST_CARDS.succeeds,
  });
  assertEquals(card.status, 200, card.text);
  const res = await client.post("/api/payment/confirm", { paymentIntentId: intentId });
  assertEquals(res.status, 200, res.text);
  return res.json<Json>();
}

/** Buys and pays a voucher as `client`; returns its id and code as the buyer's list shows them. */
async function buy(client: Client, form: Json = {}): Promise<{ id: string; code: string; intent: Json }> {
  const res = await client.post("/api/customer/discounts", {
    recipientName: "Camille Martin",
    recipientEmail: "camille.martin@example.fr",
    sendOn: today(),
    message: "Joyeux anniversaire !",
    ...form,
  });
  assertEquals(res.status, 200, res.text);
  const intent = res.json<Json>().results;
  const confirmed = await payCard(client, intent.paymentIntentId);
  assertEquals(confirmed.message, VOUCHER_MESSAGES.bought);
  const list = (await client.get("/api/customer/discounts")).json<Json>().results;
  const voucher = list.find((v: Json) => v.id === intent.voucherId);
  assert(voucher, "the paid voucher is listed");
  return { id: voucher.id, code: voucher.code, intent };
}

let counter = 0;
/** A published date in 10 days at `price` cents a place (nothing else). */
async function makeDate(price: number, places = 30) {
  const { db } = await testEnv();
  const slug = `atelier-bon-${Date.now().toString(36)}-${++counter}`;
  const [session] = await systemQuery<{ id: number }>(
    db,
    "insert into public.workshop_sessions (slug, title, city) values ($1, 'Atelier bon cadeau', 'Lille') returning id",
    [slug],
  );
  const [row] = await systemQuery<{ uuid: string; dtstart: number }>(
    db,
    `insert into public.session_dates (session_id, dtstart, places, places_left, price_ttc)
     values ($1, date_trunc('minute', now()) + interval '10 days', $2, $2, $3)
     returning uuid::text as uuid, extract(epoch from dtstart)::bigint as dtstart`,
    [session.id, places, price],
  );
  return { slug, uuid: row.uuid, dtstart: Number(row.dtstart), sessionId: session.id };
}

async function book(client: Client, date: Awaited<ReturnType<typeof makeDate>>, quantity = 1) {
  const res = await client.post(`/session/${date.slug}/date/${date.uuid}`, {
    session: date.sessionId,
    timestamp: date.dtstart,
    quantity,
  });
  assertEquals(res.status, 200, res.text);
}

async function voucherRow(id: string) {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ remaining: number; status: string }>(
    db,
    "select remaining, status from public.vouchers where id = $1",
    [id],
  );
  return { remaining: Number(row.remaining), status: row.status };
}

voucherTest("buying: the form's refusals in French, customers only", async () => {
  const { client } = await newCustomer();
  const missing = await client.post("/api/customer/discounts", { recipientEmail: "pas-un-email" });
  assertEquals(missing.status, 422);
  assertEquals(missing.json<Json>().errors.recipientName, "Ce champ est requis");
  assertEquals(missing.json<Json>().errors.recipientEmail, "L'email doit être valide.");
  const past = await client.post("/api/customer/discounts", {
    recipientName: "Camille",
    recipientEmail: "camille@example.fr",
    sendOn: inDays(-2),
  });
  assertEquals(past.status, 422);
  assertEquals(past.json<Json>().message, VOUCHER_MESSAGES.sendDatePast);
  assertEquals((await new Client({ ip: freshIp() }).post("/api/customer/discounts", {})).status, 401);
  const partner = new Client({ ip: freshIp() });
  await partner.login("partenaire@example.fr");
  assertEquals((await partner.post("/api/customer/discounts", {})).status, 403);
});

voucherTest(
  "buying: paid by card, active a year, invoiced without VAT (Factur-X), emails scheduled",
  async () => {
    const { db } = await testEnv();
    const { client, email } = await newCustomer();
    const bought = await buy(client, { sendOn: inDays(10) });
    assertEquals(bought.intent.amount, 50);
    assertEquals(bought.intent.amountFormatted.replace(/\s/g, " "), "50,00 €");
    assert(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/.test(bought.code), bought.code);
    const list = (await client.get("/api/customer/discounts")).json<Json>().results;
    const v = list.find((x: Json) => x.id === bought.id);
    assertEquals(v.status, "active");
    assertEquals([v.amount, v.remaining, v.targetDate], [50, 50, inDays(10)]);
    assert(Math.abs(v.validUntil - (Date.now() / 1000 + 365 * 86400)) < 2 * 86400, "valid a year");
    assertEquals(v.invoice, `/discount/invoice/${bought.id}`);
    // The invoice: FA series of the platform, category O (outside VAT's scope), schema-valid.
    const invoice = await client.get(v.invoice);
    assertEquals(invoice.status, 200);
    const { app } = await testEnv();
    const headers = new Headers({ cookie: [...client.cookies].map(([k, val]) => `${k}=${val}`).join("; ") });
    const bytes = new Uint8Array(
      await (await app.request(`${ORIGIN}${v.invoice}`, { headers }, {
        remoteAddr: { transport: "tcp", hostname: client.options.ip!, port: 1 },
      })).arrayBuffer(),
    );
    const xml = new TextDecoder().decode(await attachment(bytes));
    assertEquals(await facturXSchemaErrors(xml), []);
    assert(xml.includes("<ram:CategoryCode>O</ram:CategoryCode>"), "category O");
    const text = plain(await pdfText(bytes));
    assert(text.includes("Facture de bon cadeau") && text.includes("hors du champ de la TVA"), text);
    const [row] = await systemQuery<{ number: string; kind: string; vat: number }>(
      db,
      `select i.number, i.kind, i.total_vat as vat from public.invoices i join public.vouchers v on v.invoice_id = i.id
     where v.id = $1`,
      [bought.id],
    );
    assert(/^FA-\d{4}-CC-\d{5}$/.test(row.number), row.number);
    assertEquals([row.kind, Number(row.vat)], ["voucher", 0]);
    // The recipient's email leaves on the chosen day (09:00 Paris), the buyer's confirmation at once.
    const stored = await systemQuery<
      { template: string; recipient: string; text: string; sealed: string | null; wait: number }
    >(
      db,
      `select template, recipient, ${SENT_BODY_COLUMNS}, extract(epoch from next_attempt_at - now())::float8 as wait
     from public.email_outbox where recipient in ($1, 'camille.martin@example.fr') and template like 'gift-voucher%'
     and created_at > now() - interval '1 minute' order by template`,
      [email],
    );
    // Stored with the code masked (what admins and backups read); sent with it.
    assert(!stored.some((m) => m.text.includes(bought.code)), "no code in clear in the outbox");
    const mails = await Promise.all(stored.map(async (m) => ({ ...m, text: await sentText(m) })));
    const gift = mails.find((m) => m.template === "gift-voucher" && m.text.includes(bought.code));
    assert(gift, JSON.stringify(mails));
    assert(gift.wait > 8 * 86400 && gift.wait < 11 * 86400, `sent in 10 days: ${gift.wait}`);
    assert(gift.text.includes(`/discount/pdf/${bought.id}?code=`), "the PDF link");
    assert(mails.some((m) => m.template === "gift-voucher-bought" && m.recipient === email && m.wait < 60));
    // Reported again (the webhook, the reconciliation): nothing more.
    await client.post("/api/payment/confirm", { paymentIntentId: bought.intent.paymentIntentId });
    const gifts = await systemQuery<{ text: string; sealed: string | null }>(
      db,
      `select ${SENT_BODY_COLUMNS} from public.email_outbox where template = 'gift-voucher' and recipient = $1`,
      [gift.recipient],
    );
    const texts = await Promise.all(gifts.map(sentText));
    assertEquals(texts.filter((text) => text.includes(bought.code)).length, 1);
  },
);

voucherTest("redeeming: the voucher lowers the card payment and keeps its remainder", async () => {
  const { db } = await testEnv();
  const buyer = await newCustomer();
  const voucher = await buy(buyer.client);
  const friend = await newCustomer();
  const date = await makeDate(3000);
  await book(friend.client, date, 1);
  const applied = await friend.client.post("/api/cart/code", { code: voucher.code });
  assertEquals(applied.status, 200, applied.text);
  const cart = (await friend.client.get("/api/cart")).json<Json>().results;
  assertEquals([cart.total, cart.discount, cart.toPay], [3000, 3000, 0]);
  // 30 € of 50 €: the voucher covers it whole, no card.
  const first = await friend.client.post("/api/cart/checkout", {});
  assertEquals(first.status, 200, first.text);
  const paid = first.json<Json>();
  assertEquals(paid.paidByVoucher, true);
  assertEquals(paid.message, PAID_BY_VOUCHER_MESSAGE);
  assertEquals(await voucherRow(voucher.id), { remaining: 2000, status: "active" });
  const registrations = (await friend.client.get("/api/customer/registrations")).json<Json>().results;
  assertEquals(registrations.length, 1);
  assertEquals([registrations[0].status, registrations[0].discount.amount], ["invoiced", 30]);
  // 'Montant' is what the card paid (nothing here), the voucher's share beside it.
  assertEquals(registrations[0].amount, 0);
  const sessionsPage = (await friend.client.get("/dashboard/client/sessions")).text;
  assert(/\+ 30,00\s€ en bon cadeau/.test(sessionsPage), "the voucher's share beside the amount");
  assert(/data-testid="registration-amount">0,00\s€</.test(sessionsPage), "the card paid nothing");
  const docs = await systemQuery<{ series: string }>(
    db,
    "select series from public.invoices where order_id = $1 order by series",
    [paid.orderId],
  );
  assertEquals(docs.map((d) => d.series), ["FA", "RE"]);
  // The rest (20 €) on 2 places at 30 €: the card pays 40 €.
  await book(friend.client, date, 2);
  assertEquals((await friend.client.post("/api/cart/code", { code: voucher.code })).status, 200);
  const second = (await friend.client.post("/api/cart/checkout", {})).json<Json>();
  assertEquals(second.amountCents, 4000);
  assertEquals((await voucherRow(voucher.id)).remaining, 0);
  await payCard(friend.client, second.paymentIntent ?? second.paymentIntentId);
  const [order] = await systemQuery<{ status: string; discount: number }>(
    db,
    "select status, discount_amount as discount from public.orders where id = $1",
    [second.orderId],
  );
  assertEquals([order.status, Number(order.discount)], ["paid", 2000]);
  const uses = await systemQuery<{ amount: number; status: string }>(
    db,
    "select amount, status from public.voucher_redemptions where voucher_id = $1 order by amount desc",
    [voucher.id],
  );
  assertEquals(uses.map((u) => [Number(u.amount), u.status]), [[3000, "consumed"], [2000, "consumed"]]);
  // Used up: the code is refused now.
  const again = await friend.client.post("/api/cart/code", { code: voucher.code });
  assertEquals(again.json<Json>().message, VOUCHER_MESSAGES.codeEmpty);
  // The buyer sees what is left; the friend sees the voucher it used, without the invoice.
  const mine = (await buyer.client.get("/api/customer/discounts")).json<Json>().results;
  assertEquals(mine.find((v: Json) => v.id === voucher.id).remaining, 0);
  const theirs = (await friend.client.get("/api/customer/discounts")).json<Json>().results;
  assertEquals(theirs.find((v: Json) => v.id === voucher.id).invoice, null);
});

voucherTest("redeeming: a newer checkout gives the reservation back and takes it again", async () => {
  const buyer = await newCustomer();
  const voucher = await buy(buyer.client);
  const { client } = await newCustomer();
  await book(client, await makeDate(8000), 1);
  assertEquals((await client.post("/api/cart/code", { code: voucher.code })).status, 200);
  const first = (await client.post("/api/cart/checkout", {})).json<Json>();
  assertEquals(first.amountCents, 3000);
  assertEquals((await voucherRow(voucher.id)).remaining, 0);
  const second = (await client.post("/api/cart/checkout", {})).json<Json>();
  assertEquals(second.amountCents, 3000, "the code stays on the cart until paid");
  assertEquals((await voucherRow(voucher.id)).remaining, 0, "never taken twice");
  const { db } = await testEnv();
  const uses = await systemQuery<{ status: string }>(
    db,
    "select status from public.voucher_redemptions where voucher_id = $1 order by created_at",
    [voucher.id],
  );
  assertEquals(uses.map((u) => u.status), ["released", "reserved"]);
  // Paying the superseded intent is refunded, never counted.
  await payCard(client, first.paymentIntentId);
  assertEquals((await voucherRow(voucher.id)).remaining, 0);
});

voucherTest(
  "an organiser's cancellation gives the voucher its share back, registration by registration",
  async () => {
    const { db } = await testEnv();
    const buyer = await newCustomer();
    const voucher = await buy(buyer.client);
    const { client, email } = await newCustomer();
    const first = await makeDate(4000);
    const second = await makeDate(4000);
    await book(client, first, 1);
    await book(client, second, 1);
    assertEquals((await client.post("/api/cart/code", { code: voucher.code })).status, 200);
    // 80 € of places: the voucher pays 50 €, the card 30 €.
    const intent = (await client.post("/api/cart/checkout", {})).json<Json>();
    assertEquals(intent.amountCents, 3000);
    await payCard(client, intent.paymentIntentId);
    assertEquals((await voucherRow(voucher.id)).remaining, 0);
    // Nearly expired when the organiser cancels: the give-back keeps it usable three months at least.
    await systemQuery(
      db,
      "update public.vouchers set valid_until = now() + interval '10 days' where id = $1",
      [
        voucher.id,
      ],
    );
    const regs = await systemQuery<{ id: string; uuid: string; amount: number; discount: number }>(
      db,
      `select g.id::text, d.uuid::text, g.amount, g.discount_amount as discount from public.registrations g
       join public.session_dates d on d.id = g.date_id where g.order_id = $1 order by g.discount_amount`,
      [intent.orderId],
    );
    assertEquals(regs.map((r) => Number(r.discount)), [1000, 4000]);
    const admin = new Client({ ip: freshIp() });
    await admin.login("admin@example.fr");
    // One registration of the order canceled: its share alone (10 €) goes back; its card share (30 €)
    // is refunded to the card.
    const one = await admin.post(`/api/admin/registration/${regs[0].id}/cancel`, {
      reason: "Intervenant malade",
    });
    assertEquals(one.status, 200, one.text);
    assertEquals([one.json<Json>().results.refunded, one.json<Json>().results.voucherReturned], [3000, 1000]);
    assertEquals(await voucherRow(voucher.id), { remaining: 1000, status: "active" });
    // Then the other's date is canceled: its 40 €, all paid by the voucher, go back to it.
    const dateCancel = await admin.post(`/api/admin/session/date/${regs[1].uuid}/cancel`, {
      reason: "Salle indisponible",
    });
    assertEquals(dateCancel.status, 200, dateCancel.text);
    assertEquals(await voucherRow(voucher.id), { remaining: 5000, status: "active" });
    const [use] = await systemQuery<{ amount: number; returned: number; status: string; validDays: number }>(
      db,
      `select r.amount, r.returned_amount as returned, r.status,
         extract(epoch from v.valid_until - now()) / 86400 as "validDays"
       from public.voucher_redemptions r join public.vouchers v on v.id = r.voucher_id where r.voucher_id = $1`,
      [voucher.id],
    );
    assertEquals([Number(use.amount), Number(use.returned), use.status], [5000, 5000, "consumed"]);
    assert(Number(use.validDays) > 88, `valid three months more: ${use.validDays}`);
    const refunds = await systemQuery<{ amount: number }>(
      db,
      `select r.amount from public.refunds r join public.deal_payments p on p.id = r.payment_id
       where p.order_id = $1 and r.status <> 'failed'`,
      [intent.orderId],
    );
    assertEquals(refunds.map((r) => Number(r.amount)), [3000], "the card gets its 30 € only");
    const mails = await systemQuery<{ text: string }>(
      db,
      "select text_body as text from public.email_outbox where recipient = $1 and template = 'registration-canceled' order by created_at",
      [email],
    );
    assertEquals(mails.length, 2);
    for (const mail of mails) mail.text = mail.text.replace(/\s/g, " ");
    assert(
      mails[0].text.includes("10,00 €") && mails[0].text.includes("recréditée sur votre bon cadeau"),
      mails[0].text,
    );
    assert(
      mails[1].text.includes("40,00 €") && mails[1].text.includes("recréditée sur votre bon cadeau"),
      mails[1].text,
    );
    // The voucher pays again.
    const again = await client.post("/api/cart/code", { code: voucher.code });
    assertEquals(again.status, 200, again.text);
  },
);

/** A second instance of the app: its own pool on the same PostgreSQL database. */
async function secondInstance() {
  const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: ORIGIN, ...TEST_LIMITS })[name]);
  const db = openPostgres(TEST_DATABASE_URL!, { max: 4 });
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
}

voucherTest(
  "20 simultaneous checkouts on one voucher, on two instances, never take more than it has",
  async () => {
    const { db, app } = await testEnv();
    const second = await secondInstance();
    try {
      const buyer = await newCustomer();
      const voucher = await buy(buyer.client);
      const date = await makeDate(3000, 40);
      const customers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => newCustomer(i % 2 === 0 ? app : second.app)),
      );
      for (const { client } of customers) {
        await book(client, date, 1);
        assertEquals((await client.post("/api/cart/code", { code: voucher.code })).status, 200);
      }
      const answers = await Promise.all(customers.map(({ client }) => client.post("/api/cart/checkout", {})));
      assertEquals(
        answers.map((a) => a.status),
        answers.map(() => 200),
        answers.map((a) => a.text).join("\n"),
      );
      const [row] = await systemQuery<{ remaining: number; taken: number; discounts: number; uses: number }>(
        db,
        `select v.remaining,
           (select coalesce(sum(r.amount), 0) from public.voucher_redemptions r
            where r.voucher_id = v.id and r.status <> 'released') as taken,
           (select coalesce(sum(o.discount_amount), 0) from public.orders o
            where o.id in (select order_id from public.voucher_redemptions r where r.voucher_id = v.id)) as discounts,
           (select count(*) from public.voucher_redemptions r where r.voucher_id = v.id)::int as uses
         from public.vouchers v where v.id = $1`,
        [voucher.id],
      );
      assert(Number(row.remaining) >= 0, "never below zero");
      assertEquals(Number(row.taken), 5000, "exactly its amount, once");
      assertEquals(Number(row.discounts), 5000, "the orders' discounts add up to it");
      assertEquals(Number(row.remaining), 0);
      assertEquals(row.uses, 2, "30 € then 20 €: two orders used it");
      const byVoucher = answers.filter((a) =>
        a.json<Json>().results?.paidByVoucher ?? a.json<Json>().paidByVoucher
      );
      assertEquals(byVoucher.length, 1, "one order paid by the voucher alone");
    } finally {
      await second.db.close();
    }
  },
  !TEST_DATABASE_URL,
);
