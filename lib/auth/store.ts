// SQL of the auth capability: sessions, credentials, login attempts and password-reset tokens, all in
// the identity schema that only the service role reaches (like Supabase's auth schema). Every
// function takes the transaction of the use case that calls it.
import type { Tx } from "../db/database.ts";
import type { SessionUser } from "../actor.ts";
import { randomToken, sha256Hex } from "./crypto.ts";
import {
  KNOWN_ADDRESS_DAYS,
  LOGIN_WINDOW_MS,
  type LoginFailures,
  RESET_TOKEN_TTL_MS,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  SESSION_TOUCH_MS,
} from "./policy.ts";

export async function createSession(
  tx: Tx,
  userId: string,
  options: { impersonatorId?: string | null; userAgent?: string | null } = {},
): Promise<string> {
  const token = randomToken();
  await tx`
    insert into identity.sessions (id_hash, user_id, impersonator_id, expires_at, user_agent)
    values (${await sha256Hex(token)}, ${userId}, ${options.impersonatorId ?? null},
            now() + ${`${SESSION_ABSOLUTE_MS} milliseconds`}::interval,
            ${options.userAgent?.slice(0, 300) ?? null})`;
  return token;
}

export type ResolvedSession = SessionUser & { impersonatorId: string | null };

/** One statement: the live session's user, and `last_seen_at` refreshed only when older than five
 * minutes (most requests write nothing). Expired sessions are left to the purge job. */
export const RESOLVE_SESSION_SQL = `
  with live as (
    select s.id_hash, s.user_id, s.impersonator_id, s.last_seen_at
    from identity.sessions s
    where s.id_hash = $1
      and s.created_at > now() - interval '${SESSION_ABSOLUTE_MS} milliseconds'
      and s.last_seen_at > now() - interval '${SESSION_IDLE_MS} milliseconds'
  ), touched as (
    update identity.sessions t set last_seen_at = now() from live
    where t.id_hash = live.id_hash and live.last_seen_at < now() - interval '${SESSION_TOUCH_MS} milliseconds'
  )
  select u.id, u.type, u.firstname, u.lastname, u.name, u.email, live.impersonator_id as "impersonatorId"
  from live join public.users u on u.id = live.user_id
  where u.anonymized_at is null`;

export async function deleteSession(tx: Tx, idHash: string): Promise<void> {
  await tx`delete from identity.sessions where id_hash = ${idHash}`;
}

export async function deleteUserSessions(tx: Tx, userId: string): Promise<void> {
  await tx`delete from identity.sessions where user_id = ${userId}`;
}

export async function insertCredentials(tx: Tx, userId: string, passwordHash: string): Promise<void> {
  await tx`insert into identity.credentials (user_id, password_hash) values (${userId}, ${passwordHash})`;
}

export interface LoginAccount {
  id: string;
  hash: string;
  deletedAt: Date | null;
}

/** The login counters of lib/auth/policy.ts for this email from this client address, in one statement
 * (the indexes on (email, …) and (ip, …) keep it to the recent rows of both). */
export async function loginFailures(tx: Tx, email: string, ip: string): Promise<LoginFailures> {
  const window = `${LOGIN_WINDOW_MS} milliseconds`;
  const [row] = await tx<LoginFailures>`
    with pair_success as (
      select max(attempted_at) as at from identity.login_attempts
      where email = ${email} and ip = ${ip} and succeeded
        and attempted_at > now() - ${`${KNOWN_ADDRESS_DAYS} days`}::interval
    )
    select
      (select count(*)::int from identity.login_attempts a, pair_success p
        where a.email = ${email} and a.ip = ${ip} and not a.succeeded
          and a.attempted_at > greatest(now() - ${window}::interval, coalesce(p.at, '-infinity'))
      ) as "accountFromClient",
      (select count(*)::int from identity.login_attempts
        where ip = ${ip} and not succeeded and attempted_at > now() - ${window}::interval) as client,
      (select count(*)::int from identity.login_attempts
        where email = ${email} and not succeeded and attempted_at > now() - ${window}::interval) as account,
      (select p.at is not null from pair_success p) as known`;
  return row;
}

export async function findLoginAccount(tx: Tx, email: string): Promise<LoginAccount | null> {
  const [row] = await tx<LoginAccount>`
    select u.id, c.password_hash as hash, u.deleted_at as "deletedAt"
    from public.users u join identity.credentials c on c.user_id = u.id
    where u.email = ${email} and u.anonymized_at is null`;
  return row ?? null;
}

export async function recordLoginAttempt(
  tx: Tx,
  email: string,
  ip: string,
  succeeded: boolean,
): Promise<void> {
  await tx`insert into identity.login_attempts (email, ip, succeeded) values (${email}, ${ip}, ${succeeded})`;
}

/** Voids the user's earlier links and stores a new one; returns the token to put in the email. */
export async function issueResetToken(
  tx: Tx,
  userId: string,
  ttlMs = RESET_TOKEN_TTL_MS,
  options: { voidEarlier?: boolean } = {},
): Promise<string> {
  const token = randomToken();
  if (options.voidEarlier ?? true) {
    await tx`update identity.password_reset_tokens set used_at = now() where user_id = ${userId} and used_at is null`;
  }
  await tx`insert into identity.password_reset_tokens (token_hash, user_id, expires_at)
           values (${await sha256Hex(token)}, ${userId}, now() + ${`${ttlMs} milliseconds`}::interval)`;
  return token;
}

export async function findResetToken(
  tx: Tx,
  token: string,
): Promise<{ userId: string; tokenHash: string } | null> {
  if (!token || token.length > 100) return null;
  const tokenHash = await sha256Hex(token);
  const [row] = await tx<{ userId: string }>`
    select user_id as "userId" from identity.password_reset_tokens
    where token_hash = ${tokenHash} and used_at is null and expires_at > now()`;
  return row ? { userId: row.userId, tokenHash } : null;
}

/** Whether a reset link was issued to the user in the last `minutes` (one email per interval). */
export async function resetIssuedWithin(tx: Tx, userId: string, minutes: number): Promise<boolean> {
  const [row] = await tx<{ recent: boolean }>`
    select exists (select from identity.password_reset_tokens
      where user_id = ${userId} and used_at is null
        and created_at > now() - ${`${minutes} minutes`}::interval) as recent`;
  return row.recent;
}

/** Uses up a valid token in one conditional update: of two uses at once (two instances), the second
 * waits for the first's row lock, then finds it used and gets null. Returns the token's user. */
export async function consumeResetToken(tx: Tx, token: string): Promise<string | null> {
  if (!token || token.length > 100) return null;
  const [row] = await tx<{ userId: string }>`
    update identity.password_reset_tokens set used_at = now()
    where token_hash = ${await sha256Hex(token)} and used_at is null and expires_at > now()
    returning user_id as "userId"`;
  return row?.userId ?? null;
}

/** Sets the password of the user whose reset token was just consumed, ends the account's other links
 * (several may be live: requests do not void them) and its sessions. */
export async function setPasswordAfterReset(tx: Tx, userId: string, passwordHash: string) {
  await tx`update identity.password_reset_tokens set used_at = now()
           where user_id = ${userId} and used_at is null`;
  // An invited partner has no password yet: the link creates it.
  await tx`insert into identity.credentials (user_id, password_hash) values (${userId}, ${passwordHash})
           on conflict (user_id) do update set password_hash = excluded.password_hash, updated_at = now()`;
  await deleteUserSessions(tx, userId);
}

/** Runs as the user: the database function only ever changes the caller's own password. */
export async function changeOwnPassword(
  tx: Tx,
  passwordHash: string,
  keepSessionHash: string,
): Promise<void> {
  await tx`select identity.change_own_password(${passwordHash}, ${keepSessionHash})`;
}
