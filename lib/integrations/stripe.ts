// The Stripe adapter: the real `stripe` client library, pointed at STRIPE_API_URL (Stripe's own by
// default; a local fake in tests), with Deno's fetch and Web Crypto.
import Stripe from "stripe";
import type { CreatedIntent, PaymentProvider, ProviderIntent, ProviderRefund } from "../payments/provider.ts";

export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  /** "https://api.stripe.com" or a local fake such as "http://127.0.0.1:12111". */
  apiUrl: string;
}

export function stripeClient(settings: Pick<StripeSettings, "secretKey" | "apiUrl">): Stripe {
  const url = new URL(settings.apiUrl || "https://api.stripe.com");
  return new Stripe(settings.secretKey, {
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80,
    protocol: url.protocol === "https:" ? "https" : "http",
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 2,
    timeout: 20_000,
  });
}

const intentOf = (pi: Stripe.PaymentIntent): ProviderIntent => ({
  id: pi.id,
  status: pi.status,
  amount: pi.amount,
  currency: pi.currency,
  metadata: (pi.metadata ?? {}) as Record<string, string>,
  created: pi.created,
});

const refundOf = (r: Stripe.Refund): ProviderRefund => ({
  id: r.id,
  status: (r.status ?? "pending") as ProviderRefund["status"],
  amount: r.amount,
  paymentIntentId: typeof r.payment_intent === "string" ? r.payment_intent : r.payment_intent?.id ?? "",
});

export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const stripe = stripeClient(settings);
  return {
    name: "stripe",
    publishableKey: settings.publishableKey,
    async createIntent(input): Promise<CreatedIntent> {
      const pi = await stripe.paymentIntents.create({
        amount: input.amount,
        currency: input.currency,
        description: input.description,
        metadata: input.metadata,
        automatic_payment_methods: { enabled: true },
      }, { idempotencyKey: input.idempotencyKey });
      return { ...intentOf(pi), clientSecret: pi.client_secret ?? "" };
    },
    async cancelIntent(id) {
      try {
        return intentOf(await stripe.paymentIntents.cancel(id, {}, { idempotencyKey: `cancel-${id}` }));
      } catch (error) {
        // Already succeeded, processing or canceled: Stripe refuses; the intent as it is now tells.
        if ((error as { code?: string }).code === "payment_intent_unexpected_state") {
          return intentOf(await stripe.paymentIntents.retrieve(id));
        }
        throw error;
      }
    },
    async retrieveIntent(id) {
      return intentOf(await stripe.paymentIntents.retrieve(id));
    },
    async listSucceededSince(since) {
      const found: ProviderIntent[] = [];
      for await (
        const pi of stripe.paymentIntents.list({
          created: { gte: Math.floor(since.getTime() / 1000) },
          limit: 100,
        })
      ) {
        if (pi.status === "succeeded") found.push(intentOf(pi));
        if (found.length >= 5000) break;
      }
      return found;
    },
    async refund(input) {
      return refundOf(
        // The refund's own id travels as metadata: a refund.updated webhook that arrives before this
        // call's answer is recorded then finds our row (record_refund) instead of adding one.
        await stripe.refunds.create({
          payment_intent: input.paymentIntentId,
          amount: input.amount,
          metadata: { refundId: input.refundId },
        }, { idempotencyKey: input.refundId }),
      );
    },
    async retrieveRefund(id) {
      return refundOf(await stripe.refunds.retrieve(id));
    },
  };
}
