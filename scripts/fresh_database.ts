// A throw-away PostgreSQL database for a test step: created from an admin URL, dropped afterwards
// whatever happens (`with (force)` ends any connection left open).
import postgres from "postgres";

/** The same connection URL with another database name (keeps user, password, host and options). */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

export async function withFreshDatabase<T>(
  adminUrl: string,
  prefix: string,
  fn: (url: string, name: string) => Promise<T>,
): Promise<T> {
  const name = `${prefix}_${Date.now().toString(36)}_${crypto.randomUUID().slice(0, 8)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
    try {
      return await fn(withDatabase(adminUrl, name), name);
    } finally {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
    }
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/** The role that owns the hosted-like database: no superuser, CREATEROLE, member of the API roles. */
const HOSTED_OWNER = "hosted_owner";

/**
 * A throw-away database shaped like a hosted Supabase one: the API roles and an `auth` schema (with
 * auth.uid(), auth.jwt(), auth.role()) already exist and belong to the platform (here: the admin),
 * and the app connects as the database's owner, a role without superuser rights that has CREATEROLE
 * and is a member of anon, authenticated and service_role. `fn` gets the owner's URL.
 */
export async function withHostedDatabase<T>(
  adminUrl: string,
  prefix: string,
  fn: (ownerUrl: string, name: string) => Promise<T>,
): Promise<T> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const name = `${prefix}_${Date.now().toString(36)}_${crypto.randomUUID().slice(0, 8)}`;
  try {
    // Roles are cluster-wide: created once, then reused by every run.
    await admin.unsafe(`
      do $$ begin
        if not exists (select from pg_roles where rolname = 'anon') then create role anon nologin noinherit; end if;
        if not exists (select from pg_roles where rolname = 'authenticated') then create role authenticated nologin noinherit; end if;
        if not exists (select from pg_roles where rolname = 'service_role') then create role service_role nologin noinherit bypassrls; end if;
        if not exists (select from pg_roles where rolname = '${HOSTED_OWNER}') then
          create role ${HOSTED_OWNER} login createrole nosuperuser;
        end if;
      end $$;
      grant anon, authenticated, service_role to ${HOSTED_OWNER};`);
    await admin.unsafe(`create database "${name}" owner ${HOSTED_OWNER}`);
    try {
      const platform = postgres(withDatabase(adminUrl, name), { max: 1, onnotice: () => {} });
      try {
        await platform.unsafe(`
          create schema auth;
          create function auth.jwt() returns jsonb language sql stable as $b$
            select coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb $b$;
          create function auth.uid() returns uuid language sql stable as $b$
            select nullif(auth.jwt() ->> 'sub', '')::uuid $b$;
          create function auth.role() returns text language sql stable as $b$
            select nullif(auth.jwt() ->> 'role', '') $b$;
          grant usage on schema auth to anon, authenticated, service_role;
          grant execute on all functions in schema auth to anon, authenticated, service_role;`);
      } finally {
        await platform.end({ timeout: 5 });
      }
      const ownerUrl = new URL(withDatabase(adminUrl, name));
      ownerUrl.username = HOSTED_OWNER;
      ownerUrl.password = "";
      return await fn(ownerUrl.toString(), name);
    } finally {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
    }
  } finally {
    await admin.end({ timeout: 5 });
  }
}
