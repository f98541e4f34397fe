// 'Marquer devis accepté' (admins): locks partners' edits (spec 001 §4) and queues the CRM phase
// update in the same transaction.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { crmUpdateQueued } from "../../crm/rules.ts";
import { DEAL_MESSAGES, transition } from "../rules.ts";
import { findDeal, nameAction, queueCrmUpdate, writeDeal } from "../store.ts";
import { readPayload } from "./read_payload.ts";
import { check, locked, type UpdateResult } from "./workflow.ts";

export async function acceptDeal(deps: Deps, actor: Actor, id: number): Promise<UpdateResult> {
  const admin = requireRole(actor, "Admin", { message: DEAL_MESSAGES.notAllowed });
  let crm = false;
  const deal = await transactionAs(deps.db, admin, async (tx) => {
    const deal = await findDeal(tx, id, { lock: true });
    const to = check(transition("accept", { from: deal.status, role: "Admin", locked: locked(deal) }));
    await nameAction(tx, "accept");
    await writeDeal(tx, id, {
      status: to,
      adminSettings: { ...deal.adminSettings, disableQuoteEdits: true },
    });
    // Written whatever the configuration: delivered once a token is set, skipped without a HubSpot id.
    await queueCrmUpdate(tx, id, "deal_accepted", { hubspotId: deal.hubspotId, status: to });
    crm = crmUpdateQueued(deps.config, deal.hubspotId);
    return await readPayload(deps, tx, "Admin", id);
  });
  await deps.logger.info("deals", "Devis marqué comme accepté", { dealId: id, adminId: admin.user.id, crm });
  // The spec's message says HubSpot was updated: only when an update is really on its way.
  return { deal, message: crm ? DEAL_MESSAGES.accepted : DEAL_MESSAGES.acceptedWithoutCrm };
}
