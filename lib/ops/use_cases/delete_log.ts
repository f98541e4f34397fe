// DELETE /api/logs/{id}: one row, by an admin (RLS: admins delete logs).
import { type Actor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { LOG_MESSAGES } from "../rules.ts";
import { deleteLog } from "../store.ts";
import { requireLogsAdmin } from "./list_logs.ts";

export async function deleteLogEntry(deps: Deps, actor: Actor, id: number): Promise<string> {
  requireLogsAdmin(actor);
  const deleted = await transactionAs(deps.db, actor, (tx) => deleteLog(tx, id));
  if (!deleted) throw new AppError("not_found", LOG_MESSAGES.notFound);
  return LOG_MESSAGES.deleted;
}
