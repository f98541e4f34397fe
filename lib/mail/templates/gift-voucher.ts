// The gift voucher's email to its recipient, sent on the day the buyer chose (issue 12): who offers it,
// the message, the code, its value and validity, and the link to the PDF voucher.
import type { OutgoingEmail } from "../outbox.ts";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export interface GiftVoucherEmailInput {
  to: string;
  recipientName: string;
  buyerName: string;
  message: string;
  /** XXXX-XXXX-XXXX-XXXX */
  code: string;
  /** "50,00 €" */
  amount: string;
  /** DD/MM/YYYY */
  validUntil: string;
  pdfLink: string;
  sessionsLink: string;
}

export function giftVoucherEmail(v: GiftVoucherEmailInput): OutgoingEmail {
  const subject = `${v.buyerName} vous offre un bon cadeau de ${v.amount}`;
  const text = `Bonjour ${v.recipientName},

${v.buyerName} vous offre un bon cadeau de ${v.amount} pour un atelier cocktail.
${v.message ? `\nSon message : « ${v.message} »\n` : ""}
Votre code : ${v.code}
Valable jusqu'au ${v.validUntil}, utilisable en plusieurs fois.

Choisissez votre atelier : ${v.sessionsLink}
Saisissez le code dans votre panier : son montant est déduit au paiement.

Votre bon cadeau à imprimer : ${v.pdfLink}`;
  const html = `<p>Bonjour ${escapeHtml(v.recipientName)},</p>
<p>${escapeHtml(v.buyerName)} vous offre un bon cadeau de <strong>${
    escapeHtml(v.amount)
  }</strong> pour un atelier cocktail.</p>
${v.message ? `<blockquote>${escapeHtml(v.message)}</blockquote>` : ""}
<p>Votre code : <strong style="font-size:1.3em;letter-spacing:2px">${escapeHtml(v.code)}</strong><br>
Valable jusqu'au ${escapeHtml(v.validUntil)}, utilisable en plusieurs fois.</p>
<p><a href="${
    escapeHtml(v.sessionsLink)
  }">Choisir mon atelier</a> puis saisissez le code dans votre panier : son montant est déduit au paiement.</p>
<p><a href="${escapeHtml(v.pdfLink)}">Télécharger mon bon cadeau (PDF)</a></p>`;
  return { to: v.to, template: "gift-voucher", subject, text, html };
}
