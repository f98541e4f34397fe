// 'deal-quote-ready': the partner confirmed its availability, the quote is sent to the customer, who
// chooses cocktails and pays a deposit. `updated` gives 'deal-quote-updated' (kept for older callers).
import type { OutgoingEmail } from "../outbox.ts";
import { paragraphsEmail } from "./layout.ts";
import { quoteUpdatedEmail } from "./deal-quote-updated.ts";

export function quoteReadyEmail(
  to: string,
  firstname: string,
  dealName: string,
  link: string,
  updated = false,
): OutgoingEmail {
  if (updated) return quoteUpdatedEmail(to, firstname, dealName, link);
  return paragraphsEmail(to, "deal-quote-ready", "Votre devis est prêt", [
    `Bonjour ${firstname},`,
    `Votre devis « ${dealName} » est prêt : votre bartender a confirmé sa disponibilité.`,
    "Choisissez vos cocktails et réglez votre acompte en ligne pour réserver votre date.",
  ], { url: link, label: "Voir mon devis" });
}
