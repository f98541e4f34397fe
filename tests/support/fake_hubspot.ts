// A HubSpot portal on 127.0.0.1 speaking the CRM v3 deals API as the real @hubspot/api-client calls it
// (GET/PATCH /crm/v3/objects/deals/{id}, POST /crm/v3/objects/deals), with HubSpot's error bodies.
// On demand it answers 429 with Retry-After or 500 (an outage), for the next n requests or until told
// otherwise, and records every request it received.

export const FAKE_HUBSPOT_TOKEN = "pat-eu1-11111111-2222-3333-4444-555555555555";

export interface ReceivedRequest {
  method: string;
  path: string;
  dealId: string | null;
  authorization: string | null;
  properties: Record<string, string>;
  /** What the fake answered. */
  status: number;
}

type Forced = { status: 429; retryAfter: string } | { status: 500 } | { status: 404 };

function hubspotError(status: number, message: string, category: string, headers: HeadersInit = {}) {
  return Response.json(
    { status: "error", message, correlationId: crypto.randomUUID(), category },
    { status, headers },
  );
}

export function startFakeHubSpot(options: { token?: string; delayMs?: number } = {}) {
  const token = options.token ?? FAKE_HUBSPOT_TOKEN;
  const deals = new Map<string, Record<string, string>>();
  const received: ReceivedRequest[] = [];
  let forced: Forced[] = [];
  let outage: Forced | null = null;
  let nextId = 9_100_000_000;

  const dealJson = (id: string) => ({
    id,
    properties: { ...deals.get(id), hs_object_id: id },
    createdAt: "2026-11-01T09:00:00.000Z",
    updatedAt: new Date().toISOString(),
    archived: false,
  });

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const match = url.pathname.match(/^\/crm\/v3\/objects\/deals(?:\/([^/]+))?$/);
    const text = req.method === "GET" ? "" : await req.text();
    let properties: Record<string, string> = {};
    try {
      properties = text ? (JSON.parse(text).properties ?? {}) : {};
    } catch { /* answered below */ }
    const record = (status: number) =>
      received.push({
        method: req.method,
        path: url.pathname,
        dealId: match?.[1] ? decodeURIComponent(match[1]) : null,
        authorization: req.headers.get("authorization"),
        properties,
        status,
      });
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    const failure = forced.shift() ?? outage;
    if (failure) {
      record(failure.status);
      if (failure.status === 429) {
        return hubspotError(429, "You have reached your secondly limit.", "RATE_LIMITS", {
          "retry-after": failure.retryAfter,
        });
      }
      if (failure.status === 404) return hubspotError(404, "resource not found", "OBJECT_NOT_FOUND");
      return hubspotError(500, "internal error", "INTERNAL_ERROR");
    }
    if (req.headers.get("authorization") !== `Bearer ${token}`) {
      record(401);
      return hubspotError(401, "Authentication credentials not found.", "INVALID_AUTHENTICATION");
    }
    if (!match) {
      record(404);
      return hubspotError(404, "resource not found", "OBJECT_NOT_FOUND");
    }
    const id = match[1] ? decodeURIComponent(match[1]) : null;
    if (req.method === "POST" && id === null) {
      const newId = String(nextId++);
      deals.set(newId, { ...properties });
      record(201);
      return Response.json(dealJson(newId), { status: 201 });
    }
    if (id === null || !deals.has(id)) {
      record(404);
      return hubspotError(404, "resource not found", "OBJECT_NOT_FOUND");
    }
    if (req.method === "GET") {
      record(200);
      // The client sends `properties=a,b` or `properties=a&properties=b`.
      const wanted = url.searchParams.getAll("properties").flatMap((p) => p.split(",")).filter(Boolean);
      const all = deals.get(id)!;
      const props: Record<string, string | null> = { hs_object_id: id };
      for (const key of wanted) props[key] = all[key] ?? null;
      return Response.json({ ...dealJson(id), properties: props });
    }
    if (req.method === "PATCH") {
      Object.assign(deals.get(id)!, properties);
      record(200);
      return Response.json(dealJson(id));
    }
    record(405);
    return hubspotError(405, "method not allowed", "VALIDATION_ERROR");
  });

  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    token,
    deals,
    received,
    /** A deal as if created in HubSpot by a salesperson. */
    addDeal(id: string, properties: Record<string, string>) {
      deals.set(id, { ...properties });
    },
    /** The next `count` requests answer 429 with this Retry-After (seconds). */
    rateLimit(count: number, retryAfter = "2") {
      for (let i = 0; i < count; i++) forced.push({ status: 429, retryAfter });
    },
    /** The next `count` requests answer 500. */
    fail(count: number) {
      for (let i = 0; i < count; i++) forced.push({ status: 500 });
    },
    /** Every request answers 500 until `down(false)`. */
    down(on: boolean) {
      outage = on ? { status: 500 } : null;
      if (!on) forced = [];
    },
    writes: () => received.filter((r) => r.method !== "GET" && r.status < 300),
    close: () => server.shutdown(),
  };
}

export type FakeHubSpot = ReturnType<typeof startFakeHubSpot>;
