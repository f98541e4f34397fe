// POST /api/deal/send-mail/{id} with templateName (spec 001 §7, §2.12 'send email'): an admin sends one
// of the manual templates about a deal. The email is queued in this transaction (deal_notifications,
// RLS: admins only for these kinds) and written to the outbox by the worker as the system within
// seconds; 404 for an unknown deal, 422 for an unknown template or a deal without that recipient, 409
// when the template does not apply to the deal now (manualSendRefusal: the recipient cannot open the
// deal yet, has nothing to do, or no invoice exists).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { DEAL_MESSAGES } from "../../deals/rules.ts";
import { type EmailTemplateInfo, MAIL_MESSAGES, manualSendRefusal, manualTemplate } from "../rules.ts";
import { dealRecipients, queueManualEmail } from "../store.ts";

export async function sendDealEmail(
  deps: Deps,
  actor: Actor,
  dealId: number,
  body: Record<string, unknown>,
): Promise<{ template: EmailTemplateInfo; message: string }> {
  const admin = requireRole(actor, "Admin", { message: MAIL_MESSAGES.notAllowed });
  const name = body.templateName ?? body.template;
  if (typeof name !== "string" || name.trim() === "") {
    throw new AppError("validation", MAIL_MESSAGES.templateRequired, {
      templateName: MAIL_MESSAGES.templateRequired,
    });
  }
  const template = manualTemplate(name.trim());
  if (!template) {
    throw new AppError("validation", MAIL_MESSAGES.unknownTemplate, {
      templateName: MAIL_MESSAGES.unknownTemplate,
    });
  }
  await transactionAs(deps.db, admin, async (tx) => {
    const deal = await dealRecipients(tx, dealId);
    if (!deal) throw new AppError("not_found", DEAL_MESSAGES.notFound);
    const refusal = manualSendRefusal(template, deal);
    if (refusal === MAIL_MESSAGES.noRecipient) {
      throw new AppError("validation", refusal, { templateName: refusal });
    }
    if (refusal) throw new AppError("conflict", refusal);
    await queueManualEmail(tx, dealId, template.template);
  });
  await deps.logger.info("mail", "Email envoyé depuis la liste des devis", {
    dealId,
    template: template.template,
    adminId: admin.user.id,
  });
  return { template, message: MAIL_MESSAGES.sent(template.label) };
}
