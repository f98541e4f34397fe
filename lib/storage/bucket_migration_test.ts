// The photo bucket's migration (supabase/migrations/20261128003500_photo_bucket.sql) on PGlite: a no-op
// without Supabase's storage schema, the public bucket with its limits where it exists, idempotent, and
// a bucket made by hand keeps what it has.
import { assertEquals } from "../../tests/support/assert.ts";
import { openPglite } from "../db/pglite.ts";
import type { Database } from "../db/database.ts";
import { DEFAULT_BUCKET } from "./supabase.ts";

const MIGRATION = await Deno.readTextFile(
  new URL("../../supabase/migrations/20261128003500_photo_bucket.sql", import.meta.url),
);

/** Supabase's storage.buckets, reduced to the columns the migration touches (`limits`: the columns of
 * Storage versions from 2023 on). */
const storageSchema = (limits: boolean) => `
  create schema storage;
  create table storage.buckets (
    id text primary key, name text not null, public boolean default false
    ${limits ? ", file_size_limit bigint, allowed_mime_types text[]" : ""}
  );`;

/** Reads as the database's owner (execScript's guard runs inside its transaction, before the script). */
async function read<T>(db: Database, sql: string): Promise<T[]> {
  let rows: T[] = [];
  await db.execScript("select 1", async (tx) => {
    rows = await tx.query<T>(sql, []);
    return false;
  });
  return rows;
}

const BUCKETS = "select id, name, public, file_size_limit, allowed_mime_types from storage.buckets";
const IMAGES = ["image/jpeg", "image/png", "image/webp"];

Deno.test("photo bucket migration (20261128003500)", async (t) => {
  // One embedded database for the three cases: opening one is the slow part.
  const db = await openPglite("memory://");
  try {
    await t.step("nothing without Supabase Storage, twice", async () => {
      await db.execScript(MIGRATION);
      await db.execScript(MIGRATION);
      assertEquals(await read(db, "select to_regnamespace('storage')::text as schema"), [{ schema: null }]);
    });

    await t.step("a public bucket of at most 8 MB of images, once", async () => {
      await db.execScript(storageSchema(true));
      await db.execScript(MIGRATION);
      await db.execScript(MIGRATION);
      assertEquals(await read(db, BUCKETS), [{
        id: DEFAULT_BUCKET,
        name: DEFAULT_BUCKET,
        public: true,
        file_size_limit: 8388608,
        allowed_mime_types: IMAGES,
      }]);
    });

    await t.step("a bucket made by hand keeps its public flag and its limits", async () => {
      await db.execScript(`delete from storage.buckets;
        insert into storage.buckets values ('deal-photos', 'deal-photos', false, 1000, null);`);
      await db.execScript(MIGRATION);
      assertEquals(await read(db, BUCKETS), [{
        id: DEFAULT_BUCKET,
        name: DEFAULT_BUCKET,
        public: false,
        file_size_limit: 1000,
        allowed_mime_types: IMAGES,
      }]);
    });

    await t.step("an older Storage without limits columns still gets the bucket", async () => {
      await db.execScript(`drop schema storage cascade; ${storageSchema(false)}`);
      await db.execScript(MIGRATION);
      assertEquals(await read(db, "select id, public from storage.buckets"), [{
        id: DEFAULT_BUCKET,
        public: true,
      }]);
    });
  } finally {
    await db.close();
  }
});
