// The app's mount of the Stripe webhook: the very function deployed as the Supabase Edge Function
// (supabase/functions/_shared/stripe_webhook.ts), given the app's Stripe client and its database as
// the system (reason "webhook").
import { statementAs, systemActor } from "../actor.ts";
import type { Deps } from "../deps.ts";
import { stripeClient } from "../integrations/stripe.ts";
import { createStripeWebhookHandler } from "../../supabase/functions/_shared/stripe_webhook.ts";

const WEBHOOK = systemActor("webhook");
type Handler = (request: Request) => Promise<Response>;
/** One handler per database and Stripe settings: an app opened on another database (a restart, a
 * test) never writes through a closed one. */
const handlers = new WeakMap<Deps["db"], { key: string; handler: Handler }>();

export function stripeWebhook(deps: Deps): Handler {
  const { stripeSecretKey, stripeWebhookSecret, stripeApiUrl } = deps.config;
  if (!stripeSecretKey || !stripeWebhookSecret) {
    return () =>
      Promise.resolve(new Response(JSON.stringify({ error: "Stripe n'est pas configuré" }), { status: 404 }));
  }
  const key = `${stripeSecretKey}|${stripeWebhookSecret}|${stripeApiUrl}`;
  const cached = handlers.get(deps.db);
  if (cached?.key === key) return cached.handler;
  const db = deps.db;
  const handler = createStripeWebhookHandler({
    stripe: stripeClient({ secretKey: stripeSecretKey, apiUrl: stripeApiUrl }),
    webhookSecret: stripeWebhookSecret,
    query: (text, params) => statementAs(db, WEBHOOK, text, params),
  });
  handlers.set(db, { key, handler });
  return handler;
}
