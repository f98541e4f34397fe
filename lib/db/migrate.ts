// Applies supabase/migrations/*.sql in name order, each in its own transaction, recording them in
// supabase_migrations.schema_migrations like the Supabase CLI. A failed migration stops start-up.
import type { Database, Tx } from "./database.ts";

const MIGRATIONS_DIR = new URL("../../supabase/migrations/", import.meta.url);

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

export async function readMigrations(dir: URL = MIGRATIONS_DIR): Promise<Migration[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".sql")) files.push(entry.name);
  }
  files.sort();
  return await Promise.all(files.map(async (file) => {
    const match = /^(\d+)_(.+)\.sql$/.exec(file);
    if (!match) throw new Error(`Nom de migration invalide : ${file} (attendu : <version>_<nom>.sql)`);
    return { version: match[1], name: match[2], sql: await Deno.readTextFile(new URL(file, dir)) };
  }));
}

const BOOKKEEPING = `
  create schema if not exists supabase_migrations;
  create table if not exists supabase_migrations.schema_migrations (
    version text primary key, statements text[], name text
  );`;

/** Returns the versions applied by this call. */
export async function migrate(db: Database, migrations?: Migration[]): Promise<string[]> {
  const list = migrations ?? await readMigrations();
  await db.execScript(BOOKKEEPING);
  const applied: string[] = [];
  for (const migration of list) {
    const record = `insert into supabase_migrations.schema_migrations (version, name, statements)
      values ('${migration.version}', '${migration.name.replaceAll("'", "''")}', array[]::text[]);`;
    // Several instances may start at once: the advisory lock serialises them and the guard
    // re-checks inside the transaction.
    const guard = async (tx: Tx) => {
      await tx`select pg_advisory_xact_lock(727001)`;
      const rows =
        await tx`select 1 from supabase_migrations.schema_migrations where version = ${migration.version}`;
      return rows.length === 0;
    };
    try {
      if (await db.execScript(`${migration.sql}\n;${record}`, guard)) applied.push(migration.version);
    } catch (error) {
      throw new Error(
        `La migration ${migration.version}_${migration.name} a échoué : ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  return applied;
}
