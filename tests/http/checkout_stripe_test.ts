// The workshop checkout with Stripe keys (a local fake of Stripe's API): the same provider choice as a
// deal's payment — a Stripe PaymentIntent for the server's amount, keyed by the order — recorded by the
// signed webhook (delivered twice: once), its invoice and receipt issued by the 'order-settle' job,
// then the customer's confirm says it succeeded without issuing anything twice.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, registrationPayload, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { FakeStripe } from "../support/fake_stripe.ts";
import { deliverToApp, sharedStripeApp } from "../support/stripe_app.ts";
import { CHECKOUT_MESSAGES } from "../../lib/orders/rules.ts";
import { OUTBOX_HANDLERS } from "../../lib/jobs/queues.ts";
import { outboxQueue } from "../../lib/outbox/worker.ts";

const fake = FakeStripe.start();

function stripeTest(name: string, fn: () => Promise<void>) {
  Deno.test({ name: `checkout (Stripe): ${name}`, fn, sanitizeOps: false, sanitizeResources: false });
}

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

stripeTest(
  "a cart paid through Stripe's webhook: one payment, invoice and receipt, confirm succeeds",
  async () => {
    const env = await sharedStripeApp(fake);
    const { db } = await testEnv();
    const client = new Client({ app: env.app, ip: "10.93.0.1" });
    const payload = registrationPayload();
    assertEquals((await client.post("/api/security/registration", payload)).status, 200);
    const slug = `atelier-stripe-${Date.now().toString(36)}`;
    const [date] = await systemQuery<{ uuid: string; sessionId: number; dtstart: number }>(
      db,
      `with s as (insert into public.workshop_sessions (slug, title, city) values ($1, 'Atelier Stripe', 'Lille') returning id)
     insert into public.session_dates (session_id, dtstart, places, places_left, price_ttc)
     select s.id, date_trunc('minute', now()) + interval '8 days', 5, 5, 3500 from s
     returning uuid::text as uuid, session_id as "sessionId", extract(epoch from dtstart)::bigint as dtstart`,
      [slug],
    );
    const added = await client.post(`/session/${slug}/date/${date.uuid}`, {
      session: date.sessionId,
      timestamp: Number(date.dtstart),
      quantity: 2,
    });
    assertEquals(added.status, 200, added.text);
    const res = await client.post("/api/cart/checkout", {});
    assertEquals(res.status, 200, res.text);
    const intent = res.json<Json>();
    assert(
      String(intent.paymentIntentId).startsWith("pi_") &&
        !String(intent.paymentIntentId).startsWith("pi_sim"),
    );
    assertEquals([intent.amount, intent.amountCents], [70, 7000]);
    const created = fake.calls("POST", "/v1/payment_intents").at(-1)!;
    assertEquals(created.params.amount, "7000", "Stripe is asked the server's amount");
    assert(
      created.idempotencyKey?.startsWith(`order-${intent.orderId}-7000-`),
      String(created.idempotencyKey),
    );

    fake.setIntentStatus(intent.paymentIntentId, "succeeded");
    const event = fake.event("payment_intent.succeeded", intent.paymentIntentId);
    for (let i = 0; i < 2; i++) {
      const delivered = await deliverToApp(env, await fake.delivery(event));
      assertEquals(delivered.status, 200, JSON.stringify(delivered.body));
    }
    const [order] = await systemQuery<{ status: string; payments: number }>(
      db,
      `select o.status, (select count(*)::int from public.deal_payments p where p.order_id = o.id) as payments
     from public.orders o where o.id = $1`,
      [intent.orderId],
    );
    assertEquals([order.status, order.payments], ["paid", 1]);
    const queue = outboxQueue(OUTBOX_HANDLERS);
    for (let i = 0; i < 10 && (await queue.drain(env.deps)) > 0; i++);
    const docs = await systemQuery<{ series: string }>(
      db,
      "select series from public.invoices where order_id = $1 order by series",
      [intent.orderId],
    );
    assertEquals(docs.map((d) => d.series), ["FA", "RE"]);
    const confirmed = await client.post("/api/payment/confirm", { paymentIntentId: intent.paymentIntentId });
    assertEquals([confirmed.status, confirmed.json<Json>().message], [200, CHECKOUT_MESSAGES.paid]);
    const again = await systemQuery(db, "select 1 from public.invoices where order_id = $1", [
      intent.orderId,
    ]);
    assertEquals(again.length, 2, "nothing issued twice");
  },
);

stripeTest("(teardown)", async () => {
  await fake.close();
});
