// The id of the request (or job run) the current code works for, carried by AsyncLocalStorage so that
// every log line it causes — the logger's rows and console lines, the request's own JSON line — names
// it without threading it through every call. A primitive: it imports nothing of the app.
import { AsyncLocalStorage } from "node:async_hooks";

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` (and everything it starts, promises and timers included) under `requestId`. */
export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId }, fn);
}

/** The id of the request or job run being served, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** An incoming `X-Request-Id` we keep (a proxy's or a client's): at most 64 characters of
 * [A-Za-z0-9._-]. Anything else is replaced by a fresh id (never echoed: it could carry markup). */
const SANE_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function acceptRequestId(header: string | undefined | null): string | null {
  return header && SANE_ID.test(header) ? header : null;
}

export function newRequestId(): string {
  return crypto.randomUUID();
}
