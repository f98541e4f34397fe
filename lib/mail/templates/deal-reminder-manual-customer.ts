// 'deal-reminder-manual-customer' ('Rappel client', spec 001 §9): the customer's quote waits for their
// cocktails and deposit. Sent by an admin from the list, or by the reminder policy 3 days after the
// quote was sent.
import type { OutgoingEmail } from "../outbox.ts";
import { greeting, paragraphsEmail } from "./layout.ts";

export function customerReminderEmail(
  to: string,
  firstname: string,
  dealName: string,
  link: string,
): OutgoingEmail {
  return paragraphsEmail(to, "deal-reminder-manual-customer", "Rappel : votre devis vous attend", [
    greeting(firstname),
    `Votre devis « ${dealName} » vous attend toujours.`,
    "Choisissez vos cocktails et réglez votre acompte en ligne pour réserver définitivement votre date : elle n'est pas bloquée tant que l'acompte n'est pas payé.",
  ], { url: link, label: "Voir mon devis" });
}
