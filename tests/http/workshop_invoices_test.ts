// Workshop invoices an accountant signs off (ARCHITECTURE.md 'Invoices an accountant signs off'), on
// PGlite and PostgreSQL: 'Gin tonic' ×2 at 67 € paid 50 € by gift voucher and 84 € by card is invoiced
// 134,00 € exactly (111,67 € HT + 22,33 € VAT, no rounding amount, due the day it was paid: BT-9, the
// reform's BR-FR-CO-09); its cancellation by an admin gives a credit note of the whole 134 € and its
// whole VAT, stating 84 € refunded to the card and 50 € given back to the voucher; a booking the voucher
// paid whole gets its credit note too; the customer still downloads the invoice the credit note
// corrects; both documents are valid against the Factur-X EN 16931 XSD.
import { XmlDocument } from "xmldoc";
import { assert, assertEquals } from "../support/assert.ts";
import { Client, ORIGIN, registrationPayload, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { attachment, facturXSchemaErrors } from "../../lib/billing/fixtures_test.ts";
import { TEST_CARDS } from "../../lib/payments/simulated.ts";
import { drainRefunds } from "../support/stripe_app.ts";
import { freshIp } from "./deals_fixtures_test.ts";
import { OUTBOX_HANDLERS } from "../../lib/jobs/queues.ts";
import { outboxQueue } from "../../lib/outbox/worker.ts";
import type { BillingDocument } from "../../lib/billing/document.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

function invoiceTest(name: string, fn: () => Promise<void>) {
  Deno.test({ name: `workshop invoices: ${name}`, fn, sanitizeOps: false, sanitizeResources: false });
}

async function newCustomer(): Promise<Client> {
  const client = new Client({ ip: freshIp() });
  const res = await client.post("/api/security/registration", registrationPayload());
  assert(res.status === 200 || res.status === 201, `registration: ${res.status} ${res.text}`);
  return client;
}

const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(new Date());

async function payCard(client: Client, intentId: string): Promise<void> {
  const card = await client.post("/api/payment/simulated/confirm", {
    paymentIntentId: intentId,
    cardNumber: TEST_CARDS.succeeds,
  });
  assertEquals(card.status, 200, card.text);
  assertEquals((await client.post("/api/payment/confirm", { paymentIntentId: intentId })).status, 200);
}

async function buyVoucher(client: Client): Promise<string> {
  const res = await client.post("/api/customer/discounts", {
    recipientName: "Camille Martin",
    recipientEmail: "camille.martin@example.fr",
    sendOn: today(),
  });
  assertEquals(res.status, 200, res.text);
  const intent = res.json<Json>().results;
  await payCard(client, intent.paymentIntentId);
  const list = (await client.get("/api/customer/discounts")).json<Json>().results;
  return list.find((v: Json) => v.id === intent.voucherId).code;
}

let counter = 0;
async function makeDate(price: number) {
  const { db } = await testEnv();
  const slug = `gin-tonic-${Date.now().toString(36)}-${++counter}`;
  const [session] = await systemQuery<{ id: number }>(
    db,
    "insert into public.workshop_sessions (slug, title, city) values ($1, 'Gin tonic', 'Lille') returning id",
    [slug],
  );
  const [row] = await systemQuery<{ uuid: string; dtstart: number }>(
    db,
    `insert into public.session_dates (session_id, dtstart, places, places_left, price_ttc)
     values ($1, date_trunc('minute', now()) + interval '10 days', 30, 30, $2)
     returning uuid::text as uuid, extract(epoch from dtstart)::bigint as dtstart`,
    [session.id, price],
  );
  return { slug, uuid: row.uuid, dtstart: Number(row.dtstart), sessionId: session.id };
}

async function book(client: Client, date: Awaited<ReturnType<typeof makeDate>>, quantity: number) {
  const res = await client.post(`/session/${date.slug}/date/${date.uuid}`, {
    session: date.sessionId,
    timestamp: date.dtstart,
    quantity,
  });
  assertEquals(res.status, 200, res.text);
}

async function download(client: Client, path: string) {
  const headers = new Headers();
  headers.set("cookie", [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
  const response = await (await testEnv()).app.request(`${ORIGIN}${path}`, { headers }, {
    remoteAddr: { transport: "tcp", hostname: client.options.ip ?? "127.0.0.1", port: 40000 },
  });
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
}

async function drainOutbox() {
  const { deps } = await testEnv();
  const queue = outboxQueue(OUTBOX_HANDLERS);
  for (let i = 0; i < 20 && (await queue.drain(deps)) > 0; i++);
}

async function documentsOf(orderId: number) {
  const { db } = await testEnv();
  return await systemQuery<{ series: string; registrationId: string | null; document: BillingDocument }>(
    db,
    `select series, registration_id::text as "registrationId", document from public.invoices
     where order_id = $1 order by series, number`,
    [orderId],
  );
}

/** The Factur-X XML of a downloaded PDF, schema-checked. */
async function xmlOf(bytes: Uint8Array): Promise<XmlDocument> {
  const xml = await attachment(bytes);
  assertEquals(await facturXSchemaErrors(xml), []);
  return new XmlDocument(new TextDecoder().decode(xml));
}

const SETTLEMENT = "rsm:SupplyChainTradeTransaction.ram:ApplicableHeaderTradeSettlement";
const SUMS = `${SETTLEMENT}.ram:SpecifiedTradeSettlementHeaderMonetarySummation`;

invoiceTest(
  "a booking paid partly by voucher: invoiced at what was paid; its cancellation credited whole",
  async () => {
    const { db, deps } = await testEnv();
    const code = await buyVoucher(await newCustomer());
    const client = await newCustomer();
    const date = await makeDate(6700);
    await book(client, date, 2);
    assertEquals((await client.post("/api/cart/code", { code })).status, 200);
    const intent = (await client.post("/api/cart/checkout", {})).json<Json>();
    assertEquals(intent.amountCents, 8400);
    await payCard(client, intent.paymentIntentId);
    const [reg] = await systemQuery<{ id: string }>(
      db,
      "select id::text from public.registrations where order_id = $1",
      [intent.orderId],
    );
    // The invoice: 134 € exactly, the voucher a means of payment (the full price taxed).
    const invoice = (await documentsOf(intent.orderId)).find((d) => d.series === "FA")!.document;
    assertEquals(
      [invoice.totalHT, invoice.totalVAT, invoice.totalTTC, invoice.rounding, invoice.amountPaid],
      [11167, 2233, 13400, 0, 13400],
    );
    for (const line of invoice.lines) assertEquals(line.totalHT, line.qty * line.unitPriceHT, line.label);
    assertEquals(invoice.lines.reduce((s, l) => s + l.qty, 0), 2);
    const invoiceXml = await xmlOf(
      (await download(client, `/api/customer/registration/invoice/${reg.id}`)).bytes,
    );
    assertEquals(
      invoiceXml.valueWithPath(
        `${SETTLEMENT}.ram:SpecifiedTradePaymentTerms.ram:DueDateDateTime.udt:DateTimeString`,
      ),
      invoice.paidAt!.replace(/-/g, ""),
      "BT-9, the day it was paid (BR-FR-CO-09)",
    );
    assertEquals(invoiceXml.valueWithPath(`${SUMS}.ram:TotalPrepaidAmount`), "134.00");
    assertEquals(invoiceXml.valueWithPath(`${SUMS}.ram:GrandTotalAmount`), "134.00");
    assertEquals(invoiceXml.valueWithPath(`${SUMS}.ram:DuePayableAmount`), "0.00");
    assertEquals(invoiceXml.valueWithPath(`${SUMS}.ram:RoundingAmount`), undefined);

    const admin = new Client({ ip: freshIp() });
    await admin.login("admin@example.fr");
    const cancel = await admin.post(`/api/admin/registration/${reg.id}/cancel`, {
      reason: "Intervenant malade",
    });
    assertEquals(cancel.status, 200, cancel.text);
    const result = cancel.json<Json>().results;
    assertEquals([result.refunded, result.voucherReturned], [8400, 5000]);
    await drainRefunds(deps);
    await drainOutbox();
    const notes = (await documentsOf(intent.orderId)).filter((d) => d.series === "AV");
    assertEquals(notes.length, 1, "one credit note for the cancellation");
    const note = notes[0].document;
    assertEquals(notes[0].registrationId, reg.id);
    assertEquals(
      [note.totalHT, note.totalVAT, note.totalTTC, note.rounding],
      [invoice.totalHT, invoice.totalVAT, invoice.totalTTC, 0],
      "the whole price and its whole VAT",
    );
    assertEquals(note.relatedNumber, invoice.number);
    const terms = note.paymentTerms.replace(/\s/g, " ");
    assert(terms.includes("84,00 € remboursés sur la carte bancaire"), terms);
    assert(terms.includes("50,00 € recrédités sur le bon cadeau"), terms);
    const noteXml = await xmlOf(
      (await download(client, `/api/customer/registration/credit-note/${reg.id}`)).bytes,
    );
    assertEquals(noteXml.valueWithPath(`${SUMS}.ram:TaxTotalAmount`), "22.33");
    // The buyer keeps the invoice the credit note corrects.
    const kept = await download(client, `/api/customer/registration/invoice/${reg.id}`);
    assertEquals(kept.status, 200);
  },
);

invoiceTest("a booking the voucher paid whole: its cancellation gives a credit note at once", async () => {
  const { db } = await testEnv();
  const code = await buyVoucher(await newCustomer());
  const client = await newCustomer();
  const date = await makeDate(4000);
  await book(client, date, 1);
  assertEquals((await client.post("/api/cart/code", { code })).status, 200);
  const paid = await client.post("/api/cart/checkout", {});
  assertEquals(paid.status, 200, paid.text);
  await drainOutbox();
  const [reg] = await systemQuery<{ id: string; orderId: number }>(
    db,
    `select g.id::text, g.order_id as "orderId" from public.registrations g join public.users u on u.id = g.user_id
     where g.date_id = (select id from public.session_dates where uuid = $1)`,
    [date.uuid],
  );
  const invoice = (await documentsOf(Number(reg.orderId))).find((d) => d.series === "FA")!.document;
  assertEquals([invoice.totalTTC, invoice.rounding, invoice.amountPaid], [4000, 0, 4000]);
  const admin = new Client({ ip: freshIp() });
  await admin.login("admin@example.fr");
  const cancel = await admin.post(`/api/admin/registration/${reg.id}/cancel`, {});
  assertEquals(cancel.status, 200, cancel.text);
  assertEquals([cancel.json<Json>().results.refunded, cancel.json<Json>().results.voucherReturned], [
    0,
    4000,
  ]);
  await drainOutbox();
  const notes = (await documentsOf(Number(reg.orderId))).filter((d) => d.series === "AV");
  assertEquals(notes.map((n) => [n.document.totalTTC, n.document.totalVAT]), [[4000, invoice.totalVAT]]);
  const terms = notes[0].document.paymentTerms.replace(/\s/g, " ");
  assert(terms.includes("40,00 € recrédités sur le bon cadeau"), terms);
  assertEquals((await download(client, `/api/customer/registration/invoice/${reg.id}`)).status, 200);
});
