// A workshop date canceled by the organiser: each booker is told, and whether they are refunded.
import type { OutgoingEmail } from "../outbox.ts";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export interface SessionDateCanceledEmail {
  to: string;
  firstname: string;
  title: string;
  /** "05/12/2026 19:00" (Paris). */
  when: string;
  quantity: number;
  /** "135,00 €" when a payment is refunded, null when nothing was paid. */
  refund: string | null;
  /** The catalogue, to pick another date. */
  link: string;
}

export function sessionDateCanceledEmail(e: SessionDateCanceledEmail): OutgoingEmail {
  const greeting = e.firstname ? `Bonjour ${e.firstname},` : "Bonjour,";
  const places = e.quantity > 1 ? `vos ${e.quantity} places` : "votre place";
  const money = e.refund
    ? `Vous êtes remboursé de ${e.refund} sur le moyen de paiement utilisé ; le remboursement apparaît sous quelques jours.`
    : "Vous n'aviez rien réglé : aucun paiement ne sera demandé.";
  const text = `${greeting}

Nous sommes désolés : la date du ${e.when} de « ${e.title} » est annulée, et ${places} avec elle.
${money}

D'autres dates vous attendent : ${e.link}`;
  const html = `<p>${escapeHtml(greeting)}</p>
<p>Nous sommes désolés : la date du ${escapeHtml(e.when)} de « ${
    escapeHtml(e.title)
  } » est annulée, et ${places} avec elle.</p>
<p>${escapeHtml(money)}</p>
<p>D'autres dates vous attendent : <a href="${escapeHtml(e.link)}">voir les ateliers</a>.</p>`;
  return {
    to: e.to,
    template: "session-date-canceled",
    subject: `Annulation : ${e.title} le ${e.when}`,
    text,
    html,
  };
}
