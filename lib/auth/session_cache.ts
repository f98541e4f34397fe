// Resolved sessions kept in this instance's memory for a few seconds, so that a signed-in request costs
// one database transaction (its own) instead of two: the session lookup is most of a small request's
// database work (scripts/bench.ts measures it).
//
// A cached session never outlives what ends it:
// - this instance drops it at once when it logs the session out or switches an impersonation;
// - every instance drops it when the database announces a change (NOTIFY 'app_sessions', migration
//   20261125000000_session_notify.sql): a session deleted, a user's type, names, email, deletion or
//   anonymisation changed — whichever instance, job or SQL made it;
// - the cache empties itself whenever its listening connection (re)subscribes, since notifications sent
//   meanwhile are lost; at worst an entry lives `ttlMs` (the idle timeout and last_seen_at are then
//   checked by the next lookup in the database).
import type { Database } from "../db/database.ts";
import type { UserActor } from "../actor.ts";

export const SESSION_CHANNEL = "app_sessions";

/** Keyed by the cookie's token itself, so that a cached request skips hashing it too; entries are
 * dropped by the session's hash (actor.sessionHash), which is what the database announces. */
export interface SessionCache {
  get(token: string): UserActor | null;
  /** Call before looking a session up in the database, and pass the result to set(). */
  epoch(): number;
  /** Keeps `actor` unless something was dropped since `epoch` (the lookup may have read a session
   * that ended while it ran). */
  set(token: string, actor: UserActor, epoch: number): void;
  /** A session ended (logout, impersonation switch). */
  dropSession(idHash: string): void;
  /** Every session of a user, or impersonated by them. */
  dropUser(userId: string): void;
  clear(): void;
  readonly size: number;
}

interface Entry {
  actor: UserActor;
  until: number;
}

export function createSessionCache(
  options: { ttlMs: number; maxEntries?: number; now?: () => number },
): SessionCache {
  const entries = new Map<string, Entry>();
  let epoch = 0;
  const max = options.maxEntries ?? 10_000;
  const now = options.now ?? (() => performance.now());
  return {
    get(token) {
      const entry = entries.get(token);
      if (!entry) return null;
      if (entry.until <= now()) {
        entries.delete(token);
        return null;
      }
      return entry.actor;
    },
    epoch: () => epoch,
    set(token, actor, since) {
      if (options.ttlMs <= 0 || since !== epoch) return;
      // Oldest first: a Map iterates in insertion order.
      if (entries.size >= max) entries.delete(entries.keys().next().value as string);
      entries.set(token, { actor, until: now() + options.ttlMs });
    },
    dropSession(idHash) {
      epoch++;
      for (const [token, { actor }] of entries) if (actor.sessionHash === idHash) entries.delete(token);
    },
    dropUser(userId) {
      epoch++;
      for (const [token, { actor }] of entries) {
        if (actor.user.id === userId || actor.impersonatorId === userId) entries.delete(token);
      }
    },
    clear() {
      epoch++;
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}

/** Applies one NOTIFY payload of SESSION_CHANNEL ('h:<hash>' or 'u:<user id>'); anything else clears. */
export function applySessionNotice(cache: SessionCache, payload: string): void {
  if (payload.startsWith("h:")) cache.dropSession(payload.slice(2));
  else if (payload.startsWith("u:")) cache.dropUser(payload.slice(2));
  else cache.clear();
}

/** Keeps `cache` in step with the database's session notices. Returns the function that stops. */
export function followSessionNotices(db: Database, cache: SessionCache): Promise<() => Promise<void>> {
  return db.listen(SESSION_CHANNEL, (payload) => applySessionNotice(cache, payload), () => cache.clear());
}
