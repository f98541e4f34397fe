// French email texts. Pure: each returns the subject and bodies for the outbox.
import type { OutgoingEmail } from "./outbox.ts";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

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
