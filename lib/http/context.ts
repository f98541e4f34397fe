// What every request handler can reach: the app's dependencies and the request's actor (set by the
// session middleware), plus the request helpers every route shares.
import type { Context } from "hono";
import type { Actor, UserActor } from "../actor.ts";
import type { Deps } from "../deps.ts";
import type { Client } from "../auth/actions.ts";
import { AppError } from "../errors.ts";

export type { Deps };

export type AppEnv = {
  /** `requestId`: set by lib/http/observe.ts (absent when OBSERVE_REQUESTS=false). */
  Variables: { deps: Deps; actor: Actor; requestId?: string };
  /** Deno.serve's connection info (app.request in tests passes the same shape). */
  Bindings: { remoteAddr?: { hostname: string; port: number; transport: string } };
};
export type Ctx = Context<AppEnv>;

/** The signed-in user of a route behind a user guard (routes/… `use(requireUser…)`). */
export function currentUser(c: Ctx): UserActor {
  const actor = c.var.actor;
  if (actor.kind !== "user") throw new Error("currentUser() used on a route without a user guard");
  return actor;
}

/** The client's address: the TCP peer, or with TRUST_PROXY=n the address the n-th proxy saw. */
export function clientOf(c: Ctx): Client {
  const proxies = c.var.deps.config.trustProxy;
  let ip = c.env?.remoteAddr?.hostname ?? "unknown";
  if (proxies > 0) {
    const chain = (c.req.header("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
    ip = chain[chain.length - proxies] ?? chain[0] ?? ip;
  }
  return { ip: ip.slice(0, 100), userAgent: c.req.header("user-agent") ?? null };
}

/** API paths answer JSON; everything else answers HTML pages. */
export function wantsJson(c: Ctx): boolean {
  const path = c.req.path;
  if (path.startsWith("/api/") || path === "/email/exists" || path === "/phone/exists") return true;
  // A request that sent JSON reads JSON back (the session booking calls of spec 000 §7).
  if ((c.req.header("content-type") ?? "").includes("application/json")) return true;
  const accept = c.req.header("accept") ?? "";
  return accept.includes("application/json") && !accept.includes("text/html");
}

const INVALID_BODY = "Le contenu de la requête est invalide.";

// deno-lint-ignore no-control-regex
const NUL = /\u0000/;

/** True when a string anywhere in the value holds a NUL byte (PostgreSQL text cannot store one). */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return NUL.test(value);
  if (depth > 20 || value === null || typeof value !== "object") return false;
  if (value instanceof File) return false;
  return Object.entries(value).some(([key, v]) => NUL.test(key) || hasNul(v, depth + 1));
}

/** Reads a JSON or form body as a plain object. Anything else (malformed JSON, `null`, an array, a
 * string, NUL bytes) is a 400 with a French message, never a 500. */
export async function readBody(c: Ctx): Promise<Record<string, unknown>> {
  const type = c.req.header("content-type") ?? "";
  let body: unknown;
  try {
    if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
      body = await c.req.parseBody({ all: true });
    } else {
      const text = await c.req.text();
      body = text.trim() === "" ? {} : JSON.parse(text);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("bad_request", INVALID_BODY);
  }
  if (body === null || typeof body !== "object" || Array.isArray(body) || hasNul(body)) {
    throw new AppError("bad_request", INVALID_BODY);
  }
  return body as Record<string, unknown>;
}

/** A form or JSON field as a string ("" when absent or not a string). */
export function field(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path parameter that must be a uuid: anything else is a 404 with `message`. */
export function uuidParam(c: Ctx, name: string, message = "La page demandée n'existe pas."): string {
  const value = c.req.param(name) ?? "";
  if (!UUID.test(value)) throw new AppError("not_found", message);
  return value.toLowerCase();
}

/** A path parameter that must be a positive integer id (deals): anything else is a 404. */
export function idParam(c: Ctx, name: string, message = "La page demandée n'existe pas."): number {
  const value = c.req.param(name) ?? "";
  const id = /^[1-9]\d{0,14}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id)) throw new AppError("not_found", message);
  return id;
}

/** The spec's API answer: `{ status: 'success', results }`, with a French message when there is one. */
export function success(c: Ctx, results: unknown, message?: string | null) {
  return c.json({ status: "success", results, ...(message ? { message } : {}) });
}
