// 'deal-partner-removed': an admin gave the deal to another partner (issue "Invoices…" §3). Names the
// deal only; no link to it (the previous partner can no longer open it), its list of quotes instead.
import type { OutgoingEmail } from "../outbox.ts";
import { paragraphsEmail } from "./layout.ts";

export function partnerRemovedEmail(
  to: string,
  deal: { id: number; name: string },
  listLink: string,
): OutgoingEmail {
  return paragraphsEmail(
    to,
    "deal-partner-removed",
    `Le devis #${deal.id} a été confié à un autre partenaire`,
    [
      "Bonjour,",
      `La demande de devis #${deal.id} « ${deal.name} » a été confiée à un autre partenaire : elle n'apparaît plus dans vos devis et vous n'avez plus rien à faire à son sujet.`,
      "Merci pour le temps que vous y avez consacré.",
    ],
    { url: listLink, label: "Voir mes devis" },
  );
}
