// Prepared statements on PostgreSQL (lib/db/postgres.ts): on by default for the claims and every
// statement with parameters, kept correct under RLS, never for SQL built at run time, bounded, and off
// with `prepare: false` (DATABASE_PREPARE=false). Read from the connection itself: each pool here has
// one connection, so pg_prepared_statements lists what the app's own connection prepared.
// Runs when DATABASE_URL is set (a throw-away database is created and dropped).
import { assert, assertEquals, assertRejects } from "../../tests/support/assert.ts";
import { openPostgres, PG_CLAIMS_SQL } from "./postgres.ts";
import type { Claims, Database } from "./database.ts";
import { migrate } from "./migrate.ts";
import { seedDemoData } from "../seed/demo.ts";
import { FIND_USER_SQL, updateUserFields } from "../accounts/store.ts";
import { listAllDeals, writeDeal } from "../deals/store.ts";
import { withFreshDatabase } from "../../scripts/fresh_database.ts";

const SERVICE: Claims = { role: "service_role", reason: "seed" };
const url = Deno.env.get("DATABASE_URL");

/** The statements this pool's one connection has prepared (the query itself has no parameter: simple
 * protocol, never prepared). */
async function prepared(db: Database): Promise<string[]> {
  const rows = await db.statement<{ statement: string }>(
    SERVICE,
    "select statement from pg_prepared_statements order by prepare_time",
  );
  return rows.map((r) => r.statement);
}

async function userIds(db: Database): Promise<Record<string, string>> {
  const rows = await db.statement<{ id: string; email: string }>(
    SERVICE,
    "select id, email from public.users",
  );
  return Object.fromEntries(rows.map((r) => [r.email, r.id]));
}

const asUser = (id: string): Claims => ({ role: "authenticated", sub: id });

Deno.test({
  name:
    "PostgreSQL: statements are prepared by default, RLS still applies per request, and the off switch works",
  ignore: !url,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) =>
    await withFreshDatabase(url!, "prepared", async (dbUrl) => {
      const setup = openPostgres(dbUrl, { max: 1 });
      try {
        await migrate(setup);
        await seedDemoData(setup);
      } finally {
        await setup.close();
      }

      await t.step("the claims statement and a statement with parameters are prepared once", async () => {
        const db = openPostgres(dbUrl, { max: 1 });
        try {
          const ids = await userIds(db);
          const client = ids["client@example.fr"];
          for (let i = 0; i < 3; i++) {
            const [user] = await db.statement<{ email: string }>(asUser(client), FIND_USER_SQL, [client]);
            assertEquals(user.email, "client@example.fr");
            await db.transaction(asUser(client), (tx) => tx.query(FIND_USER_SQL, [client]));
          }
          const statements = await prepared(db);
          assertEquals(statements.filter((s) => s === PG_CLAIMS_SQL).length, 1);
          assertEquals(statements.filter((s) => s === FIND_USER_SQL).length, 1);
        } finally {
          await db.close();
        }
      });

      await t.step(
        "one prepared statement, run by several roles and users in turn, sees what each may",
        async () => {
          const db = openPostgres(dbUrl, { max: 1 });
          try {
            const ids = await userIds(db);
            const emails = "select email from public.users where email like $1 order by email";
            const seen = async (claims: Claims) =>
              (await db.statement<{ email: string }>(claims, emails, ["%@example.fr"])).map((r) => r.email);
            // More than five runs each: PostgreSQL may switch a prepared statement to a generic plan.
            for (let i = 0; i < 7; i++) {
              assertEquals(await seen(asUser(ids["client@example.fr"])), ["client@example.fr"]);
              assertEquals(await seen(asUser(ids["client2@example.fr"])), ["client2@example.fr"]);
              await assertRejects(() => seen({ role: "anon" }), (e) =>
                /permission denied for table users/.test(String(e)));
              const all = await seen(asUser(ids["admin@example.fr"]));
              assert(all.length >= 5 && all.includes("client2@example.fr"), `admin sees ${all}`);
            }
            assertEquals(
              (await prepared(db)).filter((s) =>
                s === emails
              ).length,
              1,
            );
          } finally {
            await db.close();
          }
        },
      );

      await t.step(
        "SQL built at run time (admin search, deal and profile updates) is never prepared",
        async () => {
          const db = openPostgres(dbUrl, { max: 1 });
          try {
            const ids = await userIds(db);
            for (const search of ["perrin", "perrin élodie", "mariage 2026 paris", "x"]) {
              await db.transaction(SERVICE, (tx) =>
                listAllDeals(tx, {
                  search,
                  from: search === "x" ? "2026-01-01" : null,
                  to: null,
                  page: search === "x" ? 3 : 1,
                  perPage: 20,
                  sort: "createdAt",
                  direction: "desc",
                }));
            }
            const client = ids["client@example.fr"];
            await db.transaction(
              asUser(client),
              (tx) => updateUserFields(tx, client, { firstname: "Jeanne" }),
            );
            await db.transaction(
              asUser(client),
              (tx) => updateUserFields(tx, client, { lastname: "Martin", city: "Lyon" }),
            );
            const [deal] = await db.statement<{ id: number }>(SERVICE, "select id from public.deals limit 1");
            await db.transaction(SERVICE, (tx) => writeDeal(tx, deal.id, { adminComments: "Vu" }));
            await db.transaction(
              SERVICE,
              (tx) => writeDeal(tx, deal.id, { guests: 80, adminComments: "Revu" }),
            );
            const statements = await prepared(db);
            assertEquals(statements.filter((s) => s.includes("update public.deals set")), []);
            assertEquals(
              statements.filter((s) => s.includes("matching as materialized")),
              [],
            );
            assertEquals(
              statements.filter((s) => s.includes("from public.deals d join public.deal_contacts")),
              [],
            );
            assertEquals(statements.filter((s) => s.includes("update public.users set")), []);
          } finally {
            await db.close();
          }
        },
      );

      await t.step(
        "past maxPreparedTexts distinct texts, new ones run unprepared (and still answer)",
        async () => {
          const db = openPostgres(dbUrl, { max: 1, maxPreparedTexts: 3 });
          try {
            for (let i = 1; i <= 6; i++) {
              const [row] = await db.statement<{ n: number }>(SERVICE, `select $1::int + ${i} as n`, [10]);
              assertEquals(row.n, 10 + i);
            }
            // The claims statement and the first two texts (besides the driver's own type lookup).
            const ours = (await prepared(db)).filter((s) => !s.includes("pg_catalog.pg_type"));
            assertEquals(ours, [
              PG_CLAIMS_SQL,
              "select $1::int + 1 as n",
              "select $1::int + 2 as n",
            ]);
          } finally {
            await db.close();
          }
        },
      );

      await t.step("prepare: false (DATABASE_PREPARE=false) prepares nothing", async () => {
        const db = openPostgres(dbUrl, { max: 1, prepare: false });
        try {
          const ids = await userIds(db);
          const client = ids["client@example.fr"];
          for (let i = 0; i < 3; i++) {
            const [user] = await db.statement<{ email: string }>(asUser(client), FIND_USER_SQL, [client]);
            assertEquals(user.email, "client@example.fr");
            await db.transaction(asUser(client), (tx) => tx`select ${client}::uuid as id`);
          }
          assertEquals(await prepared(db), []);
        } finally {
          await db.close();
        }
      });
    }),
});
