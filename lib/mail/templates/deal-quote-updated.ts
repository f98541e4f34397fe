// 'deal-quote-updated': the partner revalidated a modified quote; the customer looks again, chooses
// cocktails and pays the deposit.
import type { OutgoingEmail } from "../outbox.ts";
import { paragraphsEmail } from "./layout.ts";

export function quoteUpdatedEmail(
  to: string,
  firstname: string,
  dealName: string,
  link: string,
): OutgoingEmail {
  return paragraphsEmail(to, "deal-quote-updated", "Votre devis a été mis à jour", [
    `Bonjour ${firstname},`,
    `Votre devis « ${dealName} » a été mis à jour par votre bartender.`,
    "Choisissez vos cocktails et réglez votre acompte en ligne pour réserver votre date.",
  ], { url: link, label: "Voir mon devis" });
}
