// The customer's confirmation of a paid workshop order: what is booked, what was paid, where the
// receipt and the invoice are ('Vos sessions').
import type { OutgoingEmail } from "../outbox.ts";
import { formatEuros } from "../../money.ts";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export function registrationConfirmationEmail(
  c: {
    to: string;
    firstname: string;
    orderId: number;
    /** "Atelier « … » — Bordeaux, 12/12/2026 19:00" and its places. */
    lines: { label: string; quantity: number }[];
    /** Cents paid by card. */
    amount: number;
    invoiceNumber: string | null;
    sessionsUrl: string;
  },
): OutgoingEmail {
  const greeting = c.firstname ? `Bonjour ${c.firstname},` : "Bonjour,";
  const places = (n: number) => `${n} ${n > 1 ? "places" : "place"}`;
  const list = c.lines.map((l) => `- ${l.label} : ${places(l.quantity)}`).join("\n");
  const invoice = c.invoiceNumber ? ` (facture n° ${c.invoiceNumber})` : "";
  const text = `${greeting}

Merci pour votre réservation ! Votre paiement de ${formatEuros(c.amount)} est bien reçu${invoice}.

Commande n° ${c.orderId} :
${list}

Votre reçu et votre facture sont disponibles dans 'Vos sessions' :
${c.sessionsUrl}

Vous ne pouvez plus participer ? Répondez simplement à cet email.`;
  const html = `<p>${escapeHtml(greeting)}</p>
<p>Merci pour votre réservation ! Votre paiement de ${escapeHtml(formatEuros(c.amount))} est bien reçu${
    escapeHtml(invoice)
  }.</p>
<p>Commande n° ${c.orderId} :</p>
<ul>${c.lines.map((l) => `<li>${escapeHtml(l.label)} : ${places(l.quantity)}</li>`).join("")}</ul>
<p>Votre reçu et votre facture sont disponibles dans <a href="${
    escapeHtml(c.sessionsUrl)
  }">Vos sessions</a>.</p>
<p>Vous ne pouvez plus participer ? Répondez simplement à cet email.</p>`;
  return {
    to: c.to,
    template: "registration-confirmation",
    subject: `Votre réservation est confirmée (commande n° ${c.orderId})`,
    text,
    html,
  };
}
