// SQL of idempotency keys (public.idempotency_keys, migration 20261128003000_idempotency.sql). The app
// reserves, answers and releases keys as the system actor 'idempotency'; the creation marks its key in
// its own transaction through idempotency.record_creation (recordCreationSql).
import { type Database, type Tx } from "../db/database.ts";
import { statementAs, systemActor } from "../actor.ts";
import { KEY_TTL_HOURS, LEASE_SECONDS } from "./rules.ts";

const SYSTEM = systemActor("idempotency");
const TTL = `${KEY_TTL_HOURS} hours`;

export interface KeyRef {
  scope: string;
  key: string;
}

export interface StoredResponse {
  status: number;
  headers: [string, string][];
  body: string;
}

export interface KeyRow {
  fingerprint: string;
  state: "pending" | "committed" | "completed";
  leaseLive: boolean;
  response: StoredResponse | null;
}

/** Takes the key for the request `token`: a new key, an expired one (> 24 h, not honoured), or one
 * whose holder's lease lapsed without a creation (same fingerprint). True when taken. */
export async function reserveKey(
  db: Database,
  ref: KeyRef,
  fingerprint: string,
  token: string,
): Promise<boolean> {
  const rows = await statementAs(
    db,
    SYSTEM,
    `insert into public.idempotency_keys as k (scope, key, fingerprint, token, locked_until)
     values ($1, $2, $3, $4::uuid, now() + make_interval(secs => $5))
     on conflict (scope, key) do update
       set fingerprint = excluded.fingerprint, token = excluded.token, state = 'pending',
           locked_until = excluded.locked_until, created_at = now(), completed_at = null,
           response_status = null, response_headers = null, response_body = null
       where k.created_at < now() - $6::interval
          or (k.state = 'pending' and k.locked_until < now() and k.fingerprint = excluded.fingerprint)
     returning 1 as taken`,
    [ref.scope, ref.key, fingerprint, token, LEASE_SECONDS, TTL],
  );
  return rows.length === 1;
}

/** The key's row as another request sees it (null when it is gone or expired). */
export async function findKey(db: Database, ref: KeyRef): Promise<KeyRow | null> {
  const [row] = await statementAs<{
    fingerprint: string;
    state: KeyRow["state"];
    lease_live: boolean;
    response_status: number | null;
    response_headers: [string, string][] | null;
    response_body: string | null;
  }>(
    db,
    SYSTEM,
    `select fingerprint, state, locked_until >= now() as lease_live, response_status, response_headers,
            response_body
     from public.idempotency_keys
     where scope = $1 and key = $2 and created_at >= now() - $3::interval`,
    [ref.scope, ref.key, TTL],
  );
  if (!row) return null;
  return {
    fingerprint: row.fingerprint,
    state: row.state,
    leaseLive: row.lease_live,
    response: row.response_status === null ? null : {
      status: row.response_status,
      headers: row.response_headers ?? [],
      body: row.response_body ?? "",
    },
  };
}

/** Stores the answer of the request `token`: always when its creation committed, otherwise only when
 * `storeUncommitted` (a success that created nothing is answered again too). False when not stored. */
export async function completeKey(
  db: Database,
  ref: KeyRef,
  token: string,
  response: StoredResponse,
  storeUncommitted: boolean,
): Promise<boolean> {
  const rows = await statementAs(
    db,
    SYSTEM,
    `update public.idempotency_keys
     set state = 'completed', response_status = $4, response_headers = $5::jsonb, response_body = $6,
         completed_at = now()
     where scope = $1 and key = $2 and token = $3::uuid
       and (state = 'committed' or (state = 'pending' and $7::boolean))
     returning 1 as stored`,
    [
      ref.scope,
      ref.key,
      token,
      response.status,
      JSON.stringify(response.headers),
      response.body,
      storeUncommitted,
    ],
  );
  return rows.length === 1;
}

/** Gives the key back when the request `token` created nothing: a retry runs again. */
export async function releaseKey(db: Database, ref: KeyRef, token: string): Promise<void> {
  await statementAs(
    db,
    SYSTEM,
    `delete from public.idempotency_keys where scope = $1 and key = $2 and token = $3::uuid and state = 'pending'`,
    [ref.scope, ref.key, token],
  );
}

/** In the creation's transaction: marks the key used (raises IK409 when it is no longer this
 * request's). */
export async function recordCreationSql(tx: Tx, ref: KeyRef, token: string): Promise<void> {
  await tx`select idempotency.record_creation(${ref.scope}, ${ref.key}, ${token}::uuid)`;
}
