// Pure session, throttling and redirect rules of the auth capability. The session limits are enforced
// by the SQL that resolves a cookie (lib/auth/store.ts RESOLVE_SESSION_SQL, tested in store_test.ts).

export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000; // 24 h without a request ends the session
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000; // and no session lives beyond 7 days
export const SESSION_TOUCH_MS = 5 * 60 * 1000; // last_seen_at is written at most every 5 minutes

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/** A rate limit: at most `max` hits per sliding window of `windowSeconds`. */
export interface Limit {
  max: number;
  windowSeconds: number;
}

// Login. The lock after 10 failures applies to one account *from one client address*: an attacker
// elsewhere cannot shut the owner out. A client address that fails 20 times in 15 minutes, whatever
// the accounts, is refused; and all login attempts together are capped, so that a flood of password
// checks (argon2, tens of ms of CPU each) cannot starve the server from many addresses at once.
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
const MAX_FAILED_LOGINS_PER_ACCOUNT_AND_CLIENT = 10;
const MAX_FAILED_LOGINS_PER_CLIENT = 20;
export const LOGIN_ATTEMPTS_OVERALL: Limit = { max: 600, windowSeconds: 60 };

export const TOO_MANY_LOGINS_MESSAGE =
  "Trop de tentatives de connexion échouées. Veuillez réessayer dans 15 minutes.";
export const LOGINS_BUSY_MESSAGE =
  "Trop de tentatives de connexion en ce moment. Veuillez réessayer dans une minute.";

// Password reset: per address and per client address, counted for every address asked (known or
// not), so the limit reveals nothing.
export const RESET_REQUESTS_PER_EMAIL: Limit = { max: 5, windowSeconds: 3600 };
export const RESET_REQUESTS_PER_CLIENT: Limit = { max: 20, windowSeconds: 3600 };
export const TOO_MANY_RESETS_MESSAGE =
  "Trop de demandes de réinitialisation. Veuillez réessayer dans une heure.";

// The registration form's live email/phone checks (spec 000 §5) reveal whether an account exists;
// they stay usable while typing but not for enumeration.
export const EXISTENCE_CHECKS_PER_CLIENT: Limit = { max: 100, windowSeconds: 600 };
export const TOO_MANY_REQUESTS_MESSAGE = "Trop de requêtes. Veuillez réessayer dans quelques minutes.";

/** Whether the next login attempt is refused before the password is even checked. */
export function isLoginLocked(failures: { accountFromClient: number; client: number }): boolean {
  return failures.accountFromClient >= MAX_FAILED_LOGINS_PER_ACCOUNT_AND_CLIENT ||
    failures.client >= MAX_FAILED_LOGINS_PER_CLIENT;
}

const BASE = "https://this-site.invalid";

/** Follows only a path of this site: the target is parsed and normalised as a browser would, and
 * must still be a path here (no other host, no scheme-relative `//`, no control characters or
 * backslashes that browsers drop or rewrite). Returns the normalised path and query, or `fallback`. */
export function safeRedirect(target: string | null | undefined, fallback: string): string {
  if (!target || target.length > 2000 || !target.startsWith("/")) return fallback;
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return fallback;
  let url: URL;
  try {
    url = new URL(target, BASE);
  } catch {
    return fallback;
  }
  const path = url.pathname + url.search;
  if (url.origin !== BASE || !path.startsWith("/") || path.startsWith("//")) return fallback;
  return path;
}
