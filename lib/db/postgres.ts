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
  type Tx,
} from "./database.ts";

// deno-lint-ignore no-explicit-any
type Sql = any;

export function openPostgres(url: string, options: { max?: number } = {}): Database {
  const sql = postgres(url, {
    max: options.max ?? 10,
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
  const wrap = (t: Sql): Tx =>
    makeTx(async <T>(text: string, params: unknown[]) => (await t.unsafe(text, params)) as T[]);

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
      conn.unsafe(CLAIMS_SQL, claimsParams(claims)).execute(),
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
    async statement<T>(claims: Claims, text: string, params: unknown[] = []): Promise<T[]> {
      const conn: Sql = await reserve();
      const queries = [
        conn.unsafe("begin").execute(),
        conn.unsafe(CLAIMS_SQL, claimsParams(claims)).execute(),
        conn.unsafe(text, params).execute(),
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
      const { unlisten } = await sql.listen(channel, onMessage, onListening);
      return async () => {
        await unlisten().catch(() => {});
      };
    },
    async close() {
      closed = true;
      await sql.end({ timeout: 5 });
    },
  };
}
