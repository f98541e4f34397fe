import { PGlite } from "@electric-sql/pglite";
import { applyClaims, type Claims, type Database, makeTx, type Tx } from "./database.ts";

export async function openPglite(dataDir: string): Promise<Database> {
  if (!dataDir.startsWith("memory://")) await Deno.mkdir(dataDir, { recursive: true });
  const pg = await PGlite.create(dataDir);
  const wrap = (t: { query: PGlite["query"] }): Tx =>
    makeTx(async <T>(text: string, params: unknown[]) => (await t.query<T>(text, params)).rows);

  return {
    kind: "pglite",
    transaction<T>(claims: Claims, fn: (tx: Tx) => Promise<T>): Promise<T> {
      return pg.transaction(async (t) => {
        const tx = wrap(t);
        await applyClaims(tx, claims);
        return await fn(tx);
      });
    },
    execScript(script: string, guard?: (tx: Tx) => Promise<boolean>): Promise<boolean> {
      return pg.transaction(async (t) => {
        if (guard && !(await guard(wrap(t)))) return false;
        await t.exec(script);
        return true;
      });
    },
    async close() {
      await pg.close();
    },
  };
}
