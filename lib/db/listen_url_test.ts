// DATABASE_LISTEN_URL (lib/db/postgres.ts `listenUrl`): LISTEN connects there, queries and NOTIFY go
// through the pool's URL (a transaction-mode pooler in production). Runs when DATABASE_URL is set (a
// throw-away database is created and dropped).
import { assert, assertEquals } from "../../tests/support/assert.ts";
import { openPostgres } from "./postgres.ts";
import type { Claims } from "./database.ts";
import { withFreshDatabase } from "../../scripts/fresh_database.ts";

const url = Deno.env.get("DATABASE_URL");
const SERVICE: Claims = { role: "service_role", reason: "test" };

function named(dbUrl: string, applicationName: string): string {
  const parsed = new URL(dbUrl);
  parsed.searchParams.set("application_name", applicationName);
  return parsed.toString();
}

Deno.test({
  name: "PostgreSQL: LISTEN uses DATABASE_LISTEN_URL's connection, queries and NOTIFY the pool's",
  ignore: !url,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () =>
    await withFreshDatabase(url!, "deploy_listen", async (dbUrl, name) => {
      const db = openPostgres(named(dbUrl, "app_pool"), { max: 1, listenUrl: named(dbUrl, "app_listen") });
      try {
        const received: string[] = [];
        const listening = Promise.withResolvers<void>();
        const stop = await db.listen("deploy_test", (payload) =>
          received.push(payload), () =>
          listening.resolve());
        await listening.promise;
        // Roles are not needed for this: the claims statement only sets settings.
        await db.statement(SERVICE, "select pg_notify('deploy_test', 'bonjour')");
        for (let i = 0; i < 50 && received.length === 0; i++) {
          await new Promise((r) =>
            setTimeout(r, 20)
          );
        }
        assertEquals(received, ["bonjour"]);
        // One connection each: the pool's (max 1) and the listener's, named by their URLs.
        const sessions = await db.statement<{ application_name: string }>(
          SERVICE,
          `select application_name from pg_stat_activity where datname = '${name}'
             and application_name like 'app_%' order by application_name`,
        );
        assertEquals(sessions.map((s) => s.application_name), ["app_listen", "app_pool"]);
        await stop();
      } finally {
        await db.close();
      }

      // A LISTEN URL where nothing answers: LISTEN is reported down (and retried) without holding the
      // caller, queries still go through the pool's URL.
      const states: [string, boolean][] = [];
      const broken = openPostgres(dbUrl, {
        max: 1,
        listenUrl: "postgres://nobody@127.0.0.1:1/none",
        onListenState: (channel, up) => states.push([channel, up]),
      });
      try {
        const [row] = await broken.statement<{ one: number }>(SERVICE, "select 1 as one");
        assertEquals(row.one, 1);
        const started = Date.now();
        const stop = await broken.listen("deploy_test", () => {});
        assert(Date.now() - started < 10_000, "listen returned while its connection is down");
        assertEquals(states, [["deploy_test", false]]);
        await stop();
      } finally {
        await broken.close();
      }
    }),
});
