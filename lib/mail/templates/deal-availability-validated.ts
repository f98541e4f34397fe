// 'deal-availability-validated': the platform's team (SUPPORT_EMAIL) learns that a partner confirmed
// its availability and that the quote left for the customer.
import type { OutgoingEmail } from "../outbox.ts";
import { paragraphsEmail } from "./layout.ts";

export function availabilityValidatedEmail(to: string, deal: {
  id: number;
  name: string;
  partnerName: string | null;
  revalidated: boolean;
}, link: string): OutgoingEmail {
  const partner = deal.partnerName || "Le partenaire";
  return paragraphsEmail(
    to,
    "deal-availability-validated",
    `Disponibilité ${deal.revalidated ? "revalidée" : "validée"} : devis #${deal.id}`,
    [
      "Bonjour,",
      `${partner} a ${
        deal.revalidated ? "revalidé" : "validé"
      } sa disponibilité et ses cocktails pour le devis #${deal.id} « ${deal.name} ».`,
      deal.revalidated ? "Le devis mis à jour a été envoyé au client." : "Le devis a été envoyé au client.",
    ],
    { url: link, label: "Voir le devis" },
  );
}
