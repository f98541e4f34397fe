// 'Marquer devis accepté' (admins): locks partners' edits (spec 001 §4). The status change queues the
// deal's HubSpot sync (its stage) in the same transaction (trigger of 20261127007000_operations.sql).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { crmSyncEnabled } from "../../crm/rules.ts";
import { DEAL_MESSAGES, transition } from "../rules.ts";
import { findDeal, nameAction, writeDeal } from "../store.ts";
import { readPayload } from "./read_payload.ts";
import { check, locked, type UpdateResult } from "./workflow.ts";

export async function acceptDeal(deps: Deps, actor: Actor, id: number): Promise<UpdateResult> {
  const admin = requireRole(actor, "Admin", { message: DEAL_MESSAGES.notAllowed });
  const crm = crmSyncEnabled(deps.config);
  const deal = await transactionAs(deps.db, admin, async (tx) => {
    const deal = await findDeal(tx, id, { lock: true });
    const to = check(transition("accept", { from: deal.status, role: "Admin", locked: locked(deal) }));
    await nameAction(tx, "accept");
    await writeDeal(tx, id, {
      status: to,
      adminSettings: { ...deal.adminSettings, disableQuoteEdits: true },
    });
    return await readPayload(deps, tx, "Admin", id);
  });
  await deps.logger.info("deals", "Devis marqué comme accepté", { dealId: id, adminId: admin.user.id, crm });
  // The spec's message says HubSpot was updated: only when the sync runs.
  return { deal, message: crm ? DEAL_MESSAGES.accepted : DEAL_MESSAGES.acceptedWithoutCrm };
}
