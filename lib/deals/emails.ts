// French emails of the deals capability, written to the outbox in the transaction of the action.
import type { OutgoingEmail } from "../mail/outbox.ts";
import { formatEuros } from "../money.ts";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

function email(
  to: string,
  template: string,
  subject: string,
  paragraphs: string[],
  link?: { url: string; label: string },
) {
  const text = [...paragraphs, ...(link ? [`${link.label} : ${link.url}`] : [])].join("\n\n");
  const html = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n") +
    (link ? `\n<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>` : "");
  return { to, template, subject, text, html } satisfies OutgoingEmail;
}

export function requestReceivedEmail(
  to: string,
  firstname: string,
  estimateTTC: number,
  link: string,
): OutgoingEmail {
  return email(to, "deal-request-received", "Votre demande de devis est bien reçue", [
    `Bonjour ${firstname},`,
    `Merci pour votre demande. Notre estimation pour votre événement : ${formatEuros(estimateTTC)} TTC.`,
    "Un bartender partenaire va vérifier sa disponibilité et préparer votre devis. Vous recevrez un email dès qu'il sera prêt.",
  ], { url: link, label: "Suivre ma demande" });
}

export function partnerNewDealEmail(to: string, dealName: string, link: string): OutgoingEmail {
  return email(to, "deal-new-partner", `Nouvelle demande de devis : ${dealName}`, [
    "Bonjour,",
    `Une nouvelle demande de devis vous est confiée : ${dealName}.`,
    "Vérifiez votre disponibilité à la date du service et validez votre liste de cocktails pour que le devis parte au client.",
  ], { url: link, label: "Voir la demande" });
}

export function quoteReadyEmail(
  to: string,
  firstname: string,
  dealName: string,
  link: string,
  updated: boolean,
): OutgoingEmail {
  return email(
    to,
    updated ? "deal-quote-updated" : "deal-quote-ready",
    updated ? "Votre devis a été mis à jour" : "Votre devis est prêt",
    [
      `Bonjour ${firstname},`,
      updated
        ? `Votre devis « ${dealName} » a été mis à jour par votre bartender.`
        : `Votre devis « ${dealName} » est prêt : votre bartender a confirmé sa disponibilité.`,
      "Choisissez vos cocktails et réglez votre acompte en ligne pour réserver votre date.",
    ],
    { url: link, label: "Voir mon devis" },
  );
}
