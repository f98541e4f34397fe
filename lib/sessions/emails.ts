// The seat alert's confirmation email (spec 000 §8: 'a confirmation email was sent').
import type { OutgoingEmail } from "../mail/outbox.ts";
import { formatDateTime, SEAT_OFFER_HOURS } from "./rules.ts";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export function seatAlertEmail(to: string, title: string, dtstart: number, link: string): OutgoingEmail {
  const when = formatDateTime(dtstart);
  const text = `Bonjour,

Votre alerte est enregistrée : nous vous écrirons si une place se libère pour « ${title} » le ${when}.
Les places libérées sont proposées dans l'ordre des alertes : quand vient votre tour, la place vous est gardée ${SEAT_OFFER_HOURS} heures et nous vous envoyons un lien pour la réserver.
Les dates de l'atelier : ${link}

Vous recevez cet email parce que vous avez demandé cette alerte sur notre site.`;
  const html = `<p>Bonjour,</p>
<p>Votre alerte est enregistrée : nous vous écrirons si une place se libère pour « ${
    escapeHtml(title)
  } » le ${when}.</p>
<p>Les places libérées sont proposées dans l'ordre des alertes : quand vient votre tour, la place vous est gardée ${SEAT_OFFER_HOURS} heures et nous vous envoyons un lien pour la réserver.</p>
<p><a href="${escapeHtml(link)}">Les dates de l'atelier</a></p>
<p>Vous recevez cet email parce que vous avez demandé cette alerte sur notre site.</p>`;
  return { to, template: "seat-alert-confirmation", subject: `Alerte enregistrée : ${title}`, text, html };
}
