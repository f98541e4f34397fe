// `idempotent()`: the middleware of the POSTs that create something (quote request, registration, add
// to cart, checkout, voucher purchase, manual payment, chat message). With an `Idempotency-Key` header
// (or the `idempotency_key` field of an HTML form), the same key from the same caller within 24 hours
// answers the first response again and creates nothing:
//   1. reserve the key in its own statement (pending, leased for LEASE_SECONDS);
//   2. run the handler; its use case marks the key in the transaction that creates (recordCreation);
//   3. store the response (always when something was created, and for any success), or release the key
//      when nothing was created (a refused input, a full date…), so that a retry runs again.
// A duplicate while the first runs gets 409; the same key with another body 422; a bad key 422.
import type { MiddlewareHandler } from "hono";
import { type AppEnv, clientOf, type Ctx } from "./context.ts";
import { AppError } from "../errors.ts";
import { sha256Hex } from "../auth/crypto.ts";
import { SESSION_COOKIE } from "./cookies.ts";
import { withReservation } from "../idempotency/context.ts";
import {
  completeKey,
  findKey,
  type KeyRef,
  releaseKey,
  reserveKey,
  type StoredResponse,
} from "../idempotency/store.ts";
import {
  IDEMPOTENCY_FIELD,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_MESSAGES,
  isValidKey,
  REPLAYED_HEADER,
} from "../idempotency/rules.ts";

/** The headers an answer is replayed with (the app's middleware adds the security and cache ones). */
const KEPT_HEADERS = ["content-type", "location", "content-language"];

/** The caller a key belongs to: the signed-in user, or for a visitor the client's address (the only
 * thing a visitor's first request and its retry surely share: a visitor may have no cookie yet). */
export function scopeOf(c: Ctx): string {
  const actor = c.var.actor;
  if (actor.kind === "user") return `user:${actor.user.id}`;
  if (actor.kind === "system") return `system:${actor.reason}`;
  return `ip:${clientOf(c).ip}`;
}

function isForm(c: Ctx): boolean {
  const type = c.req.header("content-type") ?? "";
  return type.includes("application/x-www-form-urlencoded");
}

async function bodyText(c: Ctx): Promise<string> {
  try {
    return await c.req.text();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("bad_request", "Le contenu de la requête est invalide.");
  }
}

/** The request's key (null when it sent none) and its fingerprint: method, path and SHA-256 of the
 * body (a form's key field left out). */
export async function readKey(c: Ctx): Promise<{ key: string | null; fingerprint: string }> {
  const text = await bodyText(c);
  let key = c.req.header(IDEMPOTENCY_HEADER) ?? null;
  let canonical = text;
  if (isForm(c)) {
    const form = new URLSearchParams(text);
    key ??= form.get(IDEMPOTENCY_FIELD);
    form.delete(IDEMPOTENCY_FIELD);
    canonical = form.toString();
  }
  if (key !== null && !isValidKey(key)) {
    throw new AppError("validation", IDEMPOTENCY_MESSAGES.invalidKey, {
      [IDEMPOTENCY_FIELD]: IDEMPOTENCY_MESSAGES.invalidKey,
    });
  }
  return { key, fingerprint: `${c.req.method} ${c.req.path} ${await sha256Hex(canonical)}` };
}

function isSessionCookie(cookie: string): boolean {
  const name = cookie.slice(0, cookie.indexOf("=")).trim();
  return name === SESSION_COOKIE || name === `__Host-${SESSION_COOKIE}`;
}

/** What is kept of an answer. A session cookie is never stored (sessions are kept hashed): the replay
 * of a registration does not sign the client in, it tells the account exists. */
async function snapshot(response: Response): Promise<StoredResponse> {
  const headers: [string, string][] = [];
  for (const name of KEPT_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers.push([name, value]);
  }
  for (const cookie of response.headers.getSetCookie()) {
    if (!isSessionCookie(cookie)) headers.push(["set-cookie", cookie]);
  }
  return { status: response.status, headers, body: await response.clone().text() };
}

function replay(stored: StoredResponse): Response {
  const headers = new Headers();
  for (const [name, value] of stored.headers) headers.append(name, value);
  headers.set(REPLAYED_HEADER, "true");
  return new Response(stored.body, { status: stored.status, headers });
}

export function idempotent(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { key, fingerprint } = await readKey(c);
    if (key === null) return await next();
    const { db, logger } = c.var.deps;
    const ref: KeyRef = { scope: scopeOf(c), key };
    const token = crypto.randomUUID();
    // Two rounds: a key released or expired between our reservation and our read is reserved again.
    for (let round = 0; round < 3; round++) {
      if (!(await reserveKey(db, ref, fingerprint, token))) {
        const row = await findKey(db, ref);
        if (!row) continue;
        if (row.fingerprint !== fingerprint) {
          throw new AppError("validation", IDEMPOTENCY_MESSAGES.otherRequest);
        }
        if (row.state === "completed" && row.response) return replay(row.response);
        if (row.leaseLive) throw new AppError("conflict", IDEMPOTENCY_MESSAGES.inProgress);
        if (row.state === "committed") throw new AppError("conflict", IDEMPOTENCY_MESSAGES.answerLost);
        continue; // pending with a lapsed lease, same body: taken over by the next reservation
      }
      const reservation = { ...ref, token, finished: false };
      try {
        await withReservation(reservation, () => next());
      } finally {
        reservation.finished = true;
      }
      try {
        const stored = await snapshot(c.res);
        if (!(await completeKey(db, ref, token, stored, stored.status < 400))) {
          await releaseKey(db, ref, token);
        }
      } catch (error) {
        // The answer stands; the key stays pending (taken over after its lease) or committed (a retry
        // is told the request was handled).
        await logger.warning("idempotency", "Réponse non conservée pour une clé d'idempotence", {
          path: c.req.path,
          error: String(error).slice(0, 500),
        });
      }
      return;
    }
    throw new AppError("conflict", IDEMPOTENCY_MESSAGES.inProgress);
  };
}
