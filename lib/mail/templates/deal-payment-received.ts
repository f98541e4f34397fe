// 'deal-payment-received': the customer's receipt for a payment of their quote (card or recorded by
// an admin), with the link to their quote page, where the invoice is.
import type { OutgoingEmail } from "../outbox.ts";
import { formatEuros } from "../../money.ts";
import { paragraphsEmail } from "./layout.ts";
import { PAYMENT_KIND_LABELS, type PaymentKindName } from "../rules.ts";

export function paymentReceivedEmail(to: string, firstname: string, payment: {
  dealName: string;
  kind: PaymentKindName;
  amountCents: number;
}, link: string): OutgoingEmail {
  const what = PAYMENT_KIND_LABELS[payment.kind];
  return paragraphsEmail(to, "deal-payment-received", "Paiement bien reçu, merci !", [
    `Bonjour ${firstname},`,
    `Nous avons bien reçu votre paiement de ${
      formatEuros(payment.amountCents)
    } (${what}) pour « ${payment.dealName} ».`,
    payment.kind === "deposit"
      ? "Votre date est réservée. Le solde sera à régler avant l'événement."
      : "Votre devis est entièrement réglé. Merci pour votre confiance !",
    "Votre facture est disponible sur la page de votre devis.",
  ], { url: link, label: "Voir mon devis et ma facture" });
}
