// 'partner-invitation': an accepted partner application, with the link to choose a password
// (lib/partners/actions.ts).
import type { OutgoingEmail } from "../outbox.ts";
import { escapeHtml } from "./layout.ts";

export function partnerInvitationEmail(
  to: string,
  firstname: string,
  company: string,
  link: string,
): OutgoingEmail {
  const greeting = firstname ? `Bonjour ${firstname},` : "Bonjour,";
  const text = `${greeting}

Bonne nouvelle : la candidature de ${company} est acceptée, votre compte partenaire est prêt.
Choisissez votre mot de passe avec ce lien, valable 7 jours et utilisable une seule fois :
${link}

Vous pourrez ensuite renseigner votre grille tarifaire et vos cocktails depuis votre espace partenaire.`;
  const html = `<p>${escapeHtml(greeting)}</p>
<p>Bonne nouvelle : la candidature de ${
    escapeHtml(company)
  } est acceptée, votre compte partenaire est prêt.</p>
<p><a href="${
    escapeHtml(link)
  }">Choisir mon mot de passe</a> (lien valable 7 jours, utilisable une seule fois)</p>
<p>Vous pourrez ensuite renseigner votre grille tarifaire et vos cocktails depuis votre espace partenaire.</p>`;
  return { to, template: "partner-invitation", subject: "Votre compte partenaire est prêt", text, html };
}
