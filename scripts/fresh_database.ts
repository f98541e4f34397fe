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
