// Zod's messages in French, configured once for the whole process (issue "Invoices…" §3: every
// validation message the API returns is French). Zod 4 ships a French locale (`z.locales.fr()`): it is
// the base; the messages a user of the API most often meets are reworded here in the product's
// voice ('Le mail doit être valide.' is spec 001 §5's wording), and anything else falls back to the
// locale. A schema's own message (`{ error: "…" }`, refinements) always wins over both.
// Imported for its effect by lib/validation.ts, which every API parse goes through.
import { z } from "zod";

const TYPE_NAMES: Record<string, string> = {
  string: "un texte",
  number: "un nombre",
  int: "un nombre entier",
  boolean: "une valeur vrai/faux",
  array: "une liste",
  object: "un objet",
  date: "une date",
};

const FORMAT_MESSAGES: Record<string, string> = {
  email: "Le mail doit être valide.",
  url: "L'adresse web doit être valide.",
  uuid: "L'identifiant doit être valide.",
  date: "La date doit être au format AAAA-MM-JJ.",
  datetime: "La date et l'heure doivent être au format ISO (AAAA-MM-JJTHH:MM).",
  time: "L'heure doit être au format HH:MM.",
};

const plural = (n: number | bigint, word: string) => `${n} ${word}${Number(n) > 1 ? "s" : ""}`;

/** The product's French message for an issue, or undefined to let the French locale answer. */
export function frenchIssueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return "Ce champ est requis.";
      const expected = TYPE_NAMES[issue.expected as string];
      return expected ? `Valeur invalide : ${expected} est attendu.` : undefined;
    }
    case "too_small": {
      const min = issue.minimum;
      if (issue.origin === "string") {
        return Number(min) <= 1
          ? "Ce champ est requis."
          : `Ce champ doit contenir au moins ${plural(min, "caractère")}.`;
      }
      if (issue.origin === "array" || issue.origin === "set") {
        return `La liste doit contenir au moins ${plural(min, "élément")}.`;
      }
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint") {
        return issue.inclusive
          ? `La valeur doit être supérieure ou égale à ${min}.`
          : `La valeur doit être supérieure à ${min}.`;
      }
      if (issue.origin === "date") return "La date est trop ancienne.";
      return undefined;
    }
    case "too_big": {
      const max = issue.maximum;
      if (issue.origin === "string") return `Ce champ doit contenir au plus ${plural(max, "caractère")}.`;
      if (issue.origin === "array" || issue.origin === "set") {
        return `La liste doit contenir au plus ${plural(max, "élément")}.`;
      }
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint") {
        return issue.inclusive
          ? `La valeur doit être inférieure ou égale à ${max}.`
          : `La valeur doit être inférieure à ${max}.`;
      }
      if (issue.origin === "date") return "La date est trop lointaine.";
      return undefined;
    }
    case "invalid_format":
      if (issue.format === "regex") return "Le format de ce champ est invalide.";
      return FORMAT_MESSAGES[issue.format];
    case "invalid_value":
      return issue.values.length === 1
        ? `Valeur invalide : ${JSON.stringify(issue.values[0])} est attendu.`
        : `Valeur invalide : choisissez parmi ${issue.values.map((v) => JSON.stringify(v)).join(", ")}.`;
    case "not_multiple_of":
      return `La valeur doit être un multiple de ${issue.divisor}.`;
    case "unrecognized_keys":
      return issue.keys.length > 1
        ? `Champs non reconnus : ${issue.keys.join(", ")}.`
        : `Champ non reconnu : ${issue.keys[0]}.`;
    case "invalid_union":
      return "Valeur invalide.";
    default:
      return undefined;
  }
}

z.config(z.locales.fr());
z.config({ customError: (issue) => frenchIssueMessage(issue) });
