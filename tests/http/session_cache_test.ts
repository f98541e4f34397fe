// Sessions kept in memory never outlive what ends them (lib/auth/session_cache.ts): two app instances
// on one database, each with its own cache; what one instance (or SQL) changes reaches the other
// through the database's notices.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, registrationPayload, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { createApp } from "../../routes/_app.tsx";
import { createSessionCache, followSessionNotices, type SessionCache } from "../../lib/auth/session_cache.ts";
import type { Hono } from "hono";
import type { AppEnv } from "../../lib/http/context.ts";

/** A second instance of the app on the shared test database. */
async function secondInstance(): Promise<
  { app: Hono<AppEnv>; sessions: SessionCache; stop: () => Promise<void> }
> {
  const { deps, db } = await testEnv();
  const sessions = createSessionCache({ ttlMs: 60_000 });
  const stop = await followSessionNotices(db, sessions);
  return { app: await createApp({ ...deps, sessions }), sessions, stop };
}

/** The same cookies on another instance. */
function sameBrowser(client: Client, app: Hono<AppEnv>): Client {
  const other = new Client({ app, ip: client.options.ip });
  for (const [k, v] of client.cookies) other.cookies.set(k, v);
  return other;
}

/** Waits (up to 2 s) until `check` holds: notices arrive after the change commits. */
async function eventually(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 40; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not within 2 s: ${what}`);
}

async function newCustomer(): Promise<{ client: Client; email: string }> {
  const payload = registrationPayload();
  const client = new Client();
  const res = await client.post("/api/security/registration", payload);
  assertEquals(res.status, 200, res.text);
  await client.login(String(payload.email));
  return { client, email: String(payload.email) };
}

httpTest("a logout on one instance ends the session on another that had it in memory", async () => {
  const b = await secondInstance();
  try {
    const { client } = await newCustomer();
    const onB = sameBrowser(client, b.app);
    assertEquals((await onB.get("/api/user/get")).status, 200);
    assert(b.sessions.size > 0, "instance B keeps the session in memory");
    assertEquals((await client.post("/logout")).status, 303);
    // Instance A dropped it at once; B on the database's notice.
    assertEquals((await client.get("/api/user/get")).status, 401);
    await eventually(
      async () => (await onB.get("/api/user/get")).status === 401,
      "B refuses the ended session",
    );
  } finally {
    await b.stop();
  }
});

httpTest("a session deleted or a user changed in SQL is dropped by every instance", async () => {
  const b = await secondInstance();
  const { db } = await testEnv();
  try {
    const { client, email } = await newCustomer();
    const onB = sameBrowser(client, b.app);
    assertEquals(
      (await onB.get("/api/user/get")).json<{ lastname: string }>().lastname,
      "Dupont",
    );
    // A change of name (what the header shows) reaches both instances.
    await systemQuery(db, "update public.users set lastname = 'Martin' where email = $1", [email]);
    await eventually(
      async () => (await onB.get("/dashboard/profil")).text.includes("Léa Martin"),
      "B shows the new name",
    );
    // Every session of the user ended in SQL (as a password reset does).
    await systemQuery(
      db,
      "delete from identity.sessions where user_id = (select id from public.users where email = $1)",
      [email],
    );
    await eventually(async () => (await onB.get("/api/user/get")).status === 401, "B refuses it");
    await eventually(async () => (await client.get("/api/user/get")).status === 401, "A refuses it");
  } finally {
    await b.stop();
  }
});
