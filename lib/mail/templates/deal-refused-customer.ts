// 'deal-refused-customer': the partner (or an admin) refused the quote; the customer is told, with the
// reason when it is one customers may read.
import type { OutgoingEmail } from "../outbox.ts";
import { paragraphsEmail } from "./layout.ts";

export function dealRefusedCustomerEmail(
  to: string,
  firstname: string,
  dealName: string,
  reason: string | null,
  link: string,
): OutgoingEmail {
  return paragraphsEmail(to, "deal-refused-customer", "Votre devis ne peut pas être honoré", [
    `Bonjour ${firstname},`,
    `Nous sommes désolés : le devis « ${dealName} » ne peut pas être honoré${reason ? ` (${reason})` : ""}.`,
    "Notre équipe reste à votre disposition pour vous proposer une autre solution.",
  ], { url: link, label: "Voir mon devis" });
}
