// 'deal-request-received': the public quote request was received (lib/deals/use_cases/request_quote.ts).
// Anyone may submit the form with any address: this first email carries no text the visitor typed (a
// neutral greeting, the platform's own estimate and link), so that the platform's sender cannot be made
// to greet a stranger with a chosen text (issue "Production, part 2" §5).
import type { OutgoingEmail } from "../outbox.ts";
import { formatEuros } from "../../money.ts";
import { paragraphsEmail } from "./layout.ts";

export function requestReceivedEmail(
  to: string,
  estimateTTC: number,
  link: string,
): OutgoingEmail {
  return paragraphsEmail(to, "deal-request-received", "Votre demande de devis est bien reçue", [
    "Bonjour,",
    `Merci pour votre demande. Notre estimation pour votre événement : ${formatEuros(estimateTTC)} TTC.`,
    "Un bartender partenaire va vérifier sa disponibilité et préparer votre devis. Vous recevrez un email dès qu'il sera prêt.",
  ], { url: link, label: "Suivre ma demande" });
}
