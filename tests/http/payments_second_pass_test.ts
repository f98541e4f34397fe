// Money that cannot double ("Quotes and payments, second pass", section 1), written the way the
// attacker worked: two requests where the code expects one, in the wrong order, from the wrong role,
// concurrently, and (on PostgreSQL, TEST_DATABASE_URL) on two app instances sharing one database.
//   * deposit then full (or full then deposit), both paid: the deal keeps its total and no more; the
//     payment it does not owe is recorded, refunded automatically through the refunds queue, with its
//     credit note; the customer is told so; status, depositPaidAt, paidAt, totalAmountPaid agree;
//   * a refusal cancels the open intents (outbox job → provider cancel); a late success is refunded;
//   * a manual 'total' or 'balance' below what is due is refused with the amount due;
//   * concurrent refunds never ask the provider for more than is refundable.
import { assert, assertEquals } from "../support/assert.ts";
import { type Client, ORIGIN, testEnv, type TestResponse } from "../support/app.ts";
import { attachment, attachmentNames, facturXSchemaErrors } from "../../lib/billing/fixtures_test.ts";
import { systemQuery } from "../support/db.ts";
import { FakeStripe } from "../support/fake_stripe.ts";
import {
  dealReadyToPay,
  dealState,
  drainBilling,
  drainRefunds,
  invoicesOf,
  type Json,
  type Parties,
  partiesOf,
  paymentsOf,
  type ReadyDeal,
  refundsOfPayment,
  settledBy,
  sharedStripeApp,
  stripeApp,
  type StripeEnv,
} from "../support/stripe_app.ts";
import { PAYMENT_MESSAGES } from "../../lib/payments/rules.ts";
import { TEST_CARDS } from "../../lib/payments/simulated.ts";
import { OUTBOX_HANDLERS } from "../../lib/jobs/queues.ts";
import { outboxQueue } from "../../lib/outbox/worker.ts";
import { openPostgres } from "../../lib/db/postgres.ts";
import type { Deps } from "../../lib/deps.ts";
import type { Database } from "../../lib/db/database.ts";

const fake = FakeStripe.start();
const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL");

function moneyTest(name: string, fn: () => Promise<void>) {
  Deno.test({ name: `money: ${name}`, fn, sanitizeOps: false, sanitizeResources: false });
}

const json = (res: TestResponse): Json => JSON.parse(res.text);
function expectStatus(res: TestResponse, status: number, what: string): Json {
  assertEquals(
    res.status,
    status,
    `${what}: expected ${status}, got ${res.status} ${res.text.slice(0, 400)}`,
  );
  return json(res);
}

let stripeShared: Promise<{ env: StripeEnv; parties: Parties }> | null = null;
function stripe() {
  stripeShared ??= (async () => {
    const env = await sharedStripeApp(fake);
    return { env, parties: await partiesOf(env) };
  })();
  return stripeShared;
}

/** A second app instance on the same database: on PostgreSQL, its own connection pool (as a second
 * process has); on PGlite, the same in-process database (one process, one database). */
async function secondInstance(
  env: StripeEnv,
): Promise<{ env: StripeEnv; parties: Parties; close(): Promise<void> }> {
  const db: Database = TEST_DATABASE_URL ? openPostgres(TEST_DATABASE_URL, { max: 4 }) : env.db;
  const other = await stripeApp(db, fake);
  return {
    env: other,
    parties: await partiesOf(other),
    close: async () => {
      if (db !== env.db) await db.close();
    },
  };
}

async function drainOutbox(deps: Deps): Promise<number> {
  const queue = outboxQueue(OUTBOX_HANDLERS);
  let total = 0;
  for (let n = await queue.drain(deps); n > 0; n = await queue.drain(deps)) total += n;
  return total;
}

async function askIntent(
  customer: Client,
  deal: ReadyDeal,
  paymentType: string,
): Promise<{ id: string; cents: number }> {
  const body = expectStatus(
    await customer.post("/api/payment/intent", { dealToken: deal.token, paymentType }),
    200,
    `intent ${paymentType}`,
  );
  return { id: String(body.paymentIntentId), cents: Math.round(Number(body.amount) * 100) };
}

async function confirm(customer: Client, intentId: string): Promise<Json> {
  return expectStatus(
    await customer.post("/api/payment/confirm", { paymentIntentId: intentId }),
    200,
    "confirm",
  );
}

/** What the deal keeps: its payments minus what was refunded or is being refunded. */
async function keptBy(db: Database, dealId: number): Promise<number> {
  const [row] = await systemQuery<{ kept: number }>(
    db,
    `select coalesce(sum(p.amount - p.refunded_amount - coalesce((select sum(r.amount) from public.refunds r
       where r.payment_id = p.id and r.status = 'pending'), 0)), 0)::bigint as kept
     from public.deal_payments p where p.deal_id = $1`,
    [dealId],
  );
  return Number(row.kept);
}

/** Status, dates and amounts agree with the payments the deal counts, and no invoice says it is paid
 * while money is due. */
async function assertDealConsistent(db: Database, deal: ReadyDeal): Promise<void> {
  const state = await dealState(db, deal.id);
  const kept = await keptBy(db, deal.id);
  assert(kept <= deal.totalTTC, `the deal keeps ${kept}, more than its total ${deal.totalTTC}`);
  if (state.paidAt) {
    assertEquals(state.totalAmountPaid, deal.totalTTC, "paidAt means the whole total is paid");
    assertEquals(state.status === "pay_total" || state.status.startsWith("refused"), true, state.status);
  }
  if (state.status === "pay_partial") {
    assert(state.depositPaidAt && !state.paidAt, "pay_partial: a deposit and no paidAt");
  }
  if (state.status === "pay_total") assert(state.paidAt, "pay_total has paidAt");
  for (const invoice of await invoicesOf(db, deal.id)) {
    if (invoice.series !== "FA" || invoice.kind === "deposit") continue;
    // A final or full invoice says the deal is paid: it must be, and say nothing is due.
    assertEquals(invoice.document.amountDue, 0, `${invoice.number} amountDue`);
    assert(state.paidAt, `${invoice.number} is a ${invoice.kind} invoice while the deal is not paid`);
  }
}

/** An issued document as the admin downloads it: a Factur-X PDF whose XML passes the EN 16931 XSD. */
async function assertFacturXValid(admin: Client, invoiceId: string, label: string): Promise<void> {
  const headers = new Headers({ cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join("; ") });
  const response = await (await testEnv()).app.request(`${ORIGIN}/quote/invoice/${invoiceId}`, { headers }, {
    remoteAddr: { transport: "tcp", hostname: admin.options.ip ?? "127.0.0.1", port: 40000 },
  });
  const pdf = new Uint8Array(await response.arrayBuffer());
  assertEquals(response.status, 200, label);
  assertEquals(await attachmentNames(pdf), ["factur-x.xml"], label);
  assertEquals(await facturXSchemaErrors(await attachment(pdf)), [], label);
}

// ---------------------------------------------------------------------------------------------------
// 1. A deal can be paid twice over.

moneyTest(
  "simulated provider: deposit then full, both paid — the deposit is refunded, the deal keeps its total",
  async () => {
    const env = await testEnv();
    const parties = await partiesOf(env);
    const deal = await dealReadyToPay(env, parties);
    const deposit = await askIntent(parties.customer, deal, "deposit");
    const full = await askIntent(parties.customer, deal, "full");
    assertEquals(full.cents, deal.totalTTC);
    // The attacker pays the first intent before any worker cancelled it at the provider.
    for (const intent of [deposit, full]) {
      expectStatus(
        await parties.customer.post("/api/payment/simulated/confirm", {
          paymentIntentId: intent.id,
          cardNumber: TEST_CARDS.succeeds,
        }),
        200,
        "card",
      );
    }
    const first = await confirm(parties.customer, deposit.id);
    assertEquals(first.message, PAYMENT_MESSAGES.refunding, "no 'success' for money being refunded");
    assertEquals(first.paymentStatus, "refunding");
    const second = await confirm(parties.customer, full.id);
    assertEquals(second.message, PAYMENT_MESSAGES.fullPaid);
    const state = await dealState(env.db, deal.id);
    assertEquals(
      {
        status: state.status,
        totalAmountPaid: state.totalAmountPaid,
        depositPaid: state.depositPaidAt !== null,
      },
      { status: "pay_total", totalAmountPaid: deal.totalTTC, depositPaid: false },
    );
    const payments = await paymentsOf(env.db, deal.id);
    assertEquals(payments.length, 2, "both card payments are recorded (the money was taken)");
    const refundedOne = payments.find((p) => p.providerPaymentId === deposit.id)!;
    const [auto] = await refundsOfPayment(env.db, refundedOne.id);
    assertEquals({ amount: auto.amount, status: auto.status }, { amount: deposit.cents, status: "pending" });
    await assertDealConsistent(env.db, deal);
    // The refunds queue → the provider → record_refund → the credit note.
    await drainRefunds(env.deps);
    assertEquals((await refundsOfPayment(env.db, refundedOne.id))[0].status, "succeeded");
    await drainBilling(env.deps);
    const invoices = await invoicesOf(env.db, deal.id);
    const customerDocs = invoices.filter((i) => i.series === "FA" || i.series === "AV");
    const overpaymentInvoice = customerDocs.find((i) => i.paymentId === refundedOne.id && i.series === "FA")!;
    const note = customerDocs.find((i) => i.series === "AV")!;
    assert(
      overpaymentInvoice && note,
      `an invoice and a credit note for the overpayment: ${invoices.map((i) => i.number)}`,
    );
    assertEquals(note.relatedInvoiceId, overpaymentInvoice.id);
    assertEquals(settledBy(note), deposit.cents);
    assertEquals(settledBy(overpaymentInvoice), deposit.cents);
    assertEquals(overpaymentInvoice.document.amountDue, 0);
    assert(
      String(overpaymentInvoice.document.lines[0].label).startsWith("Versement reçu en trop"),
      overpaymentInvoice.document.lines[0].label,
    );
    await assertFacturXValid(parties.admin, overpaymentInvoice.id, "the overpayment's advance invoice");
    await assertFacturXValid(parties.admin, note.id, "the automatic refund's credit note");
    // No commission on money given back.
    assertEquals(invoices.filter((i) => i.series === "CO" && i.paymentId === refundedOne.id).length, 0);
    const fullInvoice = customerDocs.find((i) => i.series === "FA" && i.kind === "full")!;
    assertEquals(fullInvoice.document.amountPaid, deal.totalTTC);
    assertEquals(fullInvoice.relatedInvoiceId, null, "the full invoice deducts no overpayment");
    await assertDealConsistent(env.db, deal);
    assertEquals(await keptBy(env.db, deal.id), deal.totalTTC);
    // The admin sees it: the payments card and the logs.
    const ledger = expectStatus(await parties.admin.get(`/api/deal/${deal.id}/payments`), 200, "ledger");
    const seen = (ledger.results as Json[]).find((p) => p.id === refundedOne.id)!;
    assertEquals(seen.overpayment, true);
    const page = await parties.admin.get(`/dashboard/espace-partenaire/deal/${deal.id}`);
    assertEquals(page.status, 200);
    assert(page.text.includes("Trop-perçu"), "the deal page's payments card says 'Trop-perçu'");
    const [log] = await systemQuery<{ n: number }>(
      env.db,
      `select count(*)::int as n from public.logs where service = 'payments' and context ->> 'dealId' = $1
       and message = 'Trop-perçu remboursé automatiquement'`,
      [String(deal.id)],
    );
    assertEquals(log.n, 1);
  },
);

moneyTest("simulated provider: a new intent cancels the deal's other open intents (outbox job)", async () => {
  const env = await testEnv();
  const parties = await partiesOf(env);
  const deal = await dealReadyToPay(env, parties);
  const deposit = await askIntent(parties.customer, deal, "deposit");
  const again = await askIntent(parties.customer, deal, "deposit");
  assertEquals(again.id, deposit.id, "asking twice for the same payment gives the same intent");
  await askIntent(parties.customer, deal, "full");
  await drainOutbox(env.deps);
  const card = await parties.customer.post("/api/payment/simulated/confirm", {
    paymentIntentId: deposit.id,
    cardNumber: TEST_CARDS.succeeds,
  });
  assertEquals(card.status, 422, card.text);
  const [row] = await systemQuery<{ status: string }>(
    env.db,
    "select status from public.simulated_payment_intents where id = $1",
    [deposit.id],
  );
  assertEquals(row.status, "canceled");
  // Asked again after the cancel, the deposit is a fresh intent, payable.
  const fresh = await askIntent(parties.customer, deal, "deposit");
  assert(fresh.id !== deposit.id, "a canceled intent is never handed out again");
  assertEquals(
    (await askIntent(parties.customer, deal, "deposit")).id,
    fresh.id,
    "asked again while open, the fresh intent is the same",
  );
  expectStatus(
    await parties.customer.post("/api/payment/simulated/confirm", {
      paymentIntentId: fresh.id,
      cardNumber: TEST_CARDS.succeeds,
    }),
    200,
    "fresh card",
  );
  assertEquals((await confirm(parties.customer, fresh.id)).message, PAYMENT_MESSAGES.depositPaid);
  const state = await dealState(env.db, deal.id);
  assertEquals(state.status, "pay_partial");
  await assertDealConsistent(env.db, deal);
});

async function raceBothPaid(order: "together" | "deposit-first" | "full-first") {
  const { env, parties } = await stripe();
  const other = await secondInstance(env);
  try {
    const deal = await dealReadyToPay(env, parties);
    // Two instances each hand out an intent, at once.
    const [deposit, full] = await Promise.all([
      askIntent(parties.customer, deal, "deposit"),
      askIntent(other.parties.customer, deal, "full"),
    ]);
    // Both are paid at Stripe before any cancel reaches it.
    fake.setIntentStatus(deposit.id, "succeeded");
    fake.setIntentStatus(full.id, "succeeded");
    const answers: Json[] = [];
    if (order === "together") {
      answers.push(
        ...(await Promise.all([
          confirm(parties.customer, deposit.id),
          confirm(other.parties.customer, full.id),
        ])),
      );
    } else if (order === "deposit-first") {
      answers.push(
        await confirm(parties.customer, deposit.id),
        await confirm(other.parties.customer, full.id),
      );
    } else {
      answers.push(
        await confirm(other.parties.customer, full.id),
        await confirm(parties.customer, deposit.id),
      );
    }
    assertEquals(answers.filter((a) => a.paymentStatus === "refunding").length, 1, JSON.stringify(answers));
    assertEquals(answers.filter((a) => a.paymentStatus === "succeeded").length, 1, JSON.stringify(answers));
    const payments = await paymentsOf(env.db, deal.id);
    assertEquals(payments.length, 2);
    await assertDealConsistent(env.db, deal);
    // The provider is asked to refund exactly the payment the deal does not keep.
    const before = fake.calls("POST", "/v1/refunds").length;
    await drainRefunds(env.deps);
    await drainRefunds(other.env.deps);
    const refundCalls = fake.calls("POST", "/v1/refunds").slice(before);
    assertEquals(refundCalls.length, 1, "one refund sent");
    await drainBilling(env.deps);
    await assertDealConsistent(env.db, deal);
    const kept = await keptBy(env.db, deal.id);
    const state = await dealState(env.db, deal.id);
    assertEquals(kept, state.paidAt ? deal.totalTTC : state.depositAmount, "kept = what the deal counts");
    const notes = (await invoicesOf(env.db, deal.id)).filter((i) => i.series === "AV");
    assertEquals(notes.length, 1, "the automatic refund's credit note");
  } finally {
    await other.close();
  }
}

moneyTest(
  "Stripe, two instances: deposit and full asked and confirmed at once",
  () => raceBothPaid("together"),
);
moneyTest("Stripe, two instances: deposit confirmed first, then full", () => raceBothPaid("deposit-first"));
moneyTest("Stripe, two instances: full confirmed first, then deposit", () => raceBothPaid("full-first"));

// ---------------------------------------------------------------------------------------------------
// 2. A refused deal can still be charged.

moneyTest(
  "Stripe: a refusal cancels the open intent at Stripe; a late success is refunded, never 'success'",
  async () => {
    const { env, parties } = await stripe();
    const deal = await dealReadyToPay(env, parties);
    const full = await askIntent(parties.customer, deal, "full");
    const refused = await parties.customer.patch(`/api/customer/deal/refuse/${deal.token}`, {
      refusalReason: "budget",
    });
    assertEquals(refused.status, 200, refused.text);
    // The customer's bank confirms before the cancel job reached Stripe.
    fake.setIntentStatus(full.id, "succeeded");
    const answer = await confirm(parties.customer, full.id);
    assertEquals(answer.paymentStatus, "refunding");
    assertEquals(answer.message, PAYMENT_MESSAGES.refunding);
    assertEquals((await dealState(env.db, deal.id)).status, "refused_client");
    assertEquals((await dealState(env.db, deal.id)).paidAt, null);
    // The cancel job: Stripe is asked to cancel (the intent already succeeded: Stripe refuses, the job
    // ends, the recorder's refund stands).
    await drainOutbox(env.deps);
    assertEquals(fake.calls("POST", `/v1/payment_intents/${full.id}/cancel`).length, 1);
    await drainRefunds(env.deps);
    assertEquals(fake.refundsOf(full.id).map((r) => r.amount), [deal.totalTTC]);
    await drainBilling(env.deps);
    const invoices = await invoicesOf(env.db, deal.id);
    assertEquals(
      invoices.filter((i) => i.series === "FA").map((i) => i.kind),
      ["deposit"],
      "an advance, not a 'full' invoice",
    );
    assertEquals(invoices.filter((i) => i.series === "AV").length, 1);
    assertEquals(await keptBy(env.db, deal.id), 0);
    await assertDealConsistent(env.db, deal);
    // 'Mes devis' lists no invoice of a payment the deal did not keep (no 'Facture' link for the
    // refused quote: the overpayment's advance invoice and its credit note cancel each other).
    const mine = expectStatus(await parties.customer.get("/api/customer/deal/index"), 200, "Mes devis");
    const row = (mine.results as Json[]).find((d) => d.token === deal.token)!;
    assertEquals(row.paidKinds, []);
  },
);

moneyTest("Stripe: an intent asked before a refusal is canceled at Stripe by the outbox", async () => {
  const { env, parties } = await stripe();
  const deal = await dealReadyToPay(env, parties);
  const deposit = await askIntent(parties.customer, deal, "deposit");
  // The partner refuses it (refused_partner), from the back office.
  expectStatus(
    await parties.partner.post(`/api/deal/${deal.id}/refuse`, { reason: "partner_unavailable" }),
    200,
    "partner refusal",
  );
  await drainOutbox(env.deps);
  assertEquals(fake.intents.get(deposit.id)?.status, "canceled");
  assertEquals(
    (await parties.customer.post("/api/payment/intent", { dealToken: deal.token, paymentType: "full" }))
      .status,
    409,
    "a refused deal hands out no intent",
  );
});

moneyTest("simulated provider: a refused deal's intent cannot be charged once the cancel ran", async () => {
  const env = await testEnv();
  const parties = await partiesOf(env);
  const deal = await dealReadyToPay(env, parties);
  const full = await askIntent(parties.customer, deal, "full");
  assertEquals(
    (await parties.customer.patch(`/api/customer/deal/refuse/${deal.token}`, { refusalReason: "budget" }))
      .status,
    200,
  );
  // Before the cancel job ran: the money is taken, then refunded.
  expectStatus(
    await parties.customer.post("/api/payment/simulated/confirm", {
      paymentIntentId: full.id,
      cardNumber: TEST_CARDS.succeeds,
    }),
    200,
    "card",
  );
  assertEquals((await confirm(parties.customer, full.id)).message, PAYMENT_MESSAGES.refunding);
  assertEquals((await dealState(env.db, deal.id)).status, "refused_client");
  await drainRefunds(env.deps);
  await drainBilling(env.deps);
  assertEquals(await keptBy(env.db, deal.id), 0);
  await assertDealConsistent(env.db, deal);
});

// ---------------------------------------------------------------------------------------------------
// 3. A manual 'total' or 'balance' below what is due.

moneyTest("a manual 'total' or 'balance' below what is due is refused with the amount due", async () => {
  const env = await testEnv();
  const parties = await partiesOf(env);
  const deal = await dealReadyToPay(env, parties);
  const total = await parties.admin.post(`/api/deal/${deal.id}/payments`, {
    kind: "total",
    amount: "1 000,50",
  });
  const body = expectStatus(total, 422, "total below due");
  const due = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" }).format(
    deal.totalTTC / 100,
  );
  assert(String(body.message).includes(due), `the message gives the amount due ${due}: ${body.message}`);
  assertEquals((await paymentsOf(env.db, deal.id)).length, 0);
  assertEquals((await dealState(env.db, deal.id)).status, "send");
  // A deposit, then a balance below the rest: refused too; the exact rest is accepted.
  expectStatus(
    await parties.admin.post(`/api/deal/${deal.id}/payments`, { kind: "deposit", amount: "100" }),
    200,
    "deposit",
  );
  const balance = await parties.admin.post(`/api/deal/${deal.id}/payments`, {
    kind: "balance",
    amount: "50",
  });
  expectStatus(balance, 422, "balance below due");
  const rest = (deal.totalTTC - 10_000) / 100;
  expectStatus(
    await parties.admin.post(`/api/deal/${deal.id}/payments`, {
      kind: "balance",
      amount: rest.toFixed(2).replace(".", ","),
    }),
    200,
    "exact balance",
  );
  assertEquals((await dealState(env.db, deal.id)).status, "pay_total");
  await drainBilling(env.deps);
  await assertDealConsistent(env.db, deal);
});

// ---------------------------------------------------------------------------------------------------
// 4. Concurrent refunds.

moneyTest(
  "concurrent refunds over two instances: the provider is never asked for more than refundable",
  async () => {
    const { env, parties } = await stripe();
    const other = await secondInstance(env);
    try {
      const deal = await dealReadyToPay(env, parties);
      const full = await askIntent(parties.customer, deal, "full");
      fake.setIntentStatus(full.id, "succeeded");
      await confirm(parties.customer, full.id);
      const [payment] = await paymentsOf(env.db, deal.id);
      const each = Math.floor(deal.totalTTC * 0.58);
      const amount = (each / 100).toFixed(2).replace(".", ",");
      const admins = [parties.admin, other.parties.admin, parties.admin, other.parties.admin];
      const answers = await Promise.all(
        admins.map((admin) => admin.post(`/api/deal/${deal.id}/refunds`, { paymentId: payment.id, amount })),
      );
      assertEquals(
        answers.map((a) => a.status).sort(),
        [200, 422, 422, 422],
        answers.map((a) => a.text).join("\n"),
      );
      assertEquals((await refundsOfPayment(env.db, payment.id)).length, 1);
      const before = fake.calls("POST", "/v1/refunds").length;
      await Promise.all([drainRefunds(env.deps), drainRefunds(other.env.deps)]);
      assertEquals(fake.calls("POST", "/v1/refunds").length - before, 1);
      assertEquals(fake.refundsOf(full.id).map((r) => r.amount), [each]);
    } finally {
      await other.close();
    }
  },
);

moneyTest("the database refuses a refund beyond the refundable amount (pending ones counted)", async () => {
  const env = await testEnv();
  const parties = await partiesOf(env);
  const deal = await dealReadyToPay(env, parties);
  expectStatus(
    await parties.admin.post(`/api/deal/${deal.id}/payments`, { kind: "deposit", amount: "100" }),
    200,
    "deposit",
  );
  const [payment] = await paymentsOf(env.db, deal.id);
  await systemQuery(env.db, "insert into public.refunds (payment_id, amount) values ($1, 6000)", [
    payment.id,
  ]);
  let refused = "";
  try {
    await systemQuery(env.db, "insert into public.refunds (payment_id, amount) values ($1, 6000)", [
      payment.id,
    ]);
  } catch (error) {
    refused = String(error);
  }
  assert(refused.includes("refundable"), `refused by the database: ${refused}`);
});

// Close the shared fake once every test ran.
moneyTest("(teardown)", async () => {
  await fake.close();
});
