// Sessions live in identity.sessions, reached only as service_role (the app's auth service, like
// Supabase's GoTrue). The cookie carries a random token; the table keeps its SHA-256.
import { type Database, SERVICE, type Tx } from "../db/database.ts";
import type { UserType } from "../accounts/rules.ts";
import { randomToken, sha256Hex } from "./crypto.ts";
import { isSessionAlive, needsTouch, SESSION_ABSOLUTE_MS } from "./policy.ts";

export interface SessionUser {
  id: string;
  type: UserType;
  firstname: string;
  lastname: string;
  name: string | null;
  email: string;
}

export interface Session {
  idHash: string;
  user: SessionUser;
  /** The admin who is impersonating `user`, if any. */
  impersonatorId: string | null;
}

export async function createSession(
  tx: Tx,
  userId: string,
  options: { impersonatorId?: string | null; userAgent?: string | null } = {},
): Promise<string> {
  const token = randomToken();
  await tx`
    insert into identity.sessions (id_hash, user_id, impersonator_id, expires_at, user_agent)
    values (${await sha256Hex(token)}, ${userId}, ${options.impersonatorId ?? null},
            now() + ${`${SESSION_ABSOLUTE_MS} milliseconds`}::interval, ${
    options.userAgent?.slice(0, 300) ?? null
  })`;
  return token;
}

export async function findSession(db: Database, token: string, now = new Date()): Promise<Session | null> {
  if (!token || token.length > 100) return null;
  const idHash = await sha256Hex(token);
  return await db.transaction(SERVICE, async (tx) => {
    const [row] = await tx<
      SessionUser & { impersonatorId: string | null; createdAt: Date; lastSeenAt: Date }
    >`
      select u.id, u.type, u.firstname, u.lastname, u.name, u.email,
             s.impersonator_id as "impersonatorId", s.created_at as "createdAt", s.last_seen_at as "lastSeenAt"
      from identity.sessions s join public.users u on u.id = s.user_id
      where s.id_hash = ${idHash} and u.anonymized_at is null`;
    if (!row) return null;
    if (!isSessionAlive(row, now)) {
      await tx`delete from identity.sessions where id_hash = ${idHash}`;
      return null;
    }
    if (needsTouch(row.lastSeenAt, now)) {
      await tx`update identity.sessions set last_seen_at = now() where id_hash = ${idHash}`;
    }
    const { impersonatorId, createdAt: _c, lastSeenAt: _l, ...user } = row;
    return { idHash, user, impersonatorId };
  });
}

export async function deleteSession(tx: Tx, idHash: string): Promise<void> {
  await tx`delete from identity.sessions where id_hash = ${idHash}`;
}

export async function deleteUserSessions(tx: Tx, userId: string): Promise<void> {
  await tx`delete from identity.sessions where user_id = ${userId}`;
}
