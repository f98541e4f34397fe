// 'Gestion des emails programmés (Cron)' (spec 001 §2.14, §7): GET /api/cron/status and
// POST /api/cron/cleanup. Admins only (and RLS: admins read scheduled emails and delete sent ones).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import type { CronStats, ScheduledEmailJson } from "../rules.ts";
import { CRON_MESSAGES } from "../rules.ts";
import { cleanupScheduled, cronStats, nextCrons } from "../store.ts";

const NOT_ALLOWED = "Seuls les administrateurs peuvent gérer les emails programmés.";

export async function cronStatus(
  deps: Deps,
  actor: Actor,
): Promise<{ stats: CronStats; nextCrons: ScheduledEmailJson[] }> {
  const admin = requireRole(actor, "Admin", { message: NOT_ALLOWED });
  return await transactionAs(deps.db, admin, async (tx) => ({
    stats: await cronStats(tx),
    nextCrons: await nextCrons(tx),
  }));
}

export async function cronCleanup(deps: Deps, actor: Actor): Promise<{ deleted: number; message: string }> {
  const admin = requireRole(actor, "Admin", { message: NOT_ALLOWED });
  const deleted = await transactionAs(deps.db, admin, (tx) => cleanupScheduled(tx));
  await deps.logger.info("mail", "Nettoyage des emails programmés", { deleted, adminId: admin.user.id });
  return { deleted, message: CRON_MESSAGES.cleaned(deleted) };
}
