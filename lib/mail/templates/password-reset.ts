// 'password-reset': the link to choose a new password (lib/auth/actions.ts). Hidden from admins in the
// outbox (a live link would let an admin take over the account).
import type { OutgoingEmail } from "../outbox.ts";
import { escapeHtml } from "./layout.ts";

export function passwordResetEmail(to: string, firstname: string, link: string): OutgoingEmail {
  const greeting = firstname ? `Bonjour ${firstname},` : "Bonjour,";
  const text = `${greeting}

Vous avez demandé à réinitialiser votre mot de passe. Ce lien est valable une heure et ne peut servir qu'une fois :
${link}

Si vous n'êtes pas à l'origine de cette demande, ignorez cet email : votre mot de passe reste inchangé.`;
  const html = `<p>${escapeHtml(greeting)}</p>
<p>Vous avez demandé à réinitialiser votre mot de passe. Ce lien est valable une heure et ne peut servir qu'une fois :</p>
<p><a href="${escapeHtml(link)}">Choisir un nouveau mot de passe</a></p>
<p>Si vous n'êtes pas à l'origine de cette demande, ignorez cet email : votre mot de passe reste inchangé.</p>`;
  return { to, template: "password-reset", subject: "Réinitialisation de votre mot de passe", text, html };
}
