// GET /api/logs and the 'Gestion des Logs' page: the stat cards, one page of rows (newest first) for
// the service and type filters, the services that ever logged, whether HubSpot is kept in step, and the
// alerts (dead letters, a stalled worker: ops_alerts.ts).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { CRM_MESSAGES, crmSyncEnabled } from "../../crm/rules.ts";
import { LOG_MESSAGES, LOG_PAGE_SIZE, type LogsData, parseFilters } from "../rules.ts";
import { countLogs, listLogs, logServices, logStats } from "../store.ts";
import { opsAlerts, recentDeadJobs } from "./ops_alerts.ts";

export const requireLogsAdmin = (actor: Actor) =>
  requireRole(actor, "Admin", { message: LOG_MESSAGES.notAllowed, notImpersonating: true });

export async function listLogsPage(
  deps: Deps,
  actor: Actor,
  query: Record<string, string | undefined>,
): Promise<LogsData> {
  requireLogsAdmin(actor);
  const parsed = parseFilters(query);
  if (!parsed.ok) throw new AppError("bad_request", parsed.message);
  const filters = parsed.filters;
  const data = await transactionAs(deps.db, actor, async (tx) => {
    const stats = await logStats(tx);
    const filtered = !filters.service && !filters.type;
    return {
      stats,
      logs: await listLogs(tx, filters),
      services: await logServices(tx),
      total: filtered ? stats.total : await countLogs(tx, filters),
      deadJobs: await recentDeadJobs(tx),
    };
  });
  const { deadJobs, ...rows } = data;
  const enabled = crmSyncEnabled(deps.config);
  return {
    ...rows,
    alerts: await opsAlerts(deps, deadJobs),
    page: filters.page,
    pageSize: LOG_PAGE_SIZE,
    hubspot: { enabled, message: enabled ? CRM_MESSAGES.syncOn : CRM_MESSAGES.syncOff },
  };
}
