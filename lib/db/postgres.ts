import postgres from "postgres";
import { applyClaims, type Claims, type Database, makeTx, type Tx } from "./database.ts";

export function openPostgres(url: string, options: { max?: number } = {}): Database {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // Dates and timestamps come back as JS Date like PGlite; bigint counts as numbers.
    types: { bigint: postgres.BigInt },
  });
  // deno-lint-ignore no-explicit-any
  const wrap = (t: any): Tx =>
    makeTx(async <T>(text: string, params: unknown[]) => (await t.unsafe(text, params)) as T[]);

  return {
    kind: "postgres",
    async transaction<T>(claims: Claims, fn: (tx: Tx) => Promise<T>): Promise<T> {
      return await sql.begin(async (t) => {
        const tx = wrap(t);
        await applyClaims(tx, claims);
        return await fn(tx);
      }) as T;
    },
    async execScript(script: string, guard?: (tx: Tx) => Promise<boolean>): Promise<boolean> {
      return await sql.begin(async (t) => {
        if (guard && !(await guard(wrap(t)))) return false;
        await t.unsafe(script);
        return true;
      }) as boolean;
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
