// The buyer's confirmation of a gift voucher's purchase: to whom and when it will be sent, its value and
// validity, and where to find it (the code, the PDF and the invoice are in 'Vos bons cadeaux').
import type { OutgoingEmail } from "../outbox.ts";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export interface GiftVoucherBoughtInput {
  to: string;
  recipientName: string;
  recipientEmail: string;
  /** DD/MM/YYYY */
  sendOn: string;
  amount: string;
  validUntil: string;
  listLink: string;
}

export function giftVoucherBoughtEmail(v: GiftVoucherBoughtInput): OutgoingEmail {
  const subject = "Votre bon cadeau est confirmé";
  const text = `Bonjour,

Merci pour votre achat : votre bon cadeau de ${v.amount} pour ${v.recipientName} est payé.
Il sera envoyé à ${v.recipientEmail} le ${v.sendOn}, et il est valable jusqu'au ${v.validUntil}.

Son code, le bon à imprimer (PDF) et votre facture sont dans « Vos bons cadeaux » : ${v.listLink}`;
  const html = `<p>Bonjour,</p>
<p>Merci pour votre achat : votre bon cadeau de <strong>${escapeHtml(v.amount)}</strong> pour ${
    escapeHtml(v.recipientName)
  } est payé.<br>
Il sera envoyé à ${escapeHtml(v.recipientEmail)} le ${escapeHtml(v.sendOn)}, et il est valable jusqu'au ${
    escapeHtml(v.validUntil)
  }.</p>
<p>Son code, le bon à imprimer (PDF) et votre facture sont dans <a href="${
    escapeHtml(v.listLink)
  }">Vos bons cadeaux</a>.</p>`;
  return { to: v.to, template: "gift-voucher-bought", subject, text, html };
}
