// Pure session and login-throttling rules.

export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000; // 24 h without a request ends the session
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000; // and no session lives beyond 7 days
export const SESSION_TOUCH_MS = 5 * 60 * 1000; // last_seen_at is written at most every 5 minutes

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILED_LOGINS = 10;
export const TOO_MANY_LOGINS_MESSAGE =
  "Trop de tentatives de connexion échouées. Veuillez réessayer dans 15 minutes.";

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export function isSessionAlive(session: { createdAt: Date; lastSeenAt: Date }, now: Date): boolean {
  return now.getTime() - session.createdAt.getTime() < SESSION_ABSOLUTE_MS &&
    now.getTime() - session.lastSeenAt.getTime() < SESSION_IDLE_MS;
}

export function needsTouch(lastSeenAt: Date, now: Date): boolean {
  return now.getTime() - lastSeenAt.getTime() >= SESSION_TOUCH_MS;
}

/** The 11th attempt within 15 minutes after 10 failures is refused before the password is checked. */
export function isLoginLocked(failedInWindow: number): boolean {
  return failedInWindow >= MAX_FAILED_LOGINS;
}

/** Only local paths are followed after login, never another site. */
export function safeRedirect(target: string | null | undefined, fallback: string): string {
  if (!target || !target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) {
    return fallback;
  }
  return target;
}
