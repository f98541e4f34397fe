// Pure rules of partner applications ('Devenir partenaire'): what a bartending company sends to apply,
// and the French messages.
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
