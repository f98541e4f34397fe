// The Stripe webhook, as a plain `Request → Response` function using only what Supabase's edge
// runtime offers (npm specifiers, environment variables, a database URL): deployed as the Edge Function
// supabase/functions/stripe-webhook, and mounted by the app at /api/webhooks/stripe.
//
// It verifies the signature on the raw body, re-fetches the object from Stripe (the event's copy is
// never trusted), and records through the database's own functions (record_card_payment,
// record_refund), which record each PaymentIntent and each refund exactly once whatever the order and
// the number of deliveries. Invoices and credit notes are issued by the app's billing job afterwards.
// Supabase deploys this file on its own: npm specifiers, not the app's import map.
// deno-lint-ignore no-import-prefix
import Stripe from "npm:stripe@23";

export interface WebhookDeps {
  stripe: Stripe;
  webhookSecret: string;
  /** Runs one SQL statement with every right (the service role), returning its rows. */
  query: (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;
}

const INTENT_EVENTS = new Set([
  "payment_intent.succeeded",
  "payment_intent.processing",
  "payment_intent.payment_failed",
  "payment_intent.canceled",
]);
const REFUND_EVENTS = new Set(["refund.created", "refund.updated", "refund.failed", "charge.refund.updated"]);

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export function createStripeWebhookHandler(deps: WebhookDeps): (request: Request) => Promise<Response> {
  const crypto = Stripe.createSubtleCryptoProvider();
  return async (request: Request) => {
    if (request.method !== "POST") return json(405, { error: "POST attendu" });
    const signature = request.headers.get("stripe-signature");
    const raw = await request.text();
    let event: Stripe.Event;
    try {
      if (!signature) throw new Error("missing signature");
      event = await deps.stripe.webhooks.constructEventAsync(
        raw,
        signature,
        deps.webhookSecret,
        undefined,
        crypto,
      );
    } catch {
      return json(400, { error: "Signature invalide" });
    }
    try {
      if (INTENT_EVENTS.has(event.type)) {
        const id = (event.data.object as { id: string }).id;
        const pi = await deps.stripe.paymentIntents.retrieve(id);
        await deps.query("select * from public.record_card_payment('stripe', $1, $2, $3, $4)", [
          pi.id,
          pi.status,
          pi.amount,
          pi.currency,
        ]);
      } else if (event.type === "charge.refunded") {
        const charge = event.data.object as Stripe.Charge;
        const refunds = await deps.stripe.refunds.list({ charge: charge.id, limit: 100 });
        for (const refund of refunds.data) await recordRefund(deps, refund);
      } else if (REFUND_EVENTS.has(event.type)) {
        const refund = await deps.stripe.refunds.retrieve((event.data.object as { id: string }).id);
        await recordRefund(deps, refund);
      }
      await deps.query(
        "insert into public.provider_events (id, provider, type) values ($1, 'stripe', $2) on conflict (id) do nothing",
        [event.id, event.type],
      );
      return json(200, { received: true });
    } catch (error) {
      // Stripe retries on any non-2xx answer: nothing is lost, and recording is idempotent.
      console.error("stripe webhook", event.type, error);
      // The admins' logs page (service 'stripe'); the database itself may be what failed.
      await deps.query(
        "insert into public.logs (service, type, message, context) values ('stripe', 'error', $1, $2::text::jsonb)",
        [
          "Webhook Stripe non traité (Stripe réessaiera)",
          JSON.stringify({ eventId: event.id, type: event.type, error: String(error).slice(0, 1000) }),
        ],
      ).catch(() => {});
      return json(500, { error: "Traitement impossible, Stripe réessaiera" });
    }
  };
}

async function recordRefund(deps: WebhookDeps, refund: Stripe.Refund) {
  const intent = typeof refund.payment_intent === "string"
    ? refund.payment_intent
    : refund.payment_intent?.id;
  if (!intent) return;
  const localId = refund.metadata?.refundId;
  await deps.query("select * from public.record_refund('stripe', $1, $2, $3, $4, $5)", [
    refund.id,
    intent,
    refund.amount,
    refund.status ?? "pending",
    localId && /^[0-9a-f-]{36}$/i.test(localId) ? localId : null,
  ]);
}
