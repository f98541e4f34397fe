// One interface over the two databases the app can run on: PostgreSQL (postgres.js) when
// DATABASE_URL is set, the embedded PGlite otherwise. Every data access goes through
// `transaction(claims, fn)`: one transaction, run as role anon/authenticated/service_role with the
// claims set locally, so that row-level security applies exactly as on Supabase. Claims are built in
// one place only, lib/actor.ts, from the request's or job's actor.
//
// Both adapters return the same JavaScript values (tested in types_test.ts): int2/int4/int8 and counts
// as numbers (int8 beyond 2^53 is refused rather than rounded), numeric as an exact decimal string,
// date as "YYYY-MM-DD", timestamp and timestamptz as Date (a timestamp without zone read as UTC),
// json and jsonb parsed, uuid and text as strings, bytea as Uint8Array.

export type DbRole = "anon" | "authenticated" | "service_role";

export interface Claims {
  role: DbRole;
  /** The user the request acts as (auth.uid()). */
  sub?: string;
  /** Set when an admin impersonates `sub`: the real admin's id. */
  act?: { sub: string };
  /** Why the system acts (service_role only): auth, job, webhook, seed… */
  reason?: string;
}

export type Row = Record<string, unknown>;

export interface QueryOptions {
  /** `false` for SQL whose text is built at run time (a search's words, the fields a PATCH changes):
   * on PostgreSQL each distinct text would otherwise stay prepared on every connection for its life.
   * Statements with a fixed text are prepared by default (DATABASE_PREPARE, lib/db/postgres.ts). */
  prepare?: boolean;
}

/** Runs queries inside one transaction. Callable as a tagged template: values become parameters (the
 * text is the template's, fixed: prepared on PostgreSQL). */
export interface Tx {
  <T = Row>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]>;
  query<T = Row>(text: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  errors: number;
}

export interface Database {
  readonly kind: "pglite" | "postgres";
  /** One transaction under `claims`. On PostgreSQL, BEGIN and the claims travel with the first query
   * (one round trip), so a one-query transaction costs two round trips with its COMMIT. */
  transaction<T>(claims: Claims, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** One statement in its own transaction under `claims`: BEGIN, claims, statement and COMMIT are sent
   * together (one round trip on PostgreSQL). */
  statement<T = Row>(claims: Claims, text: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
  /** Calls `onMessage` with each NOTIFY payload on `channel` (from any connection, this one's included),
   * and `onListening` each time the listening connection (re)subscribes: notifications sent while it
   * was away are lost, so a listener resets what it derived from them. Returns a function that stops. */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onListening?: () => void,
  ): Promise<() => Promise<void>>;
  /** Pool figures for /metrics: connections in the pool (its size on PostgreSQL), those not lent out,
   * callers waiting for one, and the connection/database errors (lib/db/unavailable.ts) since start. */
  stats?(): PoolStats;
  /** Runs a multi-statement script in one transaction as the connection's owner (migrations, seed). */
  execScript(script: string, guard?: (tx: Tx) => Promise<boolean>): Promise<boolean>;
  close(): Promise<void>;
}

/** The statement that sets the role and the claims for the rest of the current transaction. */
export const CLAIMS_SQL = "select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)";

export function claimsParams(claims: Claims): [string, string] {
  return [claims.role, JSON.stringify(claims)];
}

/** Turns a template literal into `$1, $2…` text and a parameter list. */
export function toQuery(strings: TemplateStringsArray, values: unknown[]): [string, unknown[]] {
  let text = strings[0];
  for (let i = 0; i < values.length; i++) text += `$${i + 1}${strings[i + 1]}`;
  return [text, values];
}

export function makeTx(
  query: <T>(text: string, params: unknown[], options: QueryOptions) => Promise<T[]>,
): Tx {
  const tx = (<T>(strings: TemplateStringsArray, ...values: unknown[]) => {
    const [text, params] = toQuery(strings, values);
    return query<T>(text, params, {});
  }) as Tx;
  tx.query = <T>(text: string, params: unknown[] = [], options: QueryOptions = {}) =>
    query<T>(text, params, options);
  return tx;
}

// ---------------------------------------------------------------------------------------------------
// Value parsers shared by both adapters (PostgreSQL type oids).

export const OID = {
  int8: 20,
  date: 1082,
  timestamp: 1114,
  int8Array: 1016,
  dateArray: 1182,
  timestampArray: 1115,
} as const;

/** int8 as a number, refusing values a double cannot hold exactly (money is in cents: far below). */
export function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 hors de la plage sûre : ${text}`);
  return value;
}

export function parseDate(text: string): string {
  return text;
}

/** A timestamp without time zone, read as UTC whatever the server's zone. */
export function parseTimestamp(text: string): Date | string {
  if (text === "infinity" || text === "-infinity") return text;
  return new Date(`${text.replace(" ", "T")}Z`);
}
