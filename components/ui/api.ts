// Browser helper used by islands: JSON requests to the app's API with French error messages.
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_MESSAGES, newIdempotencyKey } from "../../lib/idempotency/rules.ts";

export interface ApiFailure {
  message?: string;
  error?: string;
  errors?: Record<string, string>;
}

export class ApiError extends Error {
  constructor(readonly status: number, readonly body: ApiFailure) {
    super(body.message ?? body.error ?? `HTTP ${status}`);
  }
}

export interface ApiOptions {
  /** Sent as the Idempotency-Key header (see submitOnce). */
  idempotencyKey?: string;
}

export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  options: ApiOptions = {},
): Promise<T> {
  const headers: Record<string, string> = body === undefined ? { accept: "application/json" } : {
    accept: "application/json",
    "content-type": "application/json",
  };
  if (options.idempotencyKey) headers[IDEMPOTENCY_HEADER] = options.idempotencyKey;
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data as ApiFailure);
  return data as T;
}

/** POSTs one form field (the spec's /email/exists and /phone/exists shape). */
export async function postField(path: string, name: string, value: string): Promise<Record<string, unknown>> {
  const form = new URLSearchParams({ [name]: value });
  const response = await fetch(path, { method: "POST", credentials: "same-origin", body: form });
  return response.ok ? await response.json() : {};
}

/** How many times submitOnce sends one submission, and the pause before each new try. */
export const SUBMIT_TRIES = 4;
const PAUSES_MS = [400, 1000, 2000];

/** A try worth repeating with the same key: no answer at all (the network), a proxy or a server that
 * could not answer (502, 503, 504), or the same submission still running on the server (409). */
function worthRetrying(error: unknown): boolean {
  if (!(error instanceof ApiError)) return error instanceof TypeError;
  if ([502, 503, 504].includes(error.status)) return true;
  return error.status === 409 && error.body.message === IDEMPOTENCY_MESSAGES.inProgress;
}

/** One submission of a POST that creates something (a quote request, an account, places in the cart,
 * a checkout, a gift voucher, a payment, a chat message): one Idempotency-Key for the submission, sent
 * again on each retry, so that a retry after a lost answer gets the first answer and creates nothing. */
export async function submitOnce<T>(
  path: string,
  body: unknown,
  options: { key?: string; pause?: (ms: number) => Promise<void> } = {},
): Promise<T> {
  const key = options.key ?? newIdempotencyKey();
  const pause = options.pause ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 1;; attempt++) {
    try {
      return await api<T>("POST", path, body, { idempotencyKey: key });
    } catch (error) {
      if (attempt >= SUBMIT_TRIES || !worthRetrying(error)) throw error;
      await pause(PAUSES_MS[attempt - 1] ?? 2000);
    }
  }
}
