import { assertEquals, assertRejects } from "../../tests/support/assert.ts";
import { openPglite } from "./pglite.ts";
import { migrate } from "./migrate.ts";
import type { Database, Tx } from "./database.ts";

// The claims helper switches to service_role, so each list starts by creating it.
const ROLES = { version: "000", name: "roles", sql: "create role service_role nologin bypassrls;" };

/** Reads as the connection's owner (the bookkeeping schema is not granted to API roles). */
async function asOwner<T>(db: Database, query: (tx: Tx) => Promise<T>): Promise<T> {
  let result: T;
  await db.execScript("", async (tx) => {
    result = await query(tx);
    return false;
  });
  return result!;
}

const test = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name, fn, sanitizeOps: false, sanitizeResources: false });

test("migrations apply once, in order, recorded like the Supabase CLI", async () => {
  const db = await openPglite("memory://");
  try {
    const list = [
      ROLES,
      { version: "001", name: "first", sql: "create table public.a (id int);" },
      { version: "002", name: "second", sql: "insert into public.a values (1);" },
    ];
    assertEquals(await migrate(db, list), ["000", "001", "002"]);
    assertEquals(await migrate(db, list), [], "a second run applies nothing");
    const rows = await asOwner(
      db,
      (tx) => tx`select version, name from supabase_migrations.schema_migrations order by version`,
    );
    assertEquals(rows, [{ version: "000", name: "roles" }, { version: "001", name: "first" }, {
      version: "002",
      name: "second",
    }]);
  } finally {
    await db.close();
  }
});

test("a failing migration is rolled back whole and stops the run", async () => {
  const db = await openPglite("memory://");
  try {
    const list = [
      ROLES,
      { version: "001", name: "ok", sql: "create table public.a (id int);" },
      { version: "002", name: "broken", sql: "create table public.b (id int); select * from nowhere;" },
      { version: "003", name: "after", sql: "create table public.c (id int);" },
    ];
    await assertRejects(
      () => migrate(db, list),
      (e) => (e as Error).message.startsWith("La migration 002_broken a échoué"),
    );
    const tables = await asOwner(
      db,
      (tx) =>
        tx<{ name: string }>`select table_name as name from information_schema.tables
                           where table_schema = 'public' order by 1`,
    );
    assertEquals(tables.map((t) => t.name), ["a"]);
    const versions = await asOwner(
      db,
      (tx) => tx`select version from supabase_migrations.schema_migrations order by 1`,
    );
    assertEquals(versions, [{ version: "000" }, { version: "001" }]);
  } finally {
    await db.close();
  }
});
