// Every integration logs its failures on the admins' logs page under its own service name (issue 13):
// Stripe (a webhook that cannot be processed, an intent the provider refuses to create), HubSpot
// (tests/http/crm_sync_test.ts), jobs and the outbox (lib/jobs, lib/outbox tests). On the test
// database, against the local Stripe fake.
import { assert, assertEquals } from "../support/assert.ts";
import { httpTest } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { FakeStripe } from "../support/fake_stripe.ts";
import { dealReadyToPay, deliverToApp, partiesOf, sharedStripeApp } from "../support/stripe_app.ts";

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
