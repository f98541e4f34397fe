// 'Envoyer le devis au partenaire' (admins): start → new, envoi_devis_partenaire = 'oui', the partner
// emailed (by the worker, from the notification queued here).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { DEAL_MESSAGES, transition } from "../rules.ts";
import { companyCard, findDeal, nameAction, queueNotification, writeDeal } from "../store.ts";
import { readPayload } from "./read_payload.ts";
import { check, locked, type UpdateResult } from "./workflow.ts";

export async function sendToPartner(deps: Deps, actor: Actor, id: number): Promise<UpdateResult> {
  const admin = requireRole(actor, "Admin", { message: DEAL_MESSAGES.notAllowed });
  const deal = await transactionAs(deps.db, admin, async (tx) => {
    const deal = await findDeal(tx, id, { lock: true });
    if (deal.properties.envoi_devis_partenaire === "oui" && deal.status !== "start") {
      throw new AppError("conflict", DEAL_MESSAGES.alreadySentToPartner);
    }
    const to = check(
      transition("send_to_partner", { from: deal.status, role: "Admin", locked: locked(deal) }),
    );
    const company = await companyCard(tx, deal.companyId);
    if (!company) throw new AppError("conflict", DEAL_MESSAGES.noPartner);
    await nameAction(tx, "send_to_partner");
    await writeDeal(tx, id, {
      status: to,
      properties: { ...deal.properties, envoi_devis_partenaire: "oui" },
    });
    await queueNotification(tx, id, "new_deal_partner");
    return await readPayload(deps, tx, "Admin", id);
  });
  await deps.logger.info("deals", "Devis envoyé au partenaire", { dealId: id, adminId: admin.user.id });
  return { deal, message: DEAL_MESSAGES.sentToPartner };
}
