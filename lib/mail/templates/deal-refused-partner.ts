// 'deal-refused-partner': the customer refused the quote; the partner is told, with the reason. Names
// the deal only.
import type { OutgoingEmail } from "../outbox.ts";
import { paragraphsEmail } from "./layout.ts";

export function dealRefusedPartnerEmail(
  to: string,
  deal: { id: number; name: string },
  reason: string | null,
  link: string,
): OutgoingEmail {
  return paragraphsEmail(to, "deal-refused-partner", `Devis refusé par le client : #${deal.id}`, [
    "Bonjour,",
    `Le client a refusé le devis #${deal.id} « ${deal.name} »${reason ? ` : ${reason}` : "."}`,
    "Aucune action n'est attendue de votre part.",
  ], { url: link, label: "Voir le devis" });
}
