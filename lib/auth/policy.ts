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

// Login (OWASP ASVS 5.0 V6.3: resist credential stuffing and brute force without locking the owner out).
// Counters, all over the last 15 minutes, read from identity.login_attempts before the password is
// checked; a refused attempt checks no password and is not recorded, so it spends nothing — no budget
// is shared by every visitor:
//   * pair: failures on one account from one client address, since that pair's last success → 10;
//   * client: failures from one client address, whatever the accounts → 20, except on an account this
//     address is known to (below): a household or an office behind one address keeps its known logins;
//   * account: failures on one account from every address → 50, then the account accepts attempts only
//     from addresses known to it: an address that logged into it, registered it, or completed a
//     password reset for it in the last 30 days. The owner elsewhere gets in with a reset link (which
//     makes that address known) — never locked out for good.
// Unknown emails are counted like accounts, so a refusal tells nothing about which emails exist.
// Client attempts (successes included) → LOGIN_ATTEMPTS_PER_MINUTE (default 60): the hash is the costly part.
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const KNOWN_ADDRESS_DAYS = 30;
const MAX_FAILED_LOGINS_PER_ACCOUNT_AND_CLIENT = 10;
const MAX_FAILED_LOGINS_PER_CLIENT = 20;
const MAX_FAILED_LOGINS_PER_ACCOUNT = 50;

export const TOO_MANY_LOGINS_MESSAGE =
  "Trop de tentatives de connexion échouées. Veuillez réessayer dans 15 minutes.";
export const ACCOUNT_UNDER_ATTACK_MESSAGE =
  "Trop de tentatives de connexion sur ce compte. Pour vous connecter depuis cet appareil, utilisez " +
  "« Mot de passe oublié » : le lien reçu par email fonctionne toujours.";
export const TOO_MANY_LOGIN_ATTEMPTS_MESSAGE =
  "Trop de tentatives de connexion depuis cette connexion. Veuillez réessayer dans une minute.";

// Password reset: the requester is limited per client address (20 an hour, 429); the account is
// protected by sending it at most one email every RESET_EMAIL_INTERVAL_MINUTES (a setting, default 5),
// while every request gets the same neutral answer. A new request does not void a link already sent.
export const RESET_REQUESTS_PER_CLIENT: Limit = { max: 20, windowSeconds: 3600 };
export const TOO_MANY_RESETS_MESSAGE =
  "Trop de demandes de réinitialisation. Veuillez réessayer dans une heure.";

// Account creation, per client address (REGISTRATIONS_PER_HOUR, default 10), as quote requests are.
export const TOO_MANY_REGISTRATIONS_MESSAGE =
  "Trop de comptes créés depuis cette connexion. Veuillez réessayer dans une heure.";

// The registration form's live email/phone checks (spec 000 §5) reveal whether an account exists;
// they stay usable while typing but not for enumeration.
export const EXISTENCE_CHECKS_PER_CLIENT: Limit = { max: 100, windowSeconds: 600 };
export const TOO_MANY_REQUESTS_MESSAGE = "Trop de requêtes. Veuillez réessayer dans quelques minutes.";

export interface LoginFailures {
  /** Failures on this account from this address since the pair's last success. */
  accountFromClient: number;
  /** Failures from this address on any account. */
  client: number;
  /** Failures on this account from every address. */
  account: number;
  /** This address logged into, registered or reset this account in the last KNOWN_ADDRESS_DAYS. */
  known: boolean;
}

/** Why the next login attempt is refused before the password is even checked, or null. */
export function loginRefusal(f: LoginFailures): "pair" | "client" | "account" | null {
  if (f.accountFromClient >= MAX_FAILED_LOGINS_PER_ACCOUNT_AND_CLIENT) return "pair";
  if (f.known) return null;
  if (f.client >= MAX_FAILED_LOGINS_PER_CLIENT) return "client";
  if (f.account >= MAX_FAILED_LOGINS_PER_ACCOUNT) return "account";
  return null;
}

/** Whether the next login attempt is refused before the password is even checked. */
export function isLoginLocked(failures: LoginFailures): boolean {
  return loginRefusal(failures) !== null;
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
