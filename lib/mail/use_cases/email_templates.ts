// GET /api/deal/email-templates (spec 001 §7): the manual templates the admin's 'send email' dialog
// offers. Admins only.
import { type Actor, requireRole } from "../../actor.ts";
import { type EmailTemplateInfo, MAIL_MESSAGES, MANUAL_TEMPLATES } from "../rules.ts";

export function listEmailTemplates(actor: Actor): EmailTemplateInfo[] {
  requireRole(actor, "Admin", { message: MAIL_MESSAGES.notAllowed });
  return MANUAL_TEMPLATES;
}
