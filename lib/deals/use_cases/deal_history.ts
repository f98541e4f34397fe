// GET /api/deal/{id}/history: the deal's status changes (admins and its partner).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { DEAL_MESSAGES } from "../rules.ts";
import { findDeal, type StatusChange, statusHistory } from "../store.ts";

export async function dealHistory(deps: Deps, actor: Actor, id: number): Promise<StatusChange[]> {
  const user = requireRole(actor, ["Admin", "Company"], { message: DEAL_MESSAGES.notAllowed });
  return await transactionAs(deps.db, user, async (tx) => {
    await findDeal(tx, id);
    return await statusHistory(tx, id);
  });
}
