// 'deal-reminder-manual-partner' ('Rappel partenaire', spec 001 §9): the partner has a quote waiting for
// its availability and cocktails. Sent by an admin from the list, or by the reminder policy 48 h after
// the deal was sent to the partner. Names the deal only.
import type { OutgoingEmail } from "../outbox.ts";
import { paragraphsEmail } from "./layout.ts";

export function partnerReminderEmail(
  to: string,
  deal: { id: number; name: string },
  link: string,
): OutgoingEmail {
  return paragraphsEmail(
    to,
    "deal-reminder-manual-partner",
    `Rappel : le devis #${deal.id} attend votre validation`,
    [
      "Bonjour,",
      `La demande de devis #${deal.id} « ${deal.name} » attend toujours votre réponse.`,
      "Confirmez votre disponibilité à la date du service et validez votre liste de cocktails pour que le devis parte au client, ou refusez-le s'il ne vous convient pas.",
    ],
    { url: link, label: "Valider ma disponibilité" },
  );
}
