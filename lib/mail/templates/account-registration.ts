// 'account-registration': the confirmation of a new customer account (lib/auth/actions.ts register).
import type { OutgoingEmail } from "../outbox.ts";
import { greeting, paragraphsEmail } from "./layout.ts";

export function registrationEmail(to: string, firstname: string, link: string): OutgoingEmail {
  return paragraphsEmail(to, "account-registration", "Bienvenue ! Votre compte est créé", [
    greeting(firstname),
    `Votre compte client est créé avec l'adresse ${to}.`,
    "Depuis votre espace, suivez vos demandes de devis, choisissez vos cocktails, réglez vos devis et retrouvez vos factures.",
    "Si vous n'êtes pas à l'origine de cette inscription, répondez à cet email : nous supprimerons le compte.",
  ], { url: link, label: "Accéder à mon espace" });
}
