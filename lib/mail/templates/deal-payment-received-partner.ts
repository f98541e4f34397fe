// 'deal-payment-received-partner': the partner learns that its quote was paid. Names the deal and the
// amount only: never the customer's contact details (a partner may not see them, ARCHITECTURE 'Who
// sees what').
import type { OutgoingEmail } from "../outbox.ts";
import { formatEuros } from "../../money.ts";
import { paragraphsEmail } from "./layout.ts";
import { PAYMENT_KIND_LABELS, type PaymentKindName } from "../rules.ts";

export function paymentReceivedPartnerEmail(to: string, payment: {
  dealId: number;
  dealName: string;
  kind: PaymentKindName;
  amountCents: number;
}, link: string): OutgoingEmail {
  const what = PAYMENT_KIND_LABELS[payment.kind];
  return paragraphsEmail(to, "deal-payment-received-partner", `Paiement reçu : devis #${payment.dealId}`, [
    "Bonjour,",
    `Le client a réglé ${
      formatEuros(payment.amountCents)
    } (${what}) pour le devis #${payment.dealId} « ${payment.dealName} ».`,
    payment.kind === "deposit"
      ? "La prestation est confirmée : le solde sera réglé avant l'événement."
      : "Le devis est entièrement réglé.",
  ], { url: link, label: "Voir le devis" });
}
