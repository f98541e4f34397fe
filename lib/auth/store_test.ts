// The session rules as production runs them: RESOLVE_SESSION_SQL (the one statement every signed-in
// request resolves its cookie with, as the auth server) ends a session after 24 h without a request
// or 7 days in all, and writes last_seen_at at most every 5 minutes; createSession gives a session its
// 7-day expiry, after which identity.purge_expired() deletes it. On the embedded database.
import { assert, assertEquals } from "../../tests/support/assert.ts";
import { statementAs, systemActor, transactionAs } from "../actor.ts";
import { migrate } from "../db/migrate.ts";
import { openPglite } from "../db/pglite.ts";
import type { Database } from "../db/database.ts";
import { insertUser } from "../accounts/store.ts";
import { sha256Hex } from "./crypto.ts";
import { createSession, RESOLVE_SESSION_SQL } from "./store.ts";
import { SESSION_IDLE_MS } from "./policy.ts";

const AUTH = systemActor("auth");
const SEED = systemActor("seed");

async function openDatabase(): Promise<{ db: Database; userId: string }> {
  const db = await openPglite("memory://");
  await migrate(db);
  const userId = await transactionAs(
    db,
    SEED,
    (tx) =>
      insertUser(tx, {
        type: "Customer",
        email: "session@example.fr",
        firstname: "Jeanne",
        lastname: "Durand",
      }),
  );
  return { db, userId };
}

/** A session created and last seen at the given times; returns its hash (what the cookie resolves to). */
async function sessionAt(db: Database, userId: string, createdAt: Date, lastSeenAt: Date): Promise<string> {
  const hash = await sha256Hex(crypto.randomUUID());
  await statementAs(
    db,
    SEED,
    `insert into identity.sessions (id_hash, user_id, created_at, last_seen_at, expires_at)
     values ($1, $2, $3, $4, $3::timestamptz + interval '7 days')`,
    [hash, userId, createdAt, lastSeenAt],
  );
  return hash;
}

const resolve = async (db: Database, hash: string) =>
  (await statementAs<{ id: string }>(db, AUTH, RESOLVE_SESSION_SQL, [hash]))[0]?.id ?? null;

const lastSeen = async (db: Database, hash: string) =>
  (await statementAs<{ lastSeenAt: Date }>(
    db,
    SEED,
    `select last_seen_at as "lastSeenAt" from identity.sessions where id_hash = $1`,
    [hash],
  ))[0].lastSeenAt;

Deno.test("session rules as the database runs them", async (t) => {
  const { db, userId } = await openDatabase();
  try {
    await t.step(
      "a session ends after 24 h idle or 7 days in all (RESOLVE_SESSION_SQL)",
      () => idleAndAbsolute(db, userId),
    );
    await t.step(
      "last_seen_at is written at most every 5 minutes (RESOLVE_SESSION_SQL)",
      () => touch(db, userId),
    );
    await t.step(
      "a new session expires after 7 days; the purge job deletes it then",
      () => expiry(db, userId),
    );
  } finally {
    await db.close();
  }
});

async function idleAndAbsolute(db: Database, userId: string) {
  const now = Date.now();
  const hoursAgo = (h: number) => new Date(now - h * 3600_000);
  const cases: [string, Date, Date, boolean][] = [
    ["seen an hour ago", hoursAgo(1), hoursAgo(1), true],
    ["idle for 25 hours", hoursAgo(30), hoursAgo(25), false],
    ["seen now, but created 7 days and an hour ago", hoursAgo(24 * 7 + 1), hoursAgo(0), false],
    [
      "6 days old, idle just under 24 hours",
      hoursAgo(24 * 6),
      new Date(now - SESSION_IDLE_MS + 60_000),
      true,
    ],
  ];
  for (const [label, createdAt, lastSeenAt, alive] of cases) {
    const hash = await sessionAt(db, userId, createdAt, lastSeenAt);
    assertEquals(await resolve(db, hash), alive ? userId : null, label);
  }
  assertEquals(await resolve(db, await sha256Hex("no such session")), null, "an unknown cookie");
}

async function touch(db: Database, userId: string) {
  const now = Date.now();
  const recent = new Date(now - 60_000);
  const fresh = await sessionAt(db, userId, new Date(now - 3600_000), recent);
  assertEquals(await resolve(db, fresh), userId);
  assertEquals((await lastSeen(db, fresh)).getTime(), recent.getTime(), "seen a minute ago: not written");
  const older = new Date(now - 5 * 60_000 - 1000);
  const stale = await sessionAt(db, userId, new Date(now - 3600_000), older);
  assertEquals(await resolve(db, stale), userId);
  assert((await lastSeen(db, stale)).getTime() > older.getTime(), "seen over 5 minutes ago: written");
}

async function expiry(db: Database, userId: string) {
  const hash = await sha256Hex(await transactionAs(db, AUTH, (tx) => createSession(tx, userId)));
  const [created] = await statementAs<{ lifetime: number }>(
    db,
    SEED,
    `select extract(epoch from expires_at - created_at)::int as lifetime from identity.sessions where id_hash = $1`,
    [hash],
  );
  assertEquals(created.lifetime, 7 * 24 * 3600);
  assertEquals(await resolve(db, hash), userId);
  await statementAs(
    db,
    SEED,
    "update identity.sessions set expires_at = now() - interval '1 second' where id_hash = $1",
    [hash],
  );
  await statementAs(db, SEED, "select identity.purge_expired()");
  const left = await statementAs(db, SEED, "select 1 from identity.sessions where id_hash = $1", [hash]);
  assertEquals(left.length, 0);
}
