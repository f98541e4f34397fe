// The HubSpot webhook, as a plain `Request → Response` function using only what Supabase's edge
// runtime offers (Web Crypto, environment variables, a database URL): deployed as the Edge Function
// supabase/functions/hubspot-webhook, and mounted by the app at /api/webhooks/hubspot.
//
// It verifies HubSpot's v3 signature (X-HubSpot-Signature-v3: base64 of HMAC-SHA256, keyed with the
// app's client secret, of method + full URI + raw body + X-HubSpot-Request-Timestamp; the timestamp in
// milliseconds, at most 5 minutes away), else 401. For each deal created or changed in HubSpot it
// queues the sync of that deal (public.queue_crm_pull): the worker then fetches the deal from HubSpot
// (the event's values are never trusted) and imports or updates ours. Queued jobs coalesce per deal, so
// repeated deliveries of an event cost one sync, and applying HubSpot's state twice changes nothing.

export interface HubSpotWebhookDeps {
  clientSecret: string;
  /** Runs one SQL statement with every right (the service role), returning its rows. */
  query: (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;
  /** The URI HubSpot called, as HubSpot signed it (behind a proxy, the public address). Default:
   * the request's own URL. */
  publicUri?: (request: Request) => string;
  now?: () => number;
}

export const MAX_SKEW_MS = 5 * 60 * 1000;
/** HubSpot sends at most 100 events per request. */
const MAX_EVENTS = 100;

const DEAL_EVENTS = new Set(["deal.creation", "deal.propertyChange", "deal.restore", "deal.merge"]);
/** The newer generic subscriptions name the object type: 0-3 is the deal. */
const OBJECT_EVENTS = new Set(["object.creation", "object.propertyChange", "object.restore", "object.merge"]);

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** HubSpot's v3 recipe decodes these URL-encoded characters of the URI before signing. */
const DECODED: Record<string, string> = {
  "%3A": ":",
  "%2F": "/",
  "%3F": "?",
  "%40": "@",
  "%21": "!",
  "%24": "$",
  "%27": "'",
  "%28": "(",
  "%29": ")",
  "%2A": "*",
  "%2C": ",",
  "%3B": ";",
};
export function signedUri(uri: string): string {
  return uri.replace(/%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi, (m) => DECODED[m.toUpperCase()]);
}

const encoder = new TextEncoder();

export async function signatureV3(
  secret: string,
  method: string,
  uri: string,
  body: string,
  timestamp: string,
): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign(
    "HMAC",
    key,
    encoder.encode(method + signedUri(uri) + body + timestamp),
  );
  return btoa(String.fromCharCode(...new Uint8Array(mac)));
}

/** Compares in time independent of where the strings differ. */
function sameText(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

export async function verifyV3(
  secret: string,
  method: string,
  uri: string,
  body: string,
  headers: Headers,
  now: number,
): Promise<boolean> {
  const signature = headers.get("x-hubspot-signature-v3") ?? "";
  const timestamp = headers.get("x-hubspot-request-timestamp") ?? "";
  if (!secret || !signature || !/^\d{1,16}$/.test(timestamp)) return false;
  if (Math.abs(now - Number(timestamp)) > MAX_SKEW_MS) return false;
  return sameText(await signatureV3(secret, method, uri, body, timestamp), signature);
}

interface HubSpotEvent {
  subscriptionType?: unknown;
  objectTypeId?: unknown;
  objectId?: unknown;
}

/** The HubSpot ids of the deals the events are about (creations and changes), each once. */
export function dealIdsOf(events: HubSpotEvent[]): string[] {
  const ids = new Set<string>();
  for (const event of events) {
    const type = String(event.subscriptionType ?? "");
    const isDeal = DEAL_EVENTS.has(type) || (OBJECT_EVENTS.has(type) && String(event.objectTypeId) === "0-3");
    const id = String(event.objectId ?? "");
    if (isDeal && /^\d{1,30}$/.test(id)) ids.add(id);
  }
  return [...ids];
}

export function createHubSpotWebhookHandler(
  deps: HubSpotWebhookDeps,
): (request: Request) => Promise<Response> {
  return async (request: Request) => {
    if (request.method !== "POST") return json(405, { error: "POST attendu" });
    const raw = await request.text();
    const uri = deps.publicUri ? deps.publicUri(request) : request.url;
    const now = deps.now ? deps.now() : Date.now();
    if (!(await verifyV3(deps.clientSecret, request.method, uri, raw, request.headers, now))) {
      return json(401, { error: "Signature HubSpot invalide" });
    }
    let events: HubSpotEvent[];
    try {
      const parsed = JSON.parse(raw);
      if (!Array.isArray(parsed) || parsed.length > MAX_EVENTS) throw new Error("not a list");
      events = parsed.filter((e) => e !== null && typeof e === "object");
    } catch {
      return json(400, { error: "Corps de requête HubSpot invalide" });
    }
    try {
      const ids = dealIdsOf(events);
      for (const id of ids) await deps.query("select public.queue_crm_pull($1)", [id]);
      return json(200, { received: events.length, deals: ids.length });
    } catch (error) {
      // HubSpot retries on any 5xx: nothing is lost, and queueing coalesces repeats.
      console.error("hubspot webhook", error);
      try {
        await deps.query(
          "insert into public.logs (service, type, message, context) values ('hubspot', 'error', $1, $2::text::jsonb)",
          [
            "Webhook HubSpot non traité (HubSpot réessaiera)",
            JSON.stringify({ error: String(error).slice(0, 1000) }),
          ],
        );
      } catch { /* the database itself is down: the console has it */ }
      return json(500, { error: "Traitement impossible, HubSpot réessaiera" });
    }
  };
}
