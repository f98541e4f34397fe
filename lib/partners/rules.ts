// Pure rules of partners: applications ('Devenir partenaire', what a bartending company sends to apply)
// and the seller's VAT number a quote needs before it is sent; the French messages.
import { z } from "zod";
import {
  EMAIL_INVALID,
  isEmailShape,
  isPhoneShape,
  MAX_TEXT_LENGTH,
  normalizeEmail,
  normalizePhone,
  PHONE_INVALID,
  REQUIRED,
  SIREN_MESSAGE,
  TOO_LONG,
  vatNumberError,
} from "../accounts/rules.ts";

export const APPLICATION_INVALID = "Veuillez renseigner tous les champs obligatoires";
export const APPLICATION_SENT =
  "Merci ! Votre candidature a bien été envoyée. Notre équipe vous répondra rapidement.";
export const MAX_MESSAGE_LENGTH = 2000;
const MESSAGE_TOO_LONG = "Votre message est trop long (2000 caractères au maximum).";
export const TOO_MANY_APPLICATIONS = "Trop de candidatures envoyées. Veuillez réessayer plus tard.";
export const APPLICATION_ALREADY_DECIDED = "Cette candidature a déjà été traitée.";
export const APPLICATION_EMAIL_TAKEN =
  "Un compte existe déjà avec cet email : la candidature ne peut pas devenir un compte partenaire.";
export const APPLICATION_PHONE_TAKEN =
  "Un compte existe déjà avec ce téléphone : la candidature ne peut pas devenir un compte partenaire.";

/** How long the link of the invitation email lets the new partner choose a password. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export type ApplicationStatus = "pending" | "accepted" | "rejected";
export const APPLICATION_STATUS_LABELS: Record<ApplicationStatus, string> = {
  pending: "En attente",
  accepted: "Acceptée",
  rejected: "Refusée",
};

const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
const required = (message = REQUIRED) =>
  z.unknown().optional().transform(text).pipe(z.string().min(1, message).max(MAX_TEXT_LENGTH, TOO_LONG));

export function applicationSchema() {
  return z.object({
    companyName: required(),
    siren: z.unknown().optional().transform((v) => text(v).replace(/\s/g, "")).pipe(
      z.string().min(1, REQUIRED).regex(/^\d{9}$/, SIREN_MESSAGE),
    ),
    firstname: required(),
    lastname: required(),
    email: z.unknown().optional().transform((v) => normalizeEmail(text(v))).pipe(
      z.string().min(1, "Votre email est requis.").refine(isEmailShape, EMAIL_INVALID),
    ),
    // Stored in its international form, like every phone number (the table refuses anything else).
    phone: z.unknown().optional().transform(text).pipe(
      z.string().min(1, "Votre téléphone est requis.").refine(isPhoneShape, PHONE_INVALID)
        .transform((p) => normalizePhone(p)!),
    ),
    city: required(),
    message: z.unknown().optional().transform(text).pipe(
      z.string().max(MAX_MESSAGE_LENGTH, MESSAGE_TOO_LONG),
    ),
  });
}

export type Application = z.output<ReturnType<typeof applicationSchema>>;

// ---------------------------------------------------------------------------------------------------
// The seller's VAT number. Invoices are issued in the partner's name: a partner that charges VAT prints
// its VAT number on each (CGI ann. II art. 242 nonies A; EN 16931 BT-31), so a quote whose invoices would
// lack it is not sent to the customer. A partner exempt from VAT (franchise en base, the profile's
// 'Exonération de TVA') prints 'TVA non applicable, art. 293 B du CGI' instead.

export const SELLER_VAT_MESSAGES = {
  missing:
    "Renseignez votre numéro de TVA intracommunautaire dans votre profil avant d'envoyer un devis : il figure sur les factures émises à votre nom. Si vous n'êtes pas assujetti à la TVA, cochez « Exonération de TVA ».",
  invalid:
    "Votre numéro de TVA intracommunautaire n'est pas valide : corrigez-le dans votre profil avant d'envoyer un devis.",
  missingForAdmin:
    "Le partenaire doit renseigner son numéro de TVA intracommunautaire dans son profil avant l'envoi du devis (ou cocher « Exonération de TVA » s'il n'est pas assujetti).",
  invalidForAdmin:
    "Le numéro de TVA intracommunautaire du partenaire n'est pas valide : il doit le corriger dans son profil avant l'envoi du devis.",
} as const;

export interface SellerTaxIdentity {
  vatExemption: boolean;
  vatNumber: string | null;
  siren: string | null;
}

/** Why a quote of this partner may not be sent yet, or null: a partner that charges VAT (not exempt, or
 * the deal priced with VAT) needs a valid VAT number (accounts/rules.ts vatNumberError, its SIREN's).
 * `viewer` is who tries to send it: the partner, or an admin validating on its behalf. */
export function sellerVatError(
  seller: SellerTaxIdentity,
  dealVatRate: number,
  viewer: "Company" | "Admin",
): string | null {
  const chargesVat = !seller.vatExemption || dealVatRate > 0;
  if (!chargesVat) return null;
  const admin = viewer === "Admin";
  if (!seller.vatNumber) return admin ? SELLER_VAT_MESSAGES.missingForAdmin : SELLER_VAT_MESSAGES.missing;
  if (vatNumberError(seller.vatNumber, seller.siren ?? "")) {
    return admin ? SELLER_VAT_MESSAGES.invalidForAdmin : SELLER_VAT_MESSAGES.invalid;
  }
  return null;
}
