// The one HubSpot adapter: the real @hubspot/api-client, pointed at HUBSPOT_API_URL (HubSpot itself, or
// a local fake in tests), authenticated with the private app token HUBSPOT_TOKEN. It never sleeps and
// never retries by itself: every failure becomes a HubSpotError saying what the caller (the CRM sync,
// lib/crm/sync.ts, through the outbox) should do with it:
//   * "rate_limited": HubSpot answered 429, or this instance already sent 190 requests in the last 10 s
//     (HubSpot's limit per portal): try again after `retryAfterSeconds` (Retry-After when given);
//   * "permanent": the request itself is wrong (400, 404, 422…): trying again would change nothing;
//   * "transient": 5xx, 401/403 (a token being fixed), a network error or a timeout: retry with backoff.
// The library's own retry and Bottleneck limiter stay off: they would wait inside the worker.
import { Client } from "@hubspot/api-client";
import type { Config } from "../config.ts";

export type HubSpotConfig = Pick<Config, "hubspotToken" | "hubspotApiUrl">;

export type HubSpotErrorKind = "rate_limited" | "permanent" | "transient";

export class HubSpotError extends Error {
  constructor(
    readonly kind: HubSpotErrorKind,
    message: string,
    /** HTTP status of HubSpot's answer; null when none came (network error, timeout, local limit). */
    readonly status: number | null = null,
    /** For "rate_limited": seconds to wait before the next request. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = "HubSpotError";
  }
}

/** A HubSpot deal as the sync reads it: its id and the properties asked for (null when never set). */
export interface HubSpotDeal {
  id: string;
  properties: Record<string, string | null>;
}

export interface HubSpot {
  /** The deal `id` with `properties`, or null when HubSpot has no such deal (404). */
  getDeal(id: string, properties: readonly string[]): Promise<HubSpotDeal | null>;
  /** Creates a deal; returns its HubSpot id. */
  createDeal(properties: Record<string, string>): Promise<string>;
  /** Sets properties of the deal `id` (idempotent: the same values twice do no harm). */
  updateDeal(id: string, properties: Record<string, string>): Promise<void>;
}

export interface HubSpotOptions {
  /** Longest wait for one answer before the call counts as a transient failure. */
  timeoutMs?: number;
  /** Requests allowed per window (HubSpot: 190 per 10 s per portal for private apps). */
  limit?: number;
  windowMs?: number;
  now?: () => number;
}

/** HubSpot's burst limit for a private app: 190 requests per rolling 10 seconds, per portal. */
const HUBSPOT_LIMIT = { requests: 190, windowMs: 10_000 } as const;
/** When a 429 carries no usable Retry-After: the rolling window (the daily limit: an hour). */
const DEFAULT_RETRY_SECONDS = 10;
const DAILY_RETRY_SECONDS = 3600;
const MAX_RETRY_SECONDS = 24 * 3600;

/** Statuses that no retry can fix. 401/403 are retried: the token or its scopes may be fixed meanwhile. */
const PERMANENT = new Set([400, 404, 405, 410, 413, 414, 415, 422]);

/** The adapter, or null when no token is configured (CRM events then stay in the outbox). */
export function hubspotFromConfig(config: HubSpotConfig, options: HubSpotOptions = {}): HubSpot | null {
  return config.hubspotToken ? createHubSpot(config, options) : null;
}

export function createHubSpot(config: HubSpotConfig, options: HubSpotOptions = {}): HubSpot {
  if (!config.hubspotToken) throw new Error("HUBSPOT_TOKEN manquant");
  const client = new Client({ accessToken: config.hubspotToken, basePath: config.hubspotApiUrl });
  const limiter = slidingWindow(
    options.limit ?? HUBSPOT_LIMIT.requests,
    options.windowMs ?? HUBSPOT_LIMIT.windowMs,
    options.now ?? Date.now,
  );
  const timeoutMs = options.timeoutMs ?? 30_000;

  const call = async <T>(what: string, request: () => Promise<T>): Promise<T> => {
    const waitMs = limiter.take();
    if (waitMs > 0) {
      throw new HubSpotError(
        "rate_limited",
        `HubSpot : limite de ${HUBSPOT_LIMIT.requests} requêtes par 10 s atteinte par cette instance`,
        null,
        Math.ceil(waitMs / 1000),
      );
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new HubSpotError("transient", `HubSpot : pas de réponse après ${timeoutMs} ms (${what})`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([request(), timeout]);
    } catch (error) {
      throw toHubSpotError(error, what);
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    async getDeal(id, properties) {
      try {
        const deal = await call(
          "lecture de la transaction",
          () => client.crm.deals.basicApi.getById(id, [...properties]),
        );
        return { id: deal.id, properties: { ...deal.properties } };
      } catch (error) {
        if (error instanceof HubSpotError && error.status === 404) return null;
        throw error;
      }
    },
    async createDeal(properties) {
      const deal = await call(
        "création de la transaction",
        () => client.crm.deals.basicApi.create({ properties, associations: [] }),
      );
      return deal.id;
    },
    async updateDeal(id, properties) {
      await call(
        "mise à jour de la transaction",
        () => client.crm.deals.basicApi.update(id, { properties }),
      );
    },
  };
}

/** What the library throws (ApiException: code, body, headers) or fetch (TypeError), as a HubSpotError. */
export function toHubSpotError(error: unknown, what = "requête"): HubSpotError {
  if (error instanceof HubSpotError) return error;
  const e = error as { code?: unknown; body?: unknown; headers?: Record<string, string> } | null;
  const status = typeof e?.code === "number" && e.code >= 100 && e.code <= 599 ? e.code : null;
  if (status === null) {
    return new HubSpotError("transient", `HubSpot injoignable (${what}) : ${String(error)}`.slice(0, 1000));
  }
  const body = (e?.body ?? {}) as { message?: unknown; category?: unknown; policyName?: unknown };
  const detail = typeof body.message === "string" ? body.message : typeof e?.body === "string" ? e.body : "";
  const message = `HubSpot ${status} (${what})${detail ? ` : ${detail}` : ""}`.slice(0, 1000);
  if (status === 429) {
    const fallback = body.policyName === "DAILY" ? DAILY_RETRY_SECONDS : DEFAULT_RETRY_SECONDS;
    return new HubSpotError(
      "rate_limited",
      message,
      status,
      retryAfterSeconds(header(e, "retry-after"), fallback),
    );
  }
  return new HubSpotError(PERMANENT.has(status) ? "permanent" : "transient", message, status);
}

function header(error: { headers?: Record<string, string> } | null, name: string): string | undefined {
  const headers = error?.headers ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : String(headers[key]);
}

/** Retry-After as delay-seconds or an HTTP date, bounded to [1 s, 24 h]; `fallback` when unusable. */
export function retryAfterSeconds(value: string | undefined, fallback: number, now = Date.now()): number {
  const text = value?.trim() ?? "";
  let seconds = fallback;
  if (/^\d+$/.test(text)) seconds = Number(text);
  else if (text) {
    const at = Date.parse(text);
    if (!Number.isNaN(at)) seconds = Math.ceil((at - now) / 1000);
  }
  return Math.min(Math.max(seconds, 1), MAX_RETRY_SECONDS);
}

/** At most `limit` calls in any `windowMs`: `take()` records a call and returns 0, or returns how many
 * milliseconds to wait before one is allowed (recording nothing). */
export function slidingWindow(limit: number, windowMs: number, now: () => number) {
  const calls: number[] = [];
  return {
    take(): number {
      const t = now();
      while (calls.length && calls[0] <= t - windowMs) calls.shift();
      if (calls.length >= limit) return calls[0] + windowMs - t;
      calls.push(t);
      return 0;
    },
  };
}
