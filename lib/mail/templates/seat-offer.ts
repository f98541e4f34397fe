// The waiting list's email: a place of a full workshop date is set aside for the subscriber, with a
// single-use link that puts it in their cart, valid a limited time (then the next subscriber gets it).
import type { OutgoingEmail } from "../outbox.ts";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export interface SeatOfferEmail {
  to: string;
  title: string;
  /** "05/12/2026 19:00" (Paris). */
  when: string;
  /** "21:30" (Paris): the end of the offer. */
  until: string;
  hours: number;
  link: string;
}

export function seatOfferEmail(e: SeatOfferEmail): OutgoingEmail {
  const text = `Bonjour,

Bonne nouvelle : une place s'est libérée pour « ${e.title} » le ${e.when}.
Nous vous la gardons pendant ${e.hours} heures, jusqu'à ${e.until}. Pour la réserver, ajoutez-la à votre panier avec ce lien (il ne sert qu'une fois) :
${e.link}

Passé ce délai, la place sera proposée à la personne suivante sur la liste d'attente.

Vous recevez cet email parce que vous avez demandé une alerte pour cette date sur notre site.`;
  const html = `<p>Bonjour,</p>
<p>Bonne nouvelle : une place s'est libérée pour « ${escapeHtml(e.title)} » le ${escapeHtml(e.when)}.</p>
<p>Nous vous la gardons pendant ${e.hours} heures, jusqu'à ${
    escapeHtml(e.until)
  }. Pour la réserver, ajoutez-la à votre panier avec ce lien (il ne sert qu'une fois) :</p>
<p><a href="${escapeHtml(e.link)}">Réserver ma place</a></p>
<p>Passé ce délai, la place sera proposée à la personne suivante sur la liste d'attente.</p>
<p>Vous recevez cet email parce que vous avez demandé une alerte pour cette date sur notre site.</p>`;
  return { to: e.to, template: "seat-offer", subject: `Une place s'est libérée : ${e.title}`, text, html };
}
