// POST /api/logs/cleanup ('Nettoyer les anciens'): rows older than 30 days, under the admin's claims.
// The nightly job of the registry deletes the same rows as the system (public.purge_old_logs()).
import { type Actor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { LOG_MESSAGES, LOG_RETENTION_DAYS } from "../rules.ts";
import { deleteOldLogs } from "../store.ts";
import { requireLogsAdmin } from "./list_logs.ts";

export async function cleanupLogs(deps: Deps, actor: Actor): Promise<{ deleted: number; message: string }> {
  const admin = requireLogsAdmin(actor);
  const deleted = await transactionAs(deps.db, actor, (tx) => deleteOldLogs(tx, LOG_RETENTION_DAYS));
  // Written after the cleanup: the page then shows who cleaned and how much.
  await deps.logger.info("logs", "Nettoyage des logs de plus de 30 jours", {
    deleted,
    adminId: admin.user.id,
  });
  return { deleted, message: LOG_MESSAGES.cleaned(deleted) };
}
