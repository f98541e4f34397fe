// The outbox's pure rules: queue names, defaults, the one backoff formula, and the two ways a handler
// says how its job went wrong other than by throwing (retry later without counting an attempt, or fail
// for good). The SQL side is supabase/migrations/20261126000100_outbox.sql.

/** Lower-case words joined by dashes, at most 63 characters ('send-email', 'crm-push'). */
export const QUEUE_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
export const MAX_QUEUE_NAME = 63;
export const MAX_KEY_LENGTH = 200;

export const DEFAULT_MAX_ATTEMPTS = 8;
/** How long a claimed job is held before another instance may take it (the batch runs one job after
 * the other: the lease covers the whole batch). */
export const DEFAULT_LEASE_SECONDS = 300;
export const DEFAULT_BATCH = 10;

export interface Backoff {
  /** Delay after the first failed attempt. */
  baseSeconds: number;
  /** Longest delay. */
  capSeconds: number;
}

/** 1, 2, 4, 8 … minutes, at most 6 hours: eight attempts span about two hours. */
export const DEFAULT_BACKOFF: Backoff = { baseSeconds: 60, capSeconds: 6 * 3600 };

export function isQueueName(name: string): boolean {
  return name.length <= MAX_QUEUE_NAME && QUEUE_NAME.test(name);
}

/** Seconds before the next attempt after `attempts` failed ones (1 or more): base × 2^(attempts − 1),
 * capped. The one formula of every queue; queues choose only its base and cap. */
export function retryDelaySeconds(attempts: number, backoff: Backoff = DEFAULT_BACKOFF): number {
  const n = Math.max(1, Math.floor(attempts));
  // 2^30 already exceeds any cap in seconds: no overflow to Infinity for absurd attempt counts.
  const delay = backoff.baseSeconds * 2 ** Math.min(n - 1, 30);
  return Math.max(0, Math.min(Math.round(delay), backoff.capSeconds));
}

/** Thrown by a handler: try again in `seconds` (a service's Retry-After). `countsAsAttempt: false`
 * when nothing was tried (a rate limit), so that waiting never uses up the job's attempts. */
export class RetryLater extends Error {
  constructor(
    readonly seconds: number,
    message = "Nouvel essai plus tard",
    readonly countsAsAttempt = false,
  ) {
    super(message);
    this.name = "RetryLater";
  }
}

/** Thrown by a handler: retrying cannot help (the request itself is wrong); the job fails at once. */
export class PermanentFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentFailure";
  }
}

export type Outcome =
  | { kind: "retry"; delaySeconds: number; countAttempt: boolean }
  | { kind: "fail" };

/** What becomes of a job whose handler threw `error` on its `attempts`-th attempt. */
export function outcomeOf(
  error: unknown,
  attempts: number,
  maxAttempts: number,
  backoff: Backoff = DEFAULT_BACKOFF,
): Outcome {
  if (error instanceof PermanentFailure) return { kind: "fail" };
  if (error instanceof RetryLater) {
    // A wait that is not an attempt never fails the job; one that is, like any failure.
    if (error.countsAsAttempt && attempts >= maxAttempts) return { kind: "fail" };
    return {
      kind: "retry",
      delaySeconds: Math.max(0, Math.ceil(error.seconds)),
      countAttempt: error.countsAsAttempt,
    };
  }
  if (attempts >= maxAttempts) return { kind: "fail" };
  return { kind: "retry", delaySeconds: retryDelaySeconds(attempts, backoff), countAttempt: true };
}

/** The text kept in last_error: the error's message (its name when it is not a plain Error). */
export function errorText(error: unknown): string {
  const text = error instanceof Error
    ? (error.name && error.name !== "Error" ? `${error.name}: ${error.message}` : error.message)
    : String(error);
  return text.slice(0, 2000);
}

export const OUTBOX_MESSAGES = {
  jobNotFound: "Cette tâche n'existe pas ou n'est plus en échec.",
  requeued: "La tâche est relancée.",
} as const;
