import { assertEquals } from "../../tests/support/assert.ts";
import { openPglite } from "../db/pglite.ts";
import { migrate } from "../db/migrate.ts";
import { SERVICE } from "../db/database.ts";
import { createLogger } from "../log/logger.ts";
import { pgCronRunsJobs, runHousekeeping } from "./ticker.ts";

Deno.test({
  name: "without pg_cron the app's ticker runs the housekeeping functions",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const db = await openPglite("memory://");
    try {
      await migrate(db);
      assertEquals(await pgCronRunsJobs(db), false);
      await db.transaction(SERVICE, async (tx) => {
        const [user] = await tx<{ id: string }>`
          insert into public.users (type, email) values ('Customer', 'ticker@example.fr') returning id`;
        await tx`insert into identity.sessions (id_hash, user_id, expires_at)
                 values ('expired', ${user.id}, now() - interval '1 second'),
                        ('alive', ${user.id}, now() + interval '1 day')`;
      });
      await runHousekeeping(db, createLogger(db, { quiet: true }));
      const left = await db.transaction(SERVICE, (tx) => tx`select id_hash from identity.sessions`);
      assertEquals(left, [{ id_hash: "alive" }]);
    } finally {
      await db.close();
    }
  },
});
