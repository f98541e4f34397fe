// Card payments with Stripe, end to end, against a local fake of Stripe's HTTP API (tests/support/
// fake_stripe.ts) with the real `stripe` client in the path and real signed webhooks:
//   * POST /api/payment/intent: the amount is the server's (deposit = total × percentage, 35 % when
//     unset; full; the remaining balance after a deposit; no deposit when hasDeposit is false), only for
//     the deal's customer, the same PaymentIntent when asked twice (idempotency key per deal, kind and
//     amount), the fake receiving the server's amount and never the request's;
//   * each PaymentIntent recorded exactly once whatever reports it — the customer's confirm call, the
//     webhook (mounted by the app at /api/webhooks/stripe, and the Supabase Edge Function itself), the
//     reconciliation job — in any order, any number of times, across a database restart, with bad
//     signatures refused, the state re-fetched from Stripe, unknown intents ignored, Stripe's 500/429
//     answered with a 500 so that Stripe retries;
//   * every case ends with exactly one deal_payments row, the deal moved (pay_partial / pay_total,
//     depositPaidAt / paidAt, amounts in cents) and, once the billing queue drained, one customer
//     invoice (FA) and one commission invoice (CO) for the payment;
//   * refunds by an admin through Stripe (full and partial), recorded once whatever the webhooks do,
//     with one credit note (AV) each referencing the invoice;
//   * the simulated provider of the offline default going through the same recorders.
// Runs on PGlite (default) and on PostgreSQL (TEST_DATABASE_URL); the Edge Function case needs
// DATABASE_URL (an admin URL: it creates and drops its own database).
import { assert, assertEquals } from "../support/assert.ts";
import { Client, ORIGIN, testEnv, type TestResponse } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { FakeStripe } from "../support/fake_stripe.ts";
import {
  assertDealPaid,
  assertRecordedOnce,
  clientOf,
  CUSTOMER2,
  dealReadyToPay,
  dealState,
  deliverToApp,
  drainBilling,
  drainRefunds,
  invoicesOf,
  type Json,
  loggedInto,
  type Parties,
  partiesOf,
  paymentsOf,
  paymentsOfIntent,
  prepareDatabase,
  type ReadyDeal,
  refundsOfPayment,
  settledBy,
  sharedStripeApp,
  stripeApp,
  type StripeEnv,
  trackedDatabase,
} from "../support/stripe_app.ts";
import { reconcilePayments } from "../../lib/payments/use_cases/reconcile.ts";
import { REFUND_MESSAGES } from "../../lib/payments/rules.ts";
import { simulatedSettlementQueue } from "../../lib/payments/queues.ts";
import { PAYMENT_MESSAGES } from "../../lib/payments/rules.ts";
import { TEST_CARDS } from "../../lib/payments/simulated.ts";
import { JOBS } from "../../lib/jobs/registry.ts";
import { runJob } from "../../lib/jobs/scheduler.ts";
import { openPglite } from "../../lib/db/pglite.ts";
import { openPostgres } from "../../lib/db/postgres.ts";
import type { Database } from "../../lib/db/database.ts";
import { withFreshDatabase } from "../../scripts/fresh_database.ts";
import { handlerFromEnvironment } from "../../supabase/functions/stripe-webhook/index.ts";

const fake = FakeStripe.start();

let shared: Promise<{ env: StripeEnv; parties: Parties }> | null = null;
function stripe(): Promise<{ env: StripeEnv; parties: Parties }> {
  shared ??= (async () => {
    const env = await sharedStripeApp(fake);
    return { env, parties: await partiesOf(env) };
  })();
  return shared;
}

function paymentTest(name: string, fn: () => Promise<void>, options: { ignore?: boolean } = {}) {
  Deno.test({
    name: `payments (Stripe): ${name}`,
    fn,
    sanitizeOps: false,
    sanitizeResources: false,
    ...options,
  });
}

// ---------------------------------------------------------------------------------------------------
// Helpers.

const json = (res: TestResponse): Json => JSON.parse(res.text);

function expectStatus(res: TestResponse, status: number, what: string): Json {
  assertEquals(
    res.status,
    status,
    `${what}: expected ${status}, got ${res.status} ${res.text.slice(0, 400)}`,
  );
  return json(res);
}

/** Deposit of a total at a percentage, rounded half up to the cent (computed here independently). */
const depositOf = (total: number, percent: number) => Math.floor((total * percent + 50) / 100);

interface Intent {
  id: string;
  clientSecret: string;
  /** Euros, as the API answers. */
  amount: number;
  kind: string;
  paymentType: string;
}

async function askIntent(
  customer: Client,
  deal: ReadyDeal,
  paymentType: string,
  extra: Json = {},
): Promise<Intent> {
  const body = expectStatus(
    await customer.post("/api/payment/intent", { dealToken: deal.token, paymentType, ...extra }),
    200,
    `intent ${paymentType}`,
  );
  assertEquals(body.status, "success");
  assert(/^pi_[A-Za-z0-9]+$/.test(body.paymentIntentId), `a Stripe intent id: ${body.paymentIntentId}`);
  assertEquals(body.results.paymentIntentId, body.paymentIntentId);
  return {
    id: body.paymentIntentId,
    clientSecret: body.clientSecret,
    amount: body.amount,
    kind: body.kind,
    paymentType: body.paymentType,
  };
}

async function confirm(customer: Client, intentId: string): Promise<Json> {
  return expectStatus(
    await customer.post("/api/payment/confirm", { paymentIntentId: intentId }),
    200,
    "confirm",
  );
}

/** Delivers `event` to the app's webhook mount `times` times, each answered 200. */
async function deliverOk(env: StripeEnv, event: Json, times = 1): Promise<void> {
  for (let i = 0; i < times; i++) {
    const res = await deliverToApp(env, await fake.delivery(event));
    assertEquals(
      res.status,
      200,
      `webhook ${event.type} delivery ${i + 1}: ${res.status} ${JSON.stringify(res.body)}`,
    );
    assertEquals(res.body.received, true);
  }
}

async function intentRow(db: Database, id: string): Promise<Json | undefined> {
  const [row] = await systemQuery<Json>(
    db,
    `select id, provider, deal_id as "dealId", customer_id as "customerId", kind, amount, status,
       idempotency_key as "idempotencyKey" from public.payment_intents where id = $1`,
    [id],
  );
  return row;
}

async function providerEvent(db: Database, id: string): Promise<number> {
  const rows = await systemQuery(db, "select 1 from public.provider_events where id = $1", [id]);
  return rows.length;
}

/** A deal paid by card through the confirm call (kind 'total' unless `type` says otherwise). */
async function paidDeal(
  env: StripeEnv,
  parties: Parties,
  type: "full" | "deposit" = "full",
): Promise<{ deal: ReadyDeal; intent: Intent; paymentId: string; amount: number }> {
  const deal = await dealReadyToPay(env, parties);
  const intent = await askIntent(parties.customer, deal, type);
  fake.setIntentStatus(intent.id, "succeeded");
  await confirm(parties.customer, intent.id);
  const amount = Math.round(intent.amount * 100);
  const payment = await assertRecordedOnce(env, deal.id, intent.id, {
    kind: type === "full" ? "total" : "deposit",
    amount,
  });
  return { deal, intent, paymentId: payment.id, amount };
}

// ---------------------------------------------------------------------------------------------------
// The amount, computed on the server.

paymentTest(
  "the deposit is the total × the deal's percentage; asking twice gives the same PaymentIntent",
  async () => {
    const { env, parties } = await stripe();
    const config = expectStatus(await clientOf(env).get("/api/payment/config"), 200, "config");
    assertEquals(config.results, { publicKey: fake.publishableKey, provider: "stripe", demo: false });

    const deal = await dealReadyToPay(env, parties, {
      settings: { hasDeposit: true, depositPercentage: 40 },
    });
    const expected = depositOf(deal.totalTTC, 40);
    const before = fake.calls("POST", "/v1/payment_intents").length;
    // Whatever amount the request claims is ignored.
    const first = await askIntent(parties.customer, deal, "deposit", { amount: 1, amountCents: 1, total: 1 });
    assertEquals(first.amount, expected / 100, "the answer is in euros");
    assertEquals(first.kind, "deposit");
    assertEquals(first.paymentType, "deposit");
    assert(first.clientSecret.startsWith(`${first.id}_secret_`), "the client secret of the intent");

    const created = fake.calls("POST", "/v1/payment_intents").slice(before);
    assertEquals(created.length, 1, "one call to Stripe");
    const call = created[0];
    assertEquals(call.authorization, `Bearer ${fake.secretKey}`);
    assertEquals(call.idempotencyKey, `deal-${deal.id}-deposit-${expected}-${parties.customerId}`);
    assertEquals(call.params.description, `Devis n° ${deal.id} — acompte`, "only what the key determines");
    assertEquals(call.params.amount, String(expected), "Stripe receives the amount the server computed");
    assertEquals(call.params.currency, "eur");
    assertEquals(call.params.automatic_payment_methods, { enabled: "true" });
    assertEquals(call.params.metadata, {
      dealId: String(deal.id),
      kind: "deposit",
      customerId: parties.customerId,
    });
    assertEquals(fake.intents.get(first.id)?.amount, expected);

    const row = await intentRow(env.db, first.id);
    assertEquals(row, {
      id: first.id,
      provider: "stripe",
      dealId: deal.id,
      customerId: parties.customerId,
      kind: "deposit",
      amount: expected,
      status: "requires_payment_method",
      idempotencyKey: `deal-${deal.id}-deposit-${expected}-${parties.customerId}`,
    });

    // Asking again (the dialog reopened, a double click, the older quote page) gives the same intent.
    const again = await askIntent(parties.customer, deal, "deposit", { amount: 999999 });
    assertEquals(again.id, first.id);
    const quotePage = expectStatus(
      await parties.customer.post("/quote/stripe/create", { id: deal.token, type: "deposit" }),
      200,
      "quote page intent",
    );
    assertEquals(quotePage.paymentIntentId, first.id);
    const all = fake.calls("POST", "/v1/payment_intents").slice(before);
    assertEquals(all.length, 3);
    assertEquals(all.map((c) => c.replayed), [false, true, true], "Stripe replays the same intent");
    assertEquals(
      fake.intentsWithMetadata("dealId", String(deal.id)).length,
      1,
      "one PaymentIntent at Stripe",
    );
    assertEquals(
      (await systemQuery(env.db, "select 1 from public.payment_intents where deal_id = $1", [deal.id]))
        .length,
      1,
    );
    assertEquals((await paymentsOf(env.db, deal.id)).length, 0, "nothing is paid yet");
  },
);

paymentTest(
  "35 % when the percentage is unset, then the remaining balance; full payment; no deposit offered",
  async () => {
    const { env, parties } = await stripe();
    // The percentage emptied by the partner: the 35 % fallback.
    const deal = await dealReadyToPay(env, parties, {
      settings: { hasDeposit: true, depositPercentage: null },
    });
    assertEquals(deal.settings.depositPercentage ?? null, null);
    const deposit = depositOf(deal.totalTTC, 35);
    const intent = await askIntent(parties.customer, deal, "deposit");
    assertEquals(Math.round(intent.amount * 100), deposit);
    assertEquals(fake.intents.get(intent.id)?.amount, deposit);
    // 'remaining' before any deposit is not a payment this deal offers.
    const early = await parties.customer.post("/api/payment/intent", {
      dealToken: deal.token,
      paymentType: "remaining",
    });
    assertEquals(expectStatus(early, 409, "remaining before a deposit").message, PAYMENT_MESSAGES.notPayable);

    fake.setIntentStatus(intent.id, "succeeded");
    const confirmed = await confirm(parties.customer, intent.id);
    assertEquals(confirmed.paymentStatus, "succeeded");
    assertEquals(confirmed.message, PAYMENT_MESSAGES.depositPaid);
    await assertRecordedOnce(env, deal.id, intent.id, { kind: "deposit", amount: deposit });
    await assertDealPaid(env.db, deal.id, {
      status: "pay_partial",
      depositAmount: deposit,
      totalAmountPaid: null,
    });

    // After the deposit: no second deposit; 'remaining' (and 'full') is the balance, total − deposit.
    const again = await parties.customer.post("/api/payment/intent", {
      dealToken: deal.token,
      paymentType: "deposit",
    });
    assertEquals(expectStatus(again, 409, "a second deposit").message, PAYMENT_MESSAGES.depositUnavailable);
    const balance = await askIntent(parties.customer, deal, "remaining", { amount: 1 });
    assertEquals(Math.round(balance.amount * 100), deal.totalTTC - deposit);
    assertEquals(balance.kind, "balance");
    assertEquals(balance.paymentType, "remaining");
    assertEquals(fake.intents.get(balance.id)?.amount, deal.totalTTC - deposit);
    assertEquals(
      (await askIntent(parties.customer, deal, "full")).id,
      balance.id,
      "'full' after a deposit is the balance",
    );
    fake.setIntentStatus(balance.id, "succeeded");
    assertEquals((await confirm(parties.customer, balance.id)).message, PAYMENT_MESSAGES.fullPaid);
    await assertRecordedOnce(env, deal.id, balance.id, { kind: "balance", amount: deal.totalTTC - deposit });
    await assertDealPaid(env.db, deal.id, {
      status: "pay_total",
      depositAmount: deposit,
      totalAmountPaid: deal.totalTTC,
    });
    // The final invoice deducts the deposit invoice.
    const invoices = await invoicesOf(env.db, deal.id);
    assertEquals(invoices.map((i) => `${i.series}:${i.kind}`).sort(), [
      "CO:deposit",
      "CO:final",
      "FA:deposit",
      "FA:final",
    ]);
    const depositInvoice = invoices.find((i) => i.series === "FA" && i.kind === "deposit")!;
    assertEquals(
      invoices.find((i) => i.series === "FA" && i.kind === "final")!.relatedInvoiceId,
      depositInvoice.id,
    );
    // Paid: nothing more to pay.
    const paid = await parties.customer.post("/api/payment/intent", {
      dealToken: deal.token,
      paymentType: "full",
    });
    assertEquals(expectStatus(paid, 409, "a paid deal").message, PAYMENT_MESSAGES.nothingToPay);
    // The API shows the deal as the spec says: euros and unix seconds.
    const shown = expectStatus(await parties.admin.get(`/api/deal/get/${deal.id}`), 200, "deal").results;
    assertEquals(shown.status, "pay_total");
    assertEquals(shown.depositAmount, deposit / 100);
    assert(Math.abs(shown.depositPaidAt - Date.now() / 1000) < 600, "depositPaidAt in unix seconds");
    assert(Math.abs(shown.paidAt - Date.now() / 1000) < 600, "paidAt in unix seconds");

    // A deal without a deposit: 'deposit' refused in French, 'full' is the total.
    const noDeposit = await dealReadyToPay(env, parties, { settings: { hasDeposit: false } });
    const refused = await parties.customer.post("/api/payment/intent", {
      dealToken: noDeposit.token,
      paymentType: "deposit",
    });
    assertEquals(
      expectStatus(refused, 409, "deposit not offered").message,
      "Le paiement par acompte n'est pas disponible pour ce devis",
    );
    assertEquals(fake.intentsWithMetadata("dealId", String(noDeposit.id)).length, 0, "Stripe was not called");
    const full = await askIntent(parties.customer, noDeposit, "full", { amount: 100 });
    assertEquals(Math.round(full.amount * 100), noDeposit.totalTTC);
    assertEquals(full.kind, "total");
    assertEquals(fake.intents.get(full.id)?.amount, noDeposit.totalTTC);
    fake.setIntentStatus(full.id, "succeeded");
    await confirm(parties.customer, full.id);
    await assertRecordedOnce(env, noDeposit.id, full.id, { kind: "total", amount: noDeposit.totalTTC });
    await assertDealPaid(env.db, noDeposit.id, {
      status: "pay_total",
      depositAmount: null,
      totalAmountPaid: noDeposit.totalTTC,
    });
  },
);

paymentTest(
  "the deal renamed between two asks: still the same PaymentIntent, never a Stripe idempotency error",
  async () => {
    const { env, parties } = await stripe();
    const deal = await dealReadyToPay(env, parties, { settings: { hasDeposit: false } });
    const first = await askIntent(parties.customer, deal, "full");
    // The admin corrects the deal's name: the amount, the kind and the deal are the same.
    const renamed = await parties.admin.patch(`/api/deal/${deal.id}`, {
      name: `Anniversaire renommé ${deal.id}`,
    });
    assertEquals(expectStatus(renamed, 200, "rename").results.status, "send");
    const res = await parties.customer.post("/api/payment/intent", {
      dealToken: deal.token,
      paymentType: "full",
    });
    const refusedByStripe = fake.calls("POST", "/v1/payment_intents").filter((c) =>
      String(c.idempotencyKey).startsWith(`deal-${deal.id}-total-`) && c.status === 400
    );
    assertEquals(
      refusedByStripe.map((c) => c.params.description),
      [],
      `Stripe answered idempotency_error: the deal's key was reused with another description (the app answered ${res.status})`,
    );
    const again = expectStatus(res, 200, "the same intent asked again after a rename");
    assertEquals(again.paymentIntentId, first.id);
  },
);

paymentTest(
  "only the deal's customer gets an intent: anonymous, partner, admin and another customer are refused",
  async () => {
    const { env, parties } = await stripe();
    const deal = await dealReadyToPay(env, parties);
    const before = fake.calls("POST", "/v1/payment_intents").length;
    const ask = (client: Client) =>
      client.post("/api/payment/intent", { dealToken: deal.token, paymentType: "full" });
    expectStatus(await ask(clientOf(env)), 401, "anonymous");
    assertEquals(
      expectStatus(await ask(parties.partner), 403, "partner").message,
      PAYMENT_MESSAGES.customersOnly,
    );
    assertEquals(
      expectStatus(await ask(parties.admin), 403, "admin").message,
      PAYMENT_MESSAGES.customersOnly,
    );
    const other = await loggedInto(env, CUSTOMER2);
    expectStatus(await ask(other), 404, "another customer");
    assertEquals(fake.calls("POST", "/v1/payment_intents").length, before, "Stripe was never called");
    // Nor can another customer confirm the customer's intent.
    const intent = await askIntent(parties.customer, deal, "full");
    fake.setIntentStatus(intent.id, "succeeded");
    const stolen = await other.post("/api/payment/confirm", { paymentIntentId: intent.id });
    assertEquals(
      expectStatus(stolen, 404, "another customer's confirm").message,
      PAYMENT_MESSAGES.confirmError,
    );
    expectStatus(
      await clientOf(env).post("/api/payment/confirm", { paymentIntentId: intent.id }),
      401,
      "anonymous",
    );
    assertEquals((await paymentsOf(env.db, deal.id)).length, 0);
    // The customer's own confirm records it.
    await confirm(parties.customer, intent.id);
    await assertRecordedOnce(env, deal.id, intent.id, { kind: "total", amount: deal.totalTTC });
  },
);

// ---------------------------------------------------------------------------------------------------
// Exactly once: confirm, webhook, both, in any order, any number of times.

paymentTest("confirm without any webhook records the payment once", async () => {
  const { env, parties } = await stripe();
  const deal = await dealReadyToPay(env, parties);
  const intent = await askIntent(parties.customer, deal, "deposit");
  const amount = Math.round(intent.amount * 100);
  // Confirmed before Stripe says it succeeded: nothing is recorded.
  const early = await confirm(parties.customer, intent.id);
  assertEquals(early.paymentStatus, "requires_payment_method");
  assertEquals(early.message, PAYMENT_MESSAGES.requiresPaymentMethod);
  fake.setIntentStatus(intent.id, "processing");
  const processing = await confirm(parties.customer, intent.id);
  assertEquals(processing.message, PAYMENT_MESSAGES.processing);
  assertEquals((await paymentsOf(env.db, deal.id)).length, 0);
  assertEquals((await dealState(env.db, deal.id)).status, "send");

  fake.setIntentStatus(intent.id, "succeeded");
  for (let i = 0; i < 3; i++) {
    const confirmed = await confirm(parties.customer, intent.id);
    assertEquals(confirmed.paymentStatus, "succeeded");
    assertEquals(confirmed.paymentType, "deposit");
    assertEquals(confirmed.message, PAYMENT_MESSAGES.depositPaid);
  }
  await assertRecordedOnce(env, deal.id, intent.id, { kind: "deposit", amount });
  await assertDealPaid(env.db, deal.id, {
    status: "pay_partial",
    depositAmount: amount,
    totalAmountPaid: null,
  });
  assertEquals((await intentRow(env.db, intent.id))?.status, "succeeded");
});

paymentTest("webhook before confirm: recorded by the webhook, the confirm call finds it", async () => {
  const { env, parties } = await stripe();
  const deal = await dealReadyToPay(env, parties, { settings: { hasDeposit: false } });
  const intent = await askIntent(parties.customer, deal, "full");
  fake.setIntentStatus(intent.id, "succeeded");
  const event = fake.event("payment_intent.succeeded", intent.id);
  const retrievesBefore = fake.calls("GET", `/v1/payment_intents/${intent.id}`).length;
  await deliverOk(env, event);
  assertEquals(
    fake.calls("GET", `/v1/payment_intents/${intent.id}`).length,
    retrievesBefore + 1,
    "the webhook re-fetched the intent from Stripe",
  );
  assertEquals(await providerEvent(env.db, event.id), 1, "the event is kept");
  await assertDealPaid(env.db, deal.id, {
    status: "pay_total",
    depositAmount: null,
    totalAmountPaid: deal.totalTTC,
  });
  const confirmed = await confirm(parties.customer, intent.id);
  assertEquals(confirmed.paymentStatus, "succeeded");
  assertEquals(confirmed.message, PAYMENT_MESSAGES.fullPaid);
  await assertRecordedOnce(env, deal.id, intent.id, { kind: "total", amount: deal.totalTTC });
  await assertDealPaid(env.db, deal.id, {
    status: "pay_total",
    depositAmount: null,
    totalAmountPaid: deal.totalTTC,
  });
});

paymentTest("confirm then webhook: recorded by the confirm call, the webhook changes nothing", async () => {
  const { env, parties } = await stripe();
  const deal = await dealReadyToPay(env, parties);
  const intent = await askIntent(parties.customer, deal, "deposit");
  const amount = Math.round(intent.amount * 100);
  fake.setIntentStatus(intent.id, "succeeded");
  await confirm(parties.customer, intent.id);
  const [payment] = await paymentsOfIntent(env.db, intent.id);
  const stateAfterConfirm = await dealState(env.db, deal.id);
  await deliverOk(env, fake.event("payment_intent.succeeded", intent.id));
  const after = await assertRecordedOnce(env, deal.id, intent.id, { kind: "deposit", amount });
  assertEquals(after.id, payment.id);
  assertEquals(await dealState(env.db, deal.id), stateAfterConfirm, "the webhook moved nothing");
});

paymentTest(
  "the same webhook delivered 5 times, then 3 at once with the confirm call: one payment",
  async () => {
    const { env, parties } = await stripe();
    const deal = await dealReadyToPay(env, parties);
    const intent = await askIntent(parties.customer, deal, "deposit");
    const amount = Math.round(intent.amount * 100);
    fake.setIntentStatus(intent.id, "succeeded");
    const event = fake.event("payment_intent.succeeded", intent.id);
    await deliverOk(env, event, 5);
    assertEquals(await providerEvent(env.db, event.id), 1, "one provider_events row for the event");
    await assertRecordedOnce(env, deal.id, intent.id, { kind: "deposit", amount });

    // The balance: three deliveries (Stripe's retries, re-signed) and the confirm call at the same time.
    const balance = await askIntent(parties.customer, deal, "remaining");
    fake.setIntentStatus(balance.id, "succeeded");
    const balanceEvent = fake.event("payment_intent.succeeded", balance.id);
    const results = await Promise.all([
      deliverToApp(env, await fake.delivery(balanceEvent)),
      confirm(parties.customer, balance.id),
      deliverToApp(env, await fake.delivery(balanceEvent)),
      deliverToApp(env, await fake.delivery(balanceEvent)),
    ]);
    for (const r of [results[0], results[2], results[3]]) {
      assertEquals((r as { status: number }).status, 200, JSON.stringify(r));
    }
    await assertRecordedOnce(env, deal.id, balance.id, { kind: "balance", amount: deal.totalTTC - amount });
    await assertDealPaid(env.db, deal.id, {
      status: "pay_total",
      depositAmount: amount,
      totalAmountPaid: deal.totalTTC,
    });
    assertEquals((await paymentsOf(env.db, deal.id)).length, 2, "the deposit and the balance, once each");
  },
);

paymentTest(
  "webhooks reordered: payment_failed and canceled arriving after succeeded undo nothing",
  async () => {
    const { env, parties } = await stripe();
    const deal = await dealReadyToPay(env, parties);
    const intent = await askIntent(parties.customer, deal, "deposit");
    const amount = Math.round(intent.amount * 100);
    // The first card is declined (payment_failed is sent then), the second one succeeds.
    fake.setIntentStatus(intent.id, "requires_payment_method");
    const failed = fake.event("payment_intent.payment_failed", intent.id);
    const processing = fake.event("payment_intent.processing", intent.id, { status: "processing" });
    fake.setIntentStatus(intent.id, "succeeded");
    const succeeded = fake.event("payment_intent.succeeded", intent.id);
    // Delivered in the other order: succeeded first, then the older ones.
    await deliverOk(env, succeeded);
    await deliverOk(env, failed);
    await deliverOk(env, processing);
    await deliverOk(env, fake.event("payment_intent.canceled", intent.id, { status: "canceled" }));
    await deliverOk(env, failed);
    await assertRecordedOnce(env, deal.id, intent.id, { kind: "deposit", amount });
    await assertDealPaid(env.db, deal.id, {
      status: "pay_partial",
      depositAmount: amount,
      totalAmountPaid: null,
    });
    assertEquals((await intentRow(env.db, intent.id))?.status, "succeeded", "the intent stays succeeded");

    // The other way round on the balance: the failure first, then the success.
    const balance = await askIntent(parties.customer, deal, "remaining");
    fake.setIntentStatus(balance.id, "requires_payment_method");
    await deliverOk(env, fake.event("payment_intent.payment_failed", balance.id));
    assertEquals((await paymentsOfIntent(env.db, balance.id)).length, 0, "a failure records nothing");
    assertEquals((await dealState(env.db, deal.id)).status, "pay_partial");
    fake.setIntentStatus(balance.id, "succeeded");
    await deliverOk(env, fake.event("payment_intent.succeeded", balance.id));
    await assertRecordedOnce(env, deal.id, balance.id, { kind: "balance", amount: deal.totalTTC - amount });
    await assertDealPaid(env.db, deal.id, {
      status: "pay_total",
      depositAmount: amount,
      totalAmountPaid: deal.totalTTC,
    });
  },
);

paymentTest("a webhook with a bad signature is refused with 400 and records nothing", async () => {
  const { env, parties } = await stripe();
  const deal = await dealReadyToPay(env, parties);
  const intent = await askIntent(parties.customer, deal, "full");
  fake.setIntentStatus(intent.id, "succeeded");
  const event = fake.event("payment_intent.succeeded", intent.id);
  const retrieves = () => fake.calls("GET", `/v1/payment_intents/${intent.id}`).length;
  const before = retrieves();
  const deliveries: [string, Request][] = [
    ["another secret", await fake.delivery(event, { secret: "whsec_not_the_right_one" })],
    ["a body changed after signing", await fake.delivery(event, { tamper: true })],
    ["no signature header", await fake.delivery(event, { noSignature: true })],
    [
      "a replayed old delivery",
      await fake.delivery(event, { timestamp: Math.floor(Date.now() / 1000) - 3600 }),
    ],
  ];
  for (const [what, request] of deliveries) {
    const res = await deliverToApp(env, request);
    assertEquals(res.status, 400, `${what}: ${res.status} ${JSON.stringify(res.body)}`);
    assertEquals(res.body.error, "Signature invalide");
  }
  // A signature header over another body.
  const other = await fake.delivery(fake.event("payment_intent.succeeded", intent.id));
  const forged = new Request(`${ORIGIN}/api/webhooks/stripe`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "stripe-signature": other.headers.get("stripe-signature")!,
    },
    body: JSON.stringify(event),
  });
  assertEquals((await deliverToApp(env, forged)).status, 400, "a signature of another payload");
  assertEquals(retrieves(), before, "Stripe was not even asked");
  assertEquals((await paymentsOf(env.db, deal.id)).length, 0, "nothing recorded");
  assertEquals(await providerEvent(env.db, event.id), 0);
  assertEquals((await dealState(env.db, deal.id)).status, "send");
  // The genuine delivery then records it.
  await deliverOk(env, event);
  await assertRecordedOnce(env, deal.id, intent.id, { kind: "total", amount: deal.totalTTC });
});

paymentTest(
  "the state is re-fetched: an event saying succeeded while Stripe says otherwise records nothing",
  async () => {
    const { env, parties } = await stripe();
    const deal = await dealReadyToPay(env, parties);
    const intent = await askIntent(parties.customer, deal, "full");
    // The event's copy claims success (a forged or stale copy); Stripe holds requires_payment_method.
    const claim = fake.event("payment_intent.succeeded", intent.id, {
      status: "succeeded",
      amount_received: 1,
    });
    await deliverOk(env, claim);
    assertEquals((await paymentsOf(env.db, deal.id)).length, 0, "nothing recorded");
    assertEquals((await dealState(env.db, deal.id)).status, "send");
    assertEquals((await intentRow(env.db, intent.id))?.status, "requires_payment_method");
    // Still processing at Stripe: nothing either.
    fake.setIntentStatus(intent.id, "processing");
    await deliverOk(env, fake.event("payment_intent.succeeded", intent.id, { status: "succeeded" }));
    assertEquals((await paymentsOf(env.db, deal.id)).length, 0);
    assertEquals((await intentRow(env.db, intent.id))?.status, "processing");
    // The same stale event, delivered again once Stripe says succeeded, records it (from Stripe's copy).
    fake.setIntentStatus(intent.id, "succeeded");
    await deliverOk(env, claim);
    await assertRecordedOnce(env, deal.id, intent.id, { kind: "total", amount: deal.totalTTC });
  },
);

paymentTest("an intent the app never created is ignored", async () => {
  const { env, parties } = await stripe();
  const deal = await dealReadyToPay(env, parties);
  // Made elsewhere (the dashboard, another integration), even with this deal's metadata.
  const foreign = fake.createIntent({
    amount: deal.totalTTC,
    metadata: { dealId: String(deal.id), kind: "total", customerId: parties.customerId },
    status: "succeeded",
  });
  await deliverOk(env, fake.event("payment_intent.succeeded", foreign.id), 2);
  assertEquals((await paymentsOf(env.db, deal.id)).length, 0, "nothing recorded");
  assertEquals(await intentRow(env.db, foreign.id), undefined, "not adopted into payment_intents");
  assertEquals((await dealState(env.db, deal.id)).status, "send");
  // The reconciliation lists it too, and ignores it.
  await reconcilePayments(env.deps);
  assertEquals((await paymentsOfIntent(env.db, foreign.id)).length, 0);
  // The customer cannot confirm it either.
  const res = await parties.customer.post("/api/payment/confirm", { paymentIntentId: foreign.id });
  assertEquals(expectStatus(res, 404, "confirm of a foreign intent").message, PAYMENT_MESSAGES.confirmError);
  assertEquals((await paymentsOf(env.db, deal.id)).length, 0);
});

paymentTest(
  "a lost webhook and no confirm: the reconciliation records it once, also when run twice",
  async () => {
    const { env, parties } = await stripe();
    const deal = await dealReadyToPay(env, parties);
    const intent = await askIntent(parties.customer, deal, "deposit");
    const amount = Math.round(intent.amount * 100);
    fake.setIntentStatus(intent.id, "succeeded");
    // Another intent that went through 'processing' (the confirm call saw it) and succeeded later.
    const other = await dealReadyToPay(env, parties, { settings: { hasDeposit: false } });
    const late = await askIntent(parties.customer, other, "full");
    fake.setIntentStatus(late.id, "processing");
    assertEquals((await confirm(parties.customer, late.id)).paymentStatus, "processing");
    fake.setIntentStatus(late.id, "succeeded");
    assertEquals((await paymentsOf(env.db, deal.id)).length, 0);

    // Small pages: the client's auto-pagination walks every page of the list.
    fake.pageSize = 2;
    const listsBefore =
      fake.calls("GET", "/v1/payment_intents").filter((c) => c.path === "/v1/payment_intents").length;
    let first: number;
    try {
      first = await reconcilePayments(env.deps);
    } finally {
      fake.pageSize = 100;
    }
    const lists = fake.calls("GET", "/v1/payment_intents").filter((c) => c.path === "/v1/payment_intents")
      .slice(listsBefore);
    assert(lists.length >= 2, `several pages were listed (${lists.length})`);
    assert(lists.every((c) => /^\d+$/.test(c.query.created?.gte ?? "")), "listed with created[gte]");
    assert(
      lists.slice(1).every((c) => typeof c.query.starting_after === "string"),
      "pages follow starting_after",
    );
    assert(first >= 2, `the reconciliation recorded the missed payments (${first})`);
    await assertRecordedOnce(env, deal.id, intent.id, { kind: "deposit", amount });
    await assertDealPaid(env.db, deal.id, {
      status: "pay_partial",
      depositAmount: amount,
      totalAmountPaid: null,
    });
    await assertRecordedOnce(env, other.id, late.id, { kind: "total", amount: other.totalTTC });
    await assertDealPaid(env.db, other.id, {
      status: "pay_total",
      depositAmount: null,
      totalAmountPaid: other.totalTTC,
    });

    // Twice: nothing more.
    assertEquals(await reconcilePayments(env.deps), 0, "a second run records nothing");
    // The scheduled job of the registry runs the same.
    const job = JOBS.find((j) => j.name === "reconcile-payments");
    assert(job, "the registry has the reconcile-payments job");
    assertEquals(await runJob(env.deps, job), true);
    await assertRecordedOnce(env, deal.id, intent.id, { kind: "deposit", amount });
    await assertRecordedOnce(env, other.id, late.id, { kind: "total", amount: other.totalTTC });
    // A webhook arriving after all that changes nothing.
    await deliverOk(env, fake.event("payment_intent.succeeded", intent.id));
    await assertRecordedOnce(env, deal.id, intent.id, { kind: "deposit", amount });
  },
);

paymentTest(
  "Stripe failing with 500 or 429 when re-fetched: the webhook answers 500, a retry records once",
  async () => {
    const { env, parties } = await stripe();
    const deal = await dealReadyToPay(env, parties);
    const intent = await askIntent(parties.customer, deal, "deposit");
    const amount = Math.round(intent.amount * 100);
    fake.setIntentStatus(intent.id, "succeeded");
    const event = fake.event("payment_intent.succeeded", intent.id);
    const path = new RegExp(`^/v1/payment_intents/${intent.id}$`);

    // 500 three times: the client's own two retries fail too.
    fake.failNext(3, 500, { method: "GET", path });
    const first = await deliverToApp(env, await fake.delivery(event));
    assertEquals(first.status, 500, `Stripe must retry: ${JSON.stringify(first.body)}`);
    assertEquals(fake.pendingFailures, 0, "the client retried before giving up");
    assertEquals((await paymentsOf(env.db, deal.id)).length, 0, "nothing recorded");
    assertEquals(await providerEvent(env.db, event.id), 0, "the event is not marked handled");
    // Stripe retries: recorded once.
    await deliverOk(env, event);
    await assertRecordedOnce(env, deal.id, intent.id, { kind: "deposit", amount });

    // 429 (not retried by the client): 500, then a retry; the balance this time.
    const balance = await askIntent(parties.customer, deal, "remaining");
    fake.setIntentStatus(balance.id, "succeeded");
    const balanceEvent = fake.event("payment_intent.succeeded", balance.id);
    fake.failNext(1, 429, { method: "GET", path: new RegExp(`^/v1/payment_intents/${balance.id}$`) });
    const limited = await deliverToApp(env, await fake.delivery(balanceEvent));
    assertEquals(limited.status, 500, `rate limited: ${JSON.stringify(limited.body)}`);
    assertEquals((await paymentsOfIntent(env.db, balance.id)).length, 0);
    await deliverOk(env, balanceEvent, 2);
    await assertRecordedOnce(env, deal.id, balance.id, { kind: "balance", amount: deal.totalTTC - amount });
    await assertDealPaid(env.db, deal.id, {
      status: "pay_total",
      depositAmount: amount,
      totalAmountPaid: deal.totalTTC,
    });
  },
);

// ---------------------------------------------------------------------------------------------------
// Refunds.

paymentTest(
  "refunds: partial then full through Stripe, refused beyond the refundable amount and to non-admins",
  async () => {
    const { env, parties } = await stripe();
    const { deal, intent, paymentId, amount } = await paidDeal(env, parties);
    const refundPath = `/api/deal/${deal.id}/refunds`;
    const partial = 12345;

    // Non-admins are refused.
    expectStatus(await clientOf(env).post(refundPath, { paymentId, amount: 10 }), 401, "anonymous");
    for (const [who, client] of [["partner", parties.partner], ["customer", parties.customer]] as const) {
      const res = await client.post(refundPath, { paymentId, amount: 10 });
      assertEquals(res.status, 403, `${who}: ${res.text}`);
    }
    // More than paid: 422, in French.
    const tooMuch = await parties.admin.post(refundPath, { paymentId, amount: (amount + 1) / 100 });
    const refused = expectStatus(tooMuch, 422, "more than paid");
    assertEquals(refused.message, REFUND_MESSAGES.tooMuch);
    assertEquals(refused.errors.amount, REFUND_MESSAGES.tooMuch);
    assertEquals((await refundsOfPayment(env.db, paymentId)).length, 0);

    // A partial refund.
    const requested = expectStatus(
      await parties.admin.post(refundPath, { paymentId, amount: partial / 100, reason: "Geste commercial" }),
      200,
      "partial refund",
    );
    assertEquals(requested.message, REFUND_MESSAGES.requested);
    const [local] = await refundsOfPayment(env.db, paymentId);
    assertEquals({ amount: local.amount, status: local.status }, { amount: partial, status: "pending" });
    // While it is pending, the rest only is refundable.
    const over = await parties.admin.post(refundPath, { paymentId, amount: (amount - partial + 1) / 100 });
    assertEquals(expectStatus(over, 422, "pending counted").message, REFUND_MESSAGES.tooMuch);

    const before = fake.calls("POST", "/v1/refunds").length;
    assert((await drainRefunds(env.deps)) >= 1, "the refunds queue sent it");
    const sent = fake.calls("POST", "/v1/refunds").slice(before);
    assertEquals(sent.length, 1, "one call to Stripe");
    assertEquals(sent[0].idempotencyKey, local.id, "the refund's id is the idempotency key");
    assertEquals(sent[0].params.payment_intent, intent.id);
    assertEquals(sent[0].params.amount, String(partial));
    const [stripeRefund] = fake.refundsOf(intent.id);
    assertEquals(stripeRefund.amount, partial);
    const [recorded] = await refundsOfPayment(env.db, paymentId);
    assertEquals(
      { status: recorded.status, providerRefundId: recorded.providerRefundId },
      { status: "succeeded", providerRefundId: stripeRefund.id },
    );
    const refundedOnce = async (expected: number) => {
      const [p] = await paymentsOfIntent(env.db, intent.id);
      assertEquals(p.refundedAmount, expected, "deal_payments.refunded_amount");
    };
    await refundedOnce(partial);
    // The webhooks about it, several times and in both forms: counted once.
    await deliverOk(env, fake.event("refund.updated", stripeRefund.id), 3);
    await deliverOk(env, fake.event("charge.refunded", stripeRefund.charge), 2);
    await refundedOnce(partial);
    assertEquals(await drainRefunds(env.deps), 0, "nothing left to send");

    // One credit note, referencing the invoice.
    await drainBilling(env.deps);
    await drainBilling(env.deps);
    const invoices = await invoicesOf(env.db, deal.id);
    const fa = invoices.find((i) => i.series === "FA" && i.paymentId === paymentId)!;
    const notes = invoices.filter((i) => i.series === "AV");
    assertEquals(notes.length, 1, "one credit note");
    assertEquals(notes[0].refundId, local.id);
    assertEquals(notes[0].relatedInvoiceId, fa.id);
    assertEquals(notes[0].document.relatedNumber, fa.number);
    assertEquals(settledBy(notes[0]), partial, "the credit note is for the amount refunded");
    assert(String(notes[0].document.lines[0].label).includes(fa.number), "the credit note names the invoice");

    // The rest: a full refund of what remains.
    expectStatus(
      await parties.admin.post(refundPath, { paymentId, amount: (amount - partial) / 100 }),
      200,
      "the rest",
    );
    await drainRefunds(env.deps);
    await refundedOnce(amount);
    await deliverOk(env, fake.event("charge.refunded", stripeRefund.charge));
    await refundedOnce(amount);
    assertEquals(
      fake.refundsOf(intent.id).reduce((n, r) => n + r.amount, 0),
      amount,
      "Stripe refunded the payment",
    );
    const nothingLeft = await parties.admin.post(refundPath, { paymentId, amount: 0.01 });
    assertEquals(expectStatus(nothingLeft, 422, "nothing left").message, REFUND_MESSAGES.tooMuch);
    await drainBilling(env.deps);
    const allNotes = (await invoicesOf(env.db, deal.id)).filter((i) => i.series === "AV");
    assertEquals(allNotes.length, 2, "one credit note per refund");
    assertEquals(
      allNotes.map(settledBy).sort((a, b) => a - b),
      [partial, amount - partial].sort((a, b) => a - b),
    );
  },
);

paymentTest("refunds: Stripe keeps our refund's id in metadata.refundId", async () => {
  const { env, parties } = await stripe();
  const { deal, intent, paymentId } = await paidDeal(env, parties);
  expectStatus(
    await parties.admin.post(`/api/deal/${deal.id}/refunds`, { paymentId, amount: 50 }),
    200,
    "refund",
  );
  const [local] = await refundsOfPayment(env.db, paymentId);
  const before = fake.calls("POST", "/v1/refunds").length;
  await drainRefunds(env.deps);
  const [sent] = fake.calls("POST", "/v1/refunds").slice(before);
  assert(sent, "the refund was sent");
  assertEquals(sent.idempotencyKey, local.id);
  assertEquals(sent.params.metadata?.refundId, local.id, "metadata[refundId] is sent with the refund");
  assertEquals(fake.refundsOf(intent.id)[0]?.metadata.refundId, local.id);
});

paymentTest(
  "refunds: the webhooks arriving before the queue's own recording never count it twice",
  async () => {
    const { env, parties } = await stripe();
    const { deal, intent, paymentId, amount } = await paidDeal(env, parties);
    const refundAmount = Math.min(20000, amount);
    expectStatus(
      await parties.admin.post(`/api/deal/${deal.id}/refunds`, {
        paymentId,
        amount: refundAmount / 100,
        reason: "Prestation écourtée",
      }),
      200,
      "refund",
    );
    const [local] = await refundsOfPayment(env.db, paymentId);
    // Stripe sends refund.updated and charge.refunded while its answer to the queue is on its way.
    const delivered: number[] = [];
    fake.afterRefundCreated = async (refund) => {
      for (
        const event of [fake.event("refund.updated", refund.id), fake.event("charge.refunded", refund.charge)]
      ) {
        delivered.push((await deliverToApp(env, await fake.delivery(event))).status);
      }
    };
    try {
      await drainRefunds(env.deps);
    } finally {
      fake.afterRefundCreated = null;
    }
    assertEquals(delivered, [200, 200]);
    const [stripeRefund] = fake.refundsOf(intent.id);
    const [payment] = await paymentsOfIntent(env.db, intent.id);
    assertEquals(payment.refundedAmount, refundAmount, "refunded_amount grew once");
    const rows = await refundsOfPayment(env.db, paymentId);
    assertEquals(
      rows.map((r) => ({
        id: r.id,
        status: r.status,
        providerRefundId: r.providerRefundId,
        amount: r.amount,
      })),
      [{ id: local.id, status: "succeeded", providerRefundId: stripeRefund.id, amount: refundAmount }],
      "one refund row: the admin's, succeeded, with Stripe's id",
    );
    // Later deliveries change nothing either.
    await deliverOk(env, fake.event("refund.updated", stripeRefund.id), 2);
    assertEquals((await paymentsOfIntent(env.db, intent.id))[0].refundedAmount, refundAmount);
    await drainBilling(env.deps);
    const notes = (await invoicesOf(env.db, deal.id)).filter((i) => i.series === "AV");
    assertEquals(notes.length, 1, "one credit note");
    assertEquals(notes[0].refundId, local.id, "for the admin's refund");
    assert(
      String(notes[0].document.lines[0].label).includes("Prestation écourtée"),
      "with the admin's reason",
    );
  },
);

paymentTest(
  "refunds: pending at Stripe, then refund.updated succeeded: counted once, one credit note",
  async () => {
    const { env, parties } = await stripe();
    const { deal, intent, paymentId, amount } = await paidDeal(env, parties, "deposit");
    expectStatus(
      await parties.admin.post(`/api/deal/${deal.id}/refunds`, { paymentId, amount: amount / 100 }),
      200,
      "full",
    );
    fake.refundStatus = "pending";
    try {
      await drainRefunds(env.deps);
    } finally {
      fake.refundStatus = "succeeded";
    }
    const [stripeRefund] = fake.refundsOf(intent.id);
    assertEquals(stripeRefund.status, "pending");
    const [pending] = await refundsOfPayment(env.db, paymentId);
    assertEquals({ status: pending.status, providerRefundId: pending.providerRefundId }, {
      status: "pending",
      providerRefundId: stripeRefund.id,
    });
    assertEquals((await paymentsOfIntent(env.db, intent.id))[0].refundedAmount, 0, "not refunded yet");
    await drainBilling(env.deps);
    assertEquals(
      (await invoicesOf(env.db, deal.id)).filter((i) => i.series === "AV").length,
      0,
      "no credit note yet",
    );

    fake.setRefundStatus(stripeRefund.id, "succeeded");
    await deliverOk(env, fake.event("refund.updated", stripeRefund.id), 3);
    await deliverOk(env, fake.event("charge.refunded", stripeRefund.charge));
    assertEquals((await paymentsOfIntent(env.db, intent.id))[0].refundedAmount, amount);
    // The queue's next attempt (Stripe replays its first answer, 'pending') changes nothing.
    await systemQuery(env.db, "update public.refunds set next_attempt_at = now() where payment_id = $1", [
      paymentId,
    ]);
    await drainRefunds(env.deps);
    assertEquals(fake.refundsOf(intent.id).length, 1, "never a second refund at Stripe");
    assertEquals((await paymentsOfIntent(env.db, intent.id))[0].refundedAmount, amount);
    const rows = await refundsOfPayment(env.db, paymentId);
    assertEquals(rows.map((r) => r.status), ["succeeded"]);
    await drainBilling(env.deps);
    const notes = (await invoicesOf(env.db, deal.id)).filter((i) => i.series === "AV");
    assertEquals(notes.length, 1);
    assertEquals(settledBy(notes[0]), amount, "the credit note is for the amount refunded");
  },
);

paymentTest("refunds: Stripe answering 429 then working: the retry refunds once", async () => {
  const { env, parties } = await stripe();
  const { deal, intent, paymentId } = await paidDeal(env, parties);
  expectStatus(
    await parties.admin.post(`/api/deal/${deal.id}/refunds`, { paymentId, amount: 10 }),
    200,
    "refund",
  );
  fake.failNext(1, 429, { method: "POST", path: /^\/v1\/refunds$/ });
  await drainRefunds(env.deps);
  const [waiting] = await refundsOfPayment(env.db, paymentId);
  assertEquals(waiting.status, "pending", "kept for a retry");
  assertEquals(fake.refundsOf(intent.id).length, 0);
  await systemQuery(env.db, "update public.refunds set next_attempt_at = now() where id = $1", [waiting.id]);
  await drainRefunds(env.deps);
  assertEquals(fake.refundsOf(intent.id).length, 1);
  const keys = fake.calls("POST", "/v1/refunds").filter((c) => c.params.payment_intent === intent.id)
    .map((c) => c.idempotencyKey);
  assertEquals(keys, [waiting.id, waiting.id], "the same idempotency key each time");
  assertEquals((await paymentsOfIntent(env.db, intent.id))[0].refundedAmount, 1000);
});

// ---------------------------------------------------------------------------------------------------
// The webhook deployed as the Supabase Edge Function, on its own PostgreSQL connection.

const adminUrl = Deno.env.get("DATABASE_URL");

paymentTest("the Edge Function (handlerFromEnvironment) records through the same SQL, once", async () => {
  await withFreshDatabase(adminUrl!, "edge", async (url) => {
    const db = openPostgres(url, { max: 3 });
    let edge: ReturnType<typeof handlerFromEnvironment> | null = null;
    try {
      await prepareDatabase(db);
      const env = await stripeApp(db, fake);
      const parties = await partiesOf(env);
      const environment: Record<string, string> = {
        DATABASE_URL: url,
        STRIPE_SECRET_KEY: fake.secretKey,
        STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
        STRIPE_API_URL: fake.url,
      };
      edge = handlerFromEnvironment((name) => environment[name]);
      const functionUrl = "http://127.0.0.1:54321/functions/v1/stripe-webhook";
      const send = async (event: Json, options: { secret?: string } = {}) => {
        const response = await edge!.handler(await fake.delivery(event, { url: functionUrl, ...options }));
        return { status: response.status, body: await response.json() };
      };

      const deal = await dealReadyToPay(env, parties);
      const intent = await askIntent(parties.customer, deal, "deposit");
      const amount = Math.round(intent.amount * 100);
      fake.setIntentStatus(intent.id, "succeeded");
      const event = fake.event("payment_intent.succeeded", intent.id);
      assertEquals((await send(event, { secret: "whsec_wrong" })).status, 400, "bad signature");
      assertEquals((await paymentsOf(db, deal.id)).length, 0);
      for (let i = 0; i < 3; i++) assertEquals((await send(event)).status, 200);
      assertEquals(await providerEvent(db, event.id), 1);
      // The app's confirm call afterwards finds it.
      await confirm(parties.customer, intent.id);
      await assertRecordedOnce(env, deal.id, intent.id, { kind: "deposit", amount });
      await assertDealPaid(db, deal.id, {
        status: "pay_partial",
        depositAmount: amount,
        totalAmountPaid: null,
      });

      // The other way round: confirm first, then the function.
      const balance = await askIntent(parties.customer, deal, "remaining");
      fake.setIntentStatus(balance.id, "succeeded");
      await confirm(parties.customer, balance.id);
      assertEquals((await send(fake.event("payment_intent.succeeded", balance.id))).status, 200);
      await assertRecordedOnce(env, deal.id, balance.id, { kind: "balance", amount: deal.totalTTC - amount });
      await assertDealPaid(db, deal.id, {
        status: "pay_total",
        depositAmount: amount,
        totalAmountPaid: deal.totalTTC,
      });

      // A refund reported to the function: recorded once, with the queue's own report.
      const [payment] = await paymentsOfIntent(db, intent.id);
      expectStatus(
        await parties.admin.post(`/api/deal/${deal.id}/refunds`, {
          paymentId: payment.id,
          amount: amount / 100,
        }),
        200,
        "refund",
      );
      await drainRefunds(env.deps);
      const [refund] = fake.refundsOf(intent.id);
      assertEquals((await send(fake.event("refund.updated", refund.id))).status, 200);
      assertEquals((await send(fake.event("charge.refunded", refund.charge))).status, 200);
      assertEquals((await paymentsOfIntent(db, intent.id))[0].refundedAmount, amount, "refunded once");
      await drainBilling(env.deps);
      assertEquals((await invoicesOf(db, deal.id)).filter((i) => i.series === "AV").length, 1);
    } finally {
      await edge?.close();
      await db.close();
    }
  });
}, { ignore: !adminUrl });

// ---------------------------------------------------------------------------------------------------
// A database restart between the confirm call and the webhook.

paymentTest(
  "a database restart between confirm and webhook: one payment, the webhook served by the new connection",
  async () => {
    // Its own Stripe account (another fake) and its own database connection, closed and reopened.
    const stripe2 = FakeStripe.start();
    const testUrl = Deno.env.get("TEST_DATABASE_URL");
    const folder = testUrl ? null : await Deno.makeTempDir({ prefix: "payments-restart-" });
    const open = () => testUrl ? Promise.resolve(openPostgres(testUrl, { max: 2 })) : openPglite(folder!);
    let db: Database | null = await open();
    try {
      await prepareDatabase(db);
      const before = await stripeApp(db, stripe2);
      const parties = await partiesOf(before);
      // Deal A: paid and confirmed before the restart.
      const dealA = await dealReadyToPay(before, parties);
      const a = expectStatus(
        await parties.customer.post("/api/payment/intent", {
          dealToken: dealA.token,
          paymentType: "deposit",
        }),
        200,
        "intent A",
      );
      stripe2.setIntentStatus(a.paymentIntentId, "succeeded");
      expectStatus(
        await parties.customer.post("/api/payment/confirm", { paymentIntentId: a.paymentIntentId }),
        200,
        "confirm A",
      );
      const amountA = stripe2.intents.get(a.paymentIntentId)!.amount;
      // Deal B: confirmed while still processing (Stripe sent payment_intent.processing), nothing recorded.
      const dealB = await dealReadyToPay(before, parties, { settings: { hasDeposit: false } });
      const b = expectStatus(
        await parties.customer.post("/api/payment/intent", { dealToken: dealB.token, paymentType: "full" }),
        200,
        "intent B",
      );
      stripe2.setIntentStatus(b.paymentIntentId, "processing");
      const processing = await deliverToApp(
        before,
        await stripe2.delivery(stripe2.event("payment_intent.processing", b.paymentIntentId)),
      );
      assertEquals(processing.status, 200);
      expectStatus(
        await parties.customer.post("/api/payment/confirm", { paymentIntentId: b.paymentIntentId }),
        200,
        "confirm B",
      );
      assertEquals((await paymentsOf(db, dealB.id)).length, 0);

      // The restart.
      await db.close();
      db = null;
      const reopened = trackedDatabase(await open());
      db = reopened;
      const after = await stripeApp(reopened, stripe2);
      // Deal A's webhook arrives: nothing more.
      const usesBefore = reopened.uses;
      const webhookA = await deliverToApp(
        after,
        await stripe2.delivery(stripe2.event("payment_intent.succeeded", a.paymentIntentId)),
      );
      assertEquals(webhookA.status, 200, `webhook A after the restart: ${JSON.stringify(webhookA.body)}`);
      assert(
        reopened.uses > usesBefore,
        "the webhook mounted by the app built on the new connection recorded through that connection",
      );
      const rowsA = await paymentsOfIntent(db, a.paymentIntentId);
      assertEquals(rowsA.length, 1);
      assertEquals(rowsA[0].amount, amountA);
      await assertDealPaid(db, dealA.id, {
        status: "pay_partial",
        depositAmount: amountA,
        totalAmountPaid: null,
      });
      // Deal B succeeds at Stripe; its webhook is the one that records it, on the new connection.
      stripe2.setIntentStatus(b.paymentIntentId, "succeeded");
      const webhookB = await deliverToApp(
        after,
        await stripe2.delivery(stripe2.event("payment_intent.succeeded", b.paymentIntentId)),
      );
      assertEquals(webhookB.status, 200, `webhook B after the restart: ${JSON.stringify(webhookB.body)}`);
      const rowsB = await paymentsOfIntent(db, b.paymentIntentId);
      assertEquals(rowsB.length, 1, "deal B's payment recorded by the webhook served after the restart");
      await assertDealPaid(db, dealB.id, {
        status: "pay_total",
        depositAmount: null,
        totalAmountPaid: dealB.totalTTC,
      });
      // And the confirm call after the restart finds it.
      const customer = await loggedInto(after, "client@example.fr");
      expectStatus(
        await customer.post("/api/payment/confirm", { paymentIntentId: b.paymentIntentId }),
        200,
        "confirm B again",
      );
      assertEquals((await paymentsOfIntent(db, b.paymentIntentId)).length, 1);
    } finally {
      await db?.close();
      await stripe2.close();
      if (folder) await Deno.remove(folder, { recursive: true }).catch(() => {});
    }
  },
);

// ---------------------------------------------------------------------------------------------------
// The simulated provider (the default without keys) goes through the same recorders.

paymentTest(
  "simulated provider: a 'processing' test card succeeds later through the settlement queue, recorded once",
  async () => {
    const env = await testEnv();
    assertEquals(env.deps.payments?.name, "simulated");
    const parties = await partiesOf(env);
    const deal = await dealReadyToPay(env, parties);
    const ask = await parties.customer.post("/api/payment/intent", {
      dealToken: deal.token,
      paymentType: "deposit",
    });
    const intent = expectStatus(ask, 200, "simulated intent");
    assert(String(intent.paymentIntentId).startsWith("pi_sim_"), intent.paymentIntentId);
    const id = String(intent.paymentIntentId);
    const amount = Math.round(intent.amount * 100);
    assertEquals(amount, depositOf(deal.totalTTC, Number(deal.settings.depositPercentage ?? 35)));
    const card = await parties.customer.post("/api/payment/simulated/confirm", {
      paymentIntentId: id,
      cardNumber: TEST_CARDS.processing,
    });
    assertEquals(expectStatus(card, 200, "the processing card").results.status, "processing");
    const confirmed = expectStatus(
      await parties.customer.post("/api/payment/confirm", { paymentIntentId: id }),
      200,
      "confirm",
    );
    assertEquals(confirmed.paymentStatus, "processing");
    assertEquals(confirmed.message, PAYMENT_MESSAGES.processing);
    assertEquals((await paymentsOf(env.db, deal.id)).length, 0, "nothing recorded while processing");
    // The bank's few seconds pass.
    await systemQuery(
      env.db,
      "update public.simulated_payment_intents set updated_at = now() - interval '1 minute' where id = $1",
      [id],
    );
    assert((await simulatedSettlementQueue.drain(env.deps)) >= 1, "settled");
    assertEquals(await simulatedSettlementQueue.drain(env.deps), 0, "settled once");
    // The confirm call again, and the reconciliation: still one.
    expectStatus(
      await parties.customer.post("/api/payment/confirm", { paymentIntentId: id }),
      200,
      "confirm again",
    );
    await reconcilePayments(env.deps);
    const rows = await paymentsOfIntent(env.db, id);
    assertEquals(rows.length, 1, "one payment");
    assertEquals(
      { kind: rows[0].kind, amount: rows[0].amount, method: rows[0].method, provider: rows[0].provider },
      { kind: "deposit", amount, method: "card", provider: "simulated" },
    );
    await assertDealPaid(env.db, deal.id, {
      status: "pay_partial",
      depositAmount: amount,
      totalAmountPaid: null,
    });
    await drainBilling(env.deps);
    const invoices = (await invoicesOf(env.db, deal.id)).filter((i) => i.paymentId === rows[0].id);
    assertEquals(invoices.map((i) => i.series).sort(), ["CO", "FA"]);
  },
);
