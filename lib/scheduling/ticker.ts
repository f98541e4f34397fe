// Housekeeping jobs. Where pg_cron runs them (see the scheduling migration) the app does nothing;
// elsewhere (PGlite, a database pg_cron does not serve) an in-process ticker calls the same SQL
// functions every minute. Several instances may tick: the functions are idempotent.
import { type Database, SERVICE } from "../db/database.ts";
import type { Logger } from "../log/logger.ts";

export const HOUSEKEEPING = ["select public.purge_deleted_accounts()", "select identity.purge_expired()"];

export async function pgCronRunsJobs(db: Database): Promise<boolean> {
  const [row] = await db.transaction(
    SERVICE,
    (tx) => tx<{ scheduled: boolean }>`select public.housekeeping_scheduled_by_pg_cron() as scheduled`,
  );
  return row.scheduled;
}

export async function runHousekeeping(db: Database, logger: Logger): Promise<void> {
  for (const statement of HOUSEKEEPING) {
    try {
      await db.transaction(SERVICE, (tx) => tx.query(statement));
    } catch (error) {
      await logger.error("scheduling", `Tâche planifiée en échec : ${statement}`, { error: String(error) });
    }
  }
}

export function startTicker(db: Database, logger: Logger, intervalMs = 60_000): () => void {
  const timer = setInterval(() => runHousekeeping(db, logger), intervalMs);
  return () => clearInterval(timer);
}
