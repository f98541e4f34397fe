// Supabase Edge Function: the Stripe webhook (see ../_shared/stripe_webhook.ts). Environment:
// STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_URL (optional), and the database URL Supabase
// provides (SUPABASE_DB_URL) or DATABASE_URL.
// Supabase deploys this file on its own: npm specifiers, not the app's import map.
// deno-lint-ignore no-import-prefix
import Stripe from "npm:stripe@23";
// deno-lint-ignore no-import-prefix
import postgres from "npm:postgres@3";
import { createStripeWebhookHandler } from "../_shared/stripe_webhook.ts";

export function handlerFromEnvironment(env: (name: string) => string | undefined = (n) => Deno.env.get(n)) {
  const apiUrl = new URL(env("STRIPE_API_URL") || "https://api.stripe.com");
  const stripe = new Stripe(env("STRIPE_SECRET_KEY") ?? "", {
    host: apiUrl.hostname,
    port: apiUrl.port ? Number(apiUrl.port) : apiUrl.protocol === "https:" ? 443 : 80,
    protocol: apiUrl.protocol === "https:" ? "https" : "http",
    httpClient: Stripe.createFetchHttpClient(),
  });
  const sql = postgres(env("SUPABASE_DB_URL") ?? env("DATABASE_URL") ?? "", { max: 2, onnotice: () => {} });
  const handler = createStripeWebhookHandler({
    stripe,
    webhookSecret: env("STRIPE_WEBHOOK_SECRET") ?? "",
    // The service role, as the app's system actor uses it: the recording functions are its only
    // writers.
    query: (text, params) =>
      sql.begin(async (tx) => {
        await tx.unsafe(
          "select set_config('role', 'service_role', true), set_config('request.jwt.claims', $1, true)",
          [
            JSON.stringify({ role: "service_role", reason: "webhook" }),
          ],
        );
        return await tx.unsafe(text, params as never[]);
      }) as Promise<Record<string, unknown>[]>,
  });
  return { handler, close: () => sql.end({ timeout: 5 }) };
}

if (import.meta.main) Deno.serve(handlerFromEnvironment().handler);
