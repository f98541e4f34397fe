// Supabase Edge Function: the HubSpot webhook (see ../_shared/hubspot_webhook.ts). Environment:
// HUBSPOT_CLIENT_SECRET, HUBSPOT_WEBHOOK_URL (the address configured in HubSpot, which HubSpot signs;
// default: the request's own URL), and the database URL Supabase provides (SUPABASE_DB_URL) or
// DATABASE_URL. The app's worker (HUBSPOT_TOKEN) fetches and applies the deals it queues.
// Supabase deploys this file on its own: npm specifiers, not the app's import map.
// deno-lint-ignore no-import-prefix
import postgres from "npm:postgres@3";
import { createHubSpotWebhookHandler } from "../_shared/hubspot_webhook.ts";

export function handlerFromEnvironment(env: (name: string) => string | undefined = (n) => Deno.env.get(n)) {
  const sql = postgres(env("SUPABASE_DB_URL") ?? env("DATABASE_URL") ?? "", { max: 2, onnotice: () => {} });
  const webhookUrl = env("HUBSPOT_WEBHOOK_URL") ?? "";
  const handler = createHubSpotWebhookHandler({
    clientSecret: env("HUBSPOT_CLIENT_SECRET") ?? "",
    publicUri: (request) => {
      if (!webhookUrl) return request.url;
      const url = new URL(request.url);
      return webhookUrl + url.search;
    },
    // The service role, as the app's system actor uses it: queue_crm_pull is granted to it only.
    query: (text, params) =>
      sql.begin(async (tx) => {
        await tx.unsafe(
          "select set_config('role', 'service_role', true), set_config('request.jwt.claims', $1, true)",
          [JSON.stringify({ role: "service_role", reason: "webhook" })],
        );
        return await tx.unsafe(text, params as never[]);
      }) as Promise<Record<string, unknown>[]>,
  });
  return { handler, close: () => sql.end({ timeout: 5 }) };
}

if (import.meta.main) Deno.serve(handlerFromEnvironment().handler);
