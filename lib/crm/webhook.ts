// The app's mount of the HubSpot webhook: the very function deployed as the Supabase Edge Function
// (supabase/functions/_shared/hubspot_webhook.ts), given the app's database as the system (reason
// "webhook") and the public address HubSpot calls (APP_URL + path), which is what HubSpot signs.
import { statementAs, systemActor } from "../actor.ts";
import type { Deps } from "../deps.ts";
import { createHubSpotWebhookHandler } from "../../supabase/functions/_shared/hubspot_webhook.ts";
import { CRM_MESSAGES } from "./rules.ts";

const WEBHOOK = systemActor("webhook");
type Handler = (request: Request) => Promise<Response>;
const handlers = new WeakMap<Deps["db"], { key: string; handler: Handler }>();

export function hubspotWebhook(deps: Deps): Handler {
  const { hubspotClientSecret, appUrl } = deps.config;
  if (!hubspotClientSecret) {
    return () => Promise.resolve(Response.json({ error: CRM_MESSAGES.webhookOff }, { status: 404 }));
  }
  const key = `${hubspotClientSecret}|${appUrl}`;
  const cached = handlers.get(deps.db);
  if (cached?.key === key) return cached.handler;
  const db = deps.db;
  const handler = createHubSpotWebhookHandler({
    clientSecret: hubspotClientSecret,
    publicUri: (request) => {
      const url = new URL(request.url);
      return `${appUrl}${url.pathname}${url.search}`;
    },
    query: (text, params) => statementAs(db, WEBHOOK, text, params),
  });
  handlers.set(db, { key, handler });
  return handler;
}
