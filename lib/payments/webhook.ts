// The app's mount of the Stripe webhook: the very function deployed as the Supabase Edge Function
// (supabase/functions/_shared/stripe_webhook.ts), given the app's Stripe client and its database as
// the system (reason "webhook").
import { statementAs, systemActor } from "../actor.ts";
import type { Deps } from "../deps.ts";
import { stripeClient } from "../integrations/stripe.ts";
import { createStripeWebhookHandler } from "../../supabase/functions/_shared/stripe_webhook.ts";

const WEBHOOK = systemActor("webhook");
let cached: { key: string; handler: (request: Request) => Promise<Response> } | null = null;

export function stripeWebhook(deps: Deps): (request: Request) => Promise<Response> {
  const { stripeSecretKey, stripeWebhookSecret, stripeApiUrl } = deps.config;
  if (!stripeSecretKey || !stripeWebhookSecret) {
    return () => Promise.resolve(new Response(JSON.stringify({ error: "Stripe n'est pas configuré" }), { status: 404 }));
  }
  const key = `${stripeSecretKey}|${stripeWebhookSecret}|${stripeApiUrl}`;
  if (cached?.key !== key) {
    cached = {
      key,
      handler: createStripeWebhookHandler({
        stripe: stripeClient({ secretKey: stripeSecretKey, apiUrl: stripeApiUrl }),
        webhookSecret: stripeWebhookSecret,
        query: (text, params) => statementAs(deps.db, WEBHOOK, text, params),
      }),
    };
  }
  return cached.handler;
}
