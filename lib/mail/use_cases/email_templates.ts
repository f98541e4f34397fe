// GET /api/deal/email-templates (spec 001 §7): the manual templates the admin's 'send email' dialog
// offers; with `?dealId=`, each says whether it applies to that deal now and, if not, why
// (manualSendRefusal). Admins only.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { DEAL_MESSAGES } from "../../deals/rules.ts";
import {
  type DealEmailTemplate,
  dealEmailTemplates,
  type EmailTemplateInfo,
  MAIL_MESSAGES,
  MANUAL_TEMPLATES,
} from "../rules.ts";
import { dealRecipients } from "../store.ts";

export function listEmailTemplates(actor: Actor): EmailTemplateInfo[] {
  requireRole(actor, "Admin", { message: MAIL_MESSAGES.notAllowed });
  return MANUAL_TEMPLATES;
}

export async function listDealEmailTemplates(
  deps: Deps,
  actor: Actor,
  dealId: number,
): Promise<DealEmailTemplate[]> {
  const admin = requireRole(actor, "Admin", { message: MAIL_MESSAGES.notAllowed });
  const deal = await transactionAs(deps.db, admin, (tx) => dealRecipients(tx, dealId));
  if (!deal) throw new AppError("not_found", DEAL_MESSAGES.notFound);
  return dealEmailTemplates(deal);
}
