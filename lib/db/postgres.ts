import postgres from "postgres";
import {
  type Claims,
  claimsParams,
  type Database,
  makeTx,
  OID,
  parseDate,
  parseInt8,
  parseTimestamp,
  type QueryOptions,
  type Tx,
} from "./database.ts";
import { DatabaseUnavailable, isDatabaseUnavailable } from "./unavailable.ts";
import { createListening } from "./postgres_listen.ts";

// deno-lint-ignore no-explicit-any
type Sql = any;

export interface PostgresOptions {
  /** Connections in the pool (default 10). */
  max?: number;
  /** Prepared statements (default true; DATABASE_PREPARE=false turns them off for a pooler that
   * refuses them, see README). */
  prepare?: boolean;
  /** How many distinct statement texts may be prepared (default 500): each connection keeps every text
   * it prepared until it closes, so a text built at run time that was not marked `prepare: false`
   * runs unprepared past this many instead of filling the connections' memory. */
  maxPreparedTexts?: number;
  /** Where LISTEN connects (DATABASE_LISTEN_URL): a direct or session-mode connection when `url` goes
   * through a transaction-mode pooler, which cannot keep a LISTEN. Default: `url`. */
  listenUrl?: string;
  /** Deadlines of every call (default DEFAULT_DEADLINES; DATABASE_*_TIMEOUT_MS, lib/config.ts). */
  deadlines?: Partial<DatabaseDeadlines>;
  /** Told each time a LISTEN channel's connection is lost (`false`) or subscribed again (`true`). */
  onListenState?: (channel: string, up: boolean) => void;
}

/** Every database call ends in time (ms): opening a connection, waiting for a pooled one, one
 * statement on the server (statement_timeout), a transaction its client left idle
 * (idle_in_transaction_session_timeout). */
export interface DatabaseDeadlines {
  connectMs: number;
  acquireMs: number;
  statementMs: number;
  idleInTransactionMs: number;
}

/** When the caller gives none. The app passes its configuration's (lib/config.ts: acquiring 1.5 s, so
 * that a request fails within 2 s when the database is away); scripts and tests open small pools for
 * bursts of concurrent calls, which should wait for a connection rather than be shed. */
export const DEFAULT_DEADLINES: DatabaseDeadlines = {
  connectMs: 5000,
  acquireMs: 30_000,
  statementMs: 15000,
  idleInTransactionMs: 30000,
};

/** The claims and the transaction's server-side deadlines, set locally: one statement of the pipelined
 * preamble (no extra round trip), nothing in the startup packet (a pooler may refuse it). */
export const PG_CLAIMS_SQL =
  "select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), " +
  "set_config('statement_timeout', $3, true), set_config('idle_in_transaction_session_timeout', $4, true)";

/** The app has about 200 fixed statements; past this, new texts are assumed to be built at run time. */
const MAX_PREPARED_TEXTS = 500;

// Why prepared: postgres.js's `unsafe()` does not prepare by default, and an unprepared statement with
// parameters costs PostgreSQL a parse and a plan every time, and postgres.js an extra round trip (it
// asks the server for the parameters' types before sending them). Prepared, a statement is parsed once
// per connection and then sent as Bind/Execute, pipelined with the BEGIN and the claims. Plans stay
// correct under RLS: PostgreSQL re-plans a cached statement whose plan applied policies when the role
// changes, and the claims are read at execution time (auth.uid()), never frozen in a plan.
// Statements without parameters use the simple protocol (one message, several statements allowed),
// as before: only the statements with parameters are prepared.
//
// Faults (ARCHITECTURE.md "Database faults, health and shutdown"): postgres.js 3.4.9 is patched at
// install (patches/postgres+3.4.9.patch); every call has a deadline; connection failures are counted
// and classified by lib/db/unavailable.ts (503 at the HTTP edge).
export function openPostgres(url: string, options: PostgresOptions = {}): Database {
  const prepareAll = options.prepare ?? true;
  const maxPreparedTexts = options.maxPreparedTexts ?? MAX_PREPARED_TEXTS;
  const deadlines = { ...DEFAULT_DEADLINES, ...options.deadlines };
  const preparedTexts = new Set<string>();
  /** The options of one statement: prepared unless turned off (setting or caller) or over the budget.
   * Without parameters postgres.js uses the simple protocol, which prepares nothing. */
  const queryOptions = (text: string, params: unknown[], queryOptions: QueryOptions = {}) => {
    if (!prepareAll || queryOptions.prepare === false || params.length === 0) return { prepare: false };
    if (!preparedTexts.has(text)) {
      if (preparedTexts.size >= maxPreparedTexts) return { prepare: false };
      preparedTexts.add(text);
    }
    return { prepare: true };
  };
  const preamble = (claims: Claims) => [
    ...claimsParams(claims),
    String(deadlines.statementMs),
    String(deadlines.idleInTransactionMs),
  ];
  const claimsOptions = queryOptions(PG_CLAIMS_SQL, preamble({ role: "anon" }));
  const common = {
    // Also the driver's own statements (its array types lookup when a connection opens).
    prepare: prepareAll,
    onnotice: () => {},
    types: TYPES,
    connect_timeout: deadlines.connectMs / 1000,
    // A connection whose peer vanished without a word is found within ~20 s.
    keep_alive: 10,
    // postgres.js waits before opening again after failures, 3^n/100 s up to 20 s: after an outage the
    // pool would stay shut that long. Here at most 0.5 s.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.5),
  };
  const sql = postgres(url, { ...common, max: options.max ?? 10 });
  const wrap = (t: Sql): Tx =>
    makeTx(async <T>(text: string, params: unknown[], options: QueryOptions) =>
      (await t.unsafe(text, params, queryOptions(text, params, options))) as T[]
    );
  // LISTEN holds one connection of its own for as long as the app runs, apart from the pool; on
  // DATABASE_LISTEN_URL when the pool goes through a transaction-mode pooler.
  const listening = createListening(
    (onNotify, onClose) =>
      postgres(options.listenUrl ?? url, {
        ...common,
        max: 1,
        idle_timeout: 0,
        max_lifetime: 0,
        fetch_types: false,
        onnotify: onNotify,
        onclose: onClose,
      } as Sql),
    { attemptMs: deadlines.connectMs + deadlines.acquireMs, onState: options.onListenState },
  );

  // postgres.js still opens connections for reserve() after end(): a closed Database must refuse work
  // rather than leak connections (and answer for a database its owner has let go).
  let closed = false;
  let lent = 0;
  let waiting = 0;
  let errors = 0;
  const counted = (error: unknown) => {
    if (isDatabaseUnavailable(error)) errors++;
    return error;
  };

  /** A pooled connection within `acquireMs` (postgres.js has no such deadline: one that arrives
   * after it is handed back at once). */
  const reserve = (): Promise<Sql> => {
    if (closed) return Promise.reject(new DatabaseUnavailable("DATABASE_CLOSED", "Database closed"));
    waiting++;
    return new Promise((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        waiting--;
        reject(
          counted(new DatabaseUnavailable("POOL_TIMEOUT", `No connection within ${deadlines.acquireMs} ms`)),
        );
      }, deadlines.acquireMs);
      sql.reserve().then((conn: Sql) => {
        if (settled) return conn.release();
        settled = true;
        clearTimeout(timer);
        waiting--;
        lent++;
        resolve(conn);
      }, (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        waiting--;
        reject(counted(error));
      });
    });
  };
  const release = (conn: Sql) => {
    lent--;
    conn.release();
  };

  /** BEGIN and the claims are sent without waiting: they reach the server with the first query. */
  async function transaction<T>(claims: Claims, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const conn: Sql = await reserve();
    const started = [
      conn.unsafe("begin").execute(),
      conn.unsafe(PG_CLAIMS_SQL, preamble(claims), claimsOptions).execute(),
    ];
    const startedDone = Promise.allSettled(started);
    try {
      const result = await fn(wrap(conn));
      await Promise.all(started);
      await conn.unsafe("commit");
      return result;
    } catch (error) {
      // The first failure is the real cause: a failed preamble makes every later query fail too.
      const failed = (await startedDone).find((r) => r.status === "rejected") as
        | PromiseRejectedResult
        | undefined;
      await conn.unsafe("rollback").catch(() => {});
      throw counted(failed ? failed.reason : error);
    } finally {
      release(conn);
    }
  }

  return {
    kind: "postgres",
    transaction,
    async statement<T>(
      claims: Claims,
      text: string,
      params: unknown[] = [],
      options: QueryOptions = {},
    ): Promise<T[]> {
      const conn: Sql = await reserve();
      const queries = [
        conn.unsafe("begin").execute(),
        conn.unsafe(PG_CLAIMS_SQL, preamble(claims), claimsOptions).execute(),
        conn.unsafe(text, params, queryOptions(text, params, options)).execute(),
        conn.unsafe("commit").execute(),
      ];
      try {
        const results = await Promise.allSettled(queries);
        const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult | undefined;
        if (failed) {
          await conn.unsafe("rollback").catch(() => {});
          throw counted(failed.reason);
        }
        return (results[2] as PromiseFulfilledResult<T[]>).value;
      } finally {
        release(conn);
      }
    },
    stats: () => ({ total: options.max ?? 10, idle: (options.max ?? 10) - lent, waiting, errors }),
    async execScript(script: string, guard?: (tx: Tx) => Promise<boolean>): Promise<boolean> {
      if (closed) throw new DatabaseUnavailable("DATABASE_CLOSED", "Database closed");
      return await sql.begin(async (t: Sql) => {
        // Migrations and seeds may take longer than a request's statement.
        await t.unsafe("set local statement_timeout = 0");
        if (guard && !(await guard(wrap(t)))) return false;
        await t.unsafe(script);
        return true;
      }) as boolean;
    },
    listen(channel, onMessage, onListening) {
      if (closed) return Promise.reject(new DatabaseUnavailable("DATABASE_CLOSED", "Database closed"));
      return listening.listen(channel, onMessage, onListening);
    },
    async close() {
      closed = true;
      await listening.close();
      await sql.end({ timeout: 5 });
    },
  };
}

// The same values as PGlite (see database.ts). Array types follow their element's parser.
const TYPES = {
  // JSON text is sent as it is (like PGlite does); only objects are encoded. postgres.js would
  // otherwise encode a string again for a jsonb parameter and store a JSON string.
  json: {
    to: 114,
    from: [114, 3802],
    serialize: (x: unknown) => (typeof x === "string" ? x : JSON.stringify(x)),
    parse: (x: string) => JSON.parse(x),
  },
  int8: { to: OID.int8, from: [OID.int8], serialize: (x: number) => String(x), parse: parseInt8 },
  day: { to: OID.date, from: [OID.date], serialize: (x: string) => x, parse: parseDate },
  timestamp: {
    to: 1184,
    from: [OID.timestamp],
    serialize: (x: Date) => (x instanceof Date ? x : new Date(x)).toISOString(),
    parse: parseTimestamp,
  },
};
