// A card payment of an order that could not be kept (its places were sold again after the hold
// expired, or the order was already paid or replaced): the customer is told it is refunded in full.
import type { OutgoingEmail } from "../outbox.ts";
import { formatEuros } from "../../money.ts";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export function orderPaymentRefundedEmail(
  c: { to: string; firstname: string; orderId: number; amount: number; soldOut: boolean; cartUrl: string },
): OutgoingEmail {
  const greeting = c.firstname ? `Bonjour ${c.firstname},` : "Bonjour,";
  const why = c.soldOut
    ? "Votre réservation avait expiré avant la fin du paiement et ses places ont été reprises entre-temps : nous ne pouvons pas vous les attribuer."
    : "Cette commande était déjà réglée ou avait été remplacée par une autre : ce paiement n'était pas dû.";
  const text = `${greeting}

Nous avons bien reçu votre paiement de ${formatEuros(c.amount)} pour la commande n° ${c.orderId}.
${why}

Il vous est remboursé intégralement sur votre carte (sous quelques jours selon votre banque) ; un avoir vous sera adressé.
Vous pouvez choisir une autre date ici : ${c.cartUrl}

Toutes nos excuses pour ce contretemps.`;
  const html = `<p>${escapeHtml(greeting)}</p>
<p>Nous avons bien reçu votre paiement de ${
    escapeHtml(formatEuros(c.amount))
  } pour la commande n° ${c.orderId}.<br>${escapeHtml(why)}</p>
<p>Il vous est remboursé intégralement sur votre carte (sous quelques jours selon votre banque) ; un avoir vous sera adressé.</p>
<p><a href="${escapeHtml(c.cartUrl)}">Choisir une autre date</a></p>
<p>Toutes nos excuses pour ce contretemps.</p>`;
  return {
    to: c.to,
    template: "order-payment-refunded",
    subject: `Votre paiement vous est remboursé (commande n° ${c.orderId})`,
    text,
    html,
  };
}
