// 'deal-invoice-customer' ('Facture client', spec 001 §9): the customer's invoices for their quote,
// with what remains to pay. Sent by an admin from the list, or by the reminder policy the day after
// the event.
import type { OutgoingEmail } from "../outbox.ts";
import { formatEuros } from "../../money.ts";
import { type EmailLink, greeting, paragraphsEmail } from "./layout.ts";

export function customerInvoiceEmail(to: string, firstname: string, deal: {
  name: string;
  /** What the quote still asks, in cents (0 when fully paid). */
  dueCents: number;
  invoices: EmailLink[];
}, link: string): OutgoingEmail {
  return paragraphsEmail(to, "deal-invoice-customer", `Votre facture : ${deal.name}`, [
    greeting(firstname),
    `Merci d'avoir fait appel à nous pour « ${deal.name} ».`,
    deal.invoices.length
      ? "Vous trouverez ci-dessous vos factures."
      : "Vos factures apparaîtront sur la page de votre devis dès réception de votre paiement.",
    deal.dueCents > 0
      ? `Il reste ${
        formatEuros(deal.dueCents)
      } à régler : vous pouvez payer en ligne depuis la page de votre devis.`
      : "Votre devis est entièrement réglé.",
  ], [...deal.invoices, { url: link, label: "Voir mon devis" }]);
}
