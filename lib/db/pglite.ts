// The embedded database: real PostgreSQL compiled to WebAssembly, in this process, with its files in a
// folder. Only one process may open a folder: a second one would see only its own writes and lose
// some of them on restart, so it is refused (see folder_lock.ts).
import { PGlite } from "@electric-sql/pglite";
// pg_trgm: the admin deals search's trigram index (migration 20261128006000_growth_indexes.sql).
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
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
import { acquireFolderLock } from "./folder_lock.ts";

const parseArray = <T>(parse: (text: string) => T) => (text: string) =>
  text === "{}" ? [] : text.slice(1, -1).split(",").map((item) => parse(item.replace(/^"|"$/g, "")));

export async function openPglite(dataDir: string): Promise<Database> {
  const inMemory = dataDir.startsWith("memory://");
  if (!inMemory) await Deno.mkdir(dataDir, { recursive: true });
  const lock = inMemory ? null : await acquireFolderLock(dataDir);
  let pg: PGlite;
  try {
    pg = await PGlite.create(dataDir, {
      extensions: { pg_trgm },
      parsers: {
        [OID.int8]: parseInt8,
        [OID.date]: parseDate,
        [OID.timestamp]: parseTimestamp,
        [OID.int8Array]: parseArray(parseInt8),
        [OID.dateArray]: parseArray(parseDate),
        [OID.timestampArray]: parseArray(parseTimestamp),
      },
    });
  } catch (error) {
    await lock?.release();
    throw error;
  }
  // PGlite runs in this process: nothing to prepare (QueryOptions are PostgreSQL's only).
  const wrap = (t: { query: PGlite["query"] }): Tx =>
    makeTx(async <T>(text: string, params: unknown[]) => (await t.query<T>(text, params)).rows);

  // One connection, in this process: a transaction waits for the one before it (stats()).
  let active = 0;
  const transaction = async <T>(claims: Claims, fn: (tx: Tx) => Promise<T>): Promise<T> => {
    active++;
    try {
      return await pg.transaction(async (t) => {
        await t.query(CLAIMS_SQL, claimsParams(claims));
        return await fn(wrap(t));
      });
    } finally {
      active--;
    }
  };

  return {
    kind: "pglite",
    transaction,
    statement: <T>(claims: Claims, text: string, params: unknown[] = []) =>
      transaction(claims, (tx) => tx.query<T>(text, params)),
    stats: () => ({ total: 1, idle: active ? 0 : 1, waiting: Math.max(0, active - 1), errors: 0 }),
    execScript(script: string, guard?: (tx: Tx) => Promise<boolean>): Promise<boolean> {
      return pg.transaction(async (t) => {
        if (guard && !(await guard(wrap(t)))) return false;
        await t.exec(script);
        return true;
      });
    },
    async listen(channel, onMessage, onListening) {
      const unsubscribe = await pg.listen(channel, onMessage);
      onListening?.();
      return async () => {
        await unsubscribe().catch(() => {});
      };
    },
    async close() {
      await pg.close();
      await lock?.release();
    },
  };
}
