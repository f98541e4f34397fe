// The PostgreSQL adapter under faults (lib/db/postgres.ts, the postgres.js patch, lib/db/unavailable.ts):
// each deadline ends its call with an error counted as "unavailable"; terminating every backend under
// concurrent traffic neither kills the process nor leaves the pool stuck; LISTEN comes back by itself
// and says so. Runs when DATABASE_URL is set (a throw-away database is created and dropped).
import { assert, assertEquals } from "../../tests/support/assert.ts";
import { openPostgres } from "./postgres.ts";
import type { Claims } from "./database.ts";
import { isDatabaseUnavailable } from "./unavailable.ts";
import { withFreshDatabase } from "../../scripts/fresh_database.ts";
import postgres from "postgres";

const SERVICE: Claims = { role: "service_role", reason: "seed" };
const url = Deno.env.get("DATABASE_URL");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The error `fn` rejects with (fails when it resolves). */
async function rejection(fn: () => Promise<unknown>): Promise<{ code?: string }> {
  try {
    await fn();
  } catch (error) {
    return error as { code?: string };
  }
  throw new Error("expected a rejection");
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(50);
  }
  return false;
}

Deno.test({
  name: "PostgreSQL under faults: deadlines, terminated backends, LISTEN",
  ignore: !url,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) =>
    await withFreshDatabase(url!, "faults", async (dbUrl, name) => {
      const admin = postgres(url!, { max: 1, onnotice: () => {} });
      const terminate = async () =>
        (await admin<{ n: number }[]>`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
          where datname = ${name} and pid <> pg_backend_pid()`)[0].n;
      try {
        await t.step("a statement past statement_timeout fails as unavailable, and is counted", async () => {
          const db = openPostgres(dbUrl, { max: 1, deadlines: { statementMs: 200 } });
          try {
            const error = await rejection(() => db.statement(SERVICE, "select pg_sleep(2)"));
            assertEquals(error.code, "57014");
            assert(isDatabaseUnavailable(error));
            assertEquals(db.stats!().errors, 1);
            const [row] = await db.statement<{ n: number }>(SERVICE, "select 1 as n");
            assertEquals(row.n, 1, "the connection serves again");
          } finally {
            await db.close();
          }
        });

        await t.step("waiting for a pooled connection past acquireMs fails; the pool recovers", async () => {
          const db = openPostgres(dbUrl, { max: 1, deadlines: { acquireMs: 200 } });
          try {
            let release!: () => void;
            const held = db.transaction(SERVICE, async (tx) => {
              await tx`select 1`;
              await new Promise<void>((resolve) => release = resolve);
            });
            await until(() => db.stats!().idle === 0, 2000);
            const started = Date.now();
            const waiting = db.statement(SERVICE, "select 1");
            await sleep(50);
            assertEquals(db.stats!().waiting, 1);
            const error = await rejection(() => waiting);
            assert(Date.now() - started < 1000, `refused after ${Date.now() - started} ms`);
            assertEquals(error.code, "POOL_TIMEOUT");
            release();
            await held;
            assertEquals(db.stats!(), { total: 1, idle: 1, waiting: 0, errors: 1 });
            const [row] = await db.statement<{ n: number }>(SERVICE, "select 2 as n");
            assertEquals(row.n, 2);
          } finally {
            await db.close();
          }
        });

        await t.step("a transaction left idle past its deadline is ended by the server", async () => {
          const db = openPostgres(dbUrl, { max: 1, deadlines: { idleInTransactionMs: 200 } });
          try {
            const error = await rejection(() =>
              db.transaction(SERVICE, async (tx) => {
                await tx`select 1`;
                await sleep(800);
                await tx`select 2`;
              })
            );
            assert(isDatabaseUnavailable(error), String(error));
            const [row] = await db.statement<{ n: number }>(SERVICE, "select 3 as n");
            assertEquals(row.n, 3, "a new connection serves");
          } finally {
            await db.close();
          }
        });

        await t.step(
          "terminating every backend four times under traffic: the process lives, the pool recovers",
          async () => {
            const db = openPostgres(dbUrl, { max: 4 });
            let running = true;
            let ok = 0;
            let failed = 0;
            const loops = Array.from({ length: 16 }, async () => {
              while (running) {
                try {
                  await db.statement(SERVICE, "select pg_sleep(0.002), $1::int as n", [1]);
                  ok++;
                } catch (error) {
                  if (!isDatabaseUnavailable(error)) throw error;
                  failed++;
                }
              }
            });
            try {
              let terminated = 0;
              for (let round = 0; round < 4; round++) {
                await sleep(300);
                terminated += await terminate();
              }
              assert(terminated >= 4, `${terminated} backends terminated`);
              await sleep(300);
              const okBefore = ok;
              assert(await until(() => ok > okBefore + 20, 3000), "statements succeed again");
            } finally {
              running = false;
              // A statement that never settles (a query the driver lost) fails here instead of hanging.
              const ended = await Promise.race([
                Promise.all(loops).then(() => true),
                sleep(10_000).then(() => false),
              ]);
              await db.close();
              assert(ended, "every statement settled");
            }
            assert(failed > 0, "some statements failed while their backend went away");
          },
        );

        await t.step("LISTEN is reported down when its backend goes, and comes back by itself", async () => {
          const states: string[] = [];
          const db = openPostgres(dbUrl, {
            max: 1,
            onListenState: (channel, up) => states.push(`${channel}:${up ? "up" : "down"}`),
          });
          try {
            const payloads: string[] = [];
            let subscribed = 0;
            const stop = await db.listen("faults_test", (payload) =>
              payloads.push(payload), () =>
              subscribed++);
            // Down until its first subscription: a channel never listened is not taken for a live one.
            assertEquals([subscribed, states], [1, ["faults_test:down", "faults_test:up"]]);
            await terminate();
            assert(
              await until(() =>
                subscribed === 2, 5000),
              `subscribed ${subscribed} times`,
            );
            assertEquals(states, [
              "faults_test:down",
              "faults_test:up",
              "faults_test:down",
              "faults_test:up",
            ]);
            await db.statement(SERVICE, "select pg_notify('faults_test', 'after')");
            assert(await until(() => payloads.includes("after"), 3000), "a notice after the return arrives");
            await stop();
          } finally {
            await db.close();
          }
        });
      } finally {
        await admin.end({ timeout: 1 });
      }
    }),
});
