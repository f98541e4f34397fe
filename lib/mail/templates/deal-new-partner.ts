// 'deal-new-partner': the partner is asked to confirm its availability and validate its cocktails
// ('Envoyer le devis au partenaire'). Names the deal only: never the customer's contact details.
import type { OutgoingEmail } from "../outbox.ts";
import { paragraphsEmail } from "./layout.ts";

export function partnerNewDealEmail(to: string, dealName: string, link: string): OutgoingEmail {
  return paragraphsEmail(to, "deal-new-partner", `Nouvelle demande de devis : ${dealName}`, [
    "Bonjour,",
    `Une nouvelle demande de devis vous est confiée : ${dealName}.`,
    "Vérifiez votre disponibilité à la date du service et validez votre liste de cocktails pour que le devis parte au client.",
  ], { url: link, label: "Voir la demande" });
}
