import postgres from "postgres";
import {
  type Claims,
  CLAIMS_SQL,
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
}

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
export function openPostgres(url: string, options: PostgresOptions = {}): Database {
  const prepareAll = options.prepare ?? true;
  const maxPreparedTexts = options.maxPreparedTexts ?? MAX_PREPARED_TEXTS;
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
  const claimsOptions = queryOptions(CLAIMS_SQL, claimsParams({ role: "anon" }));
  const sql = postgres(url, {
    max: options.max ?? 10,
    // Also the driver's own statements (its array types lookup when a connection opens).
    prepare: prepareAll,
    onnotice: () => {},
    // The same values as PGlite (see database.ts). Array types follow their element's parser.
    types: {
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
    },
  });
  // LISTEN holds one connection of its own for as long as the app runs (postgres.js opens it apart from
  // the pool); on another URL it gets a client of its own, never used for queries.
  const listener: Sql = options.listenUrl
    ? postgres(options.listenUrl, { max: 1, prepare: false, onnotice: () => {} })
    : sql;
  const wrap = (t: Sql): Tx =>
    makeTx(async <T>(text: string, params: unknown[], options: QueryOptions) =>
      (await t.unsafe(text, params, queryOptions(text, params, options))) as T[]
    );

  // postgres.js still opens connections for reserve() after end(): a closed Database must refuse work
  // rather than leak connections (and answer for a database its owner has let go).
  let closed = false;
  const reserve = async (): Promise<Sql> => {
    if (closed) throw new Error("Database closed");
    return await sql.reserve();
  };

  /** BEGIN and the claims are sent without waiting: they reach the server with the first query. */
  async function transaction<T>(claims: Claims, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const conn: Sql = await reserve();
    const preamble = [
      conn.unsafe("begin").execute(),
      conn.unsafe(CLAIMS_SQL, claimsParams(claims), claimsOptions).execute(),
    ];
    const preambleDone = Promise.allSettled(preamble);
    try {
      const result = await fn(wrap(conn));
      await Promise.all(preamble);
      await conn.unsafe("commit");
      return result;
    } catch (error) {
      // The first failure is the real cause: a failed preamble makes every later query fail too.
      const failed = (await preambleDone).find((r) => r.status === "rejected") as
        | PromiseRejectedResult
        | undefined;
      await conn.unsafe("rollback").catch(() => {});
      throw failed ? failed.reason : error;
    } finally {
      conn.release();
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
        conn.unsafe(CLAIMS_SQL, claimsParams(claims), claimsOptions).execute(),
        conn.unsafe(text, params, queryOptions(text, params, options)).execute(),
        conn.unsafe("commit").execute(),
      ];
      try {
        const results = await Promise.allSettled(queries);
        const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult | undefined;
        if (failed) {
          await conn.unsafe("rollback").catch(() => {});
          throw failed.reason;
        }
        return (results[2] as PromiseFulfilledResult<T[]>).value;
      } finally {
        conn.release();
      }
    },
    async execScript(script: string, guard?: (tx: Tx) => Promise<boolean>): Promise<boolean> {
      if (closed) throw new Error("Database closed");
      return await sql.begin(async (t: Sql) => {
        if (guard && !(await guard(wrap(t)))) return false;
        await t.unsafe(script);
        return true;
      }) as boolean;
    },
    async listen(channel, onMessage, onListening) {
      if (closed) throw new Error("Database closed");
      const { unlisten } = await listener.listen(channel, onMessage, onListening);
      return async () => {
        await unlisten().catch(() => {});
      };
    },
    async close() {
      closed = true;
      await Promise.all([sql.end({ timeout: 5 }), listener === sql ? null : listener.end({ timeout: 5 })]);
    },
  };
}
