// Pure account rules: registration (spec 000 §5), profile (spec 001 §5), phone and email shapes.
// No database, no environment: unit-tested in rules_test.ts.
import { z } from "zod";

export const REQUIRED = "Ce champ est requis";
export const REGISTRATION_INVALID = "Veuillez renseigner tous les champs obligatoires";
export const PROFILE_INVALID = "Veuillez renseigner toutes les informations obligatoires";
export const PROFILE_SAVED = "Les données ont été sauvegardées.";
export const MAX_ADDITIONAL_EMAILS = 5;
export const ADULT_AGE = 18;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** 8+ characters, upper, lower, digit and one of # ? ! @ $ % ^ & * - */
const REGISTRATION_PASSWORD = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[#?!@$%^&*-]).{8,}$/;
export const PASSWORD_RULE_MESSAGE =
  "Le mot de passe doit contenir au moins 8 caractères, une majuscule, une minuscule, un chiffre et un caractère spécial.";
export const SIREN_MESSAGE = "Le SIREN doit contenir exactement 9 chiffres.";
export const VAT_MESSAGE = "Le numéro de TVA doit être au format européen (ex: FR12345678901).";
export const ADULT_MESSAGE = "Vous devez avoir plus de 18 ans";

export function isEmailShape(value: string): boolean {
  return EMAIL_SHAPE.test(value);
}

export function isStrongPassword(value: string): boolean {
  return REGISTRATION_PASSWORD.test(value);
}

/** Keeps digits and a leading +; "06 12.34-56 78" → "0612345678". */
export function normalizePhone(value: string): string {
  const trimmed = value.trim();
  return (trimmed.startsWith("+") ? "+" : "") + trimmed.replace(/\D/g, "");
}

export function isPhoneShape(value: string): boolean {
  return /^\+?\d{8,15}$/.test(normalizePhone(value));
}

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** Age in whole years on `today` of someone born on `birth` (both YYYY-MM-DD). */
export function ageOn(birth: string, today: string): number {
  const [by, bm, bd] = birth.split("-").map(Number);
  const [ty, tm, td] = today.split("-").map(Number);
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

/** A real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** Accepts YYYY-MM-DD or unix seconds (the user payload's form) and returns YYYY-MM-DD. */
export function toIsoDate(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) {
    return new Date(value * 1000).toISOString().slice(0, 10);
  }
  if (typeof value === "string" && isIsoDate(value.trim())) return value.trim();
  if (typeof value === "string" && /^\d+$/.test(value.trim())) return toIsoDate(Number(value));
  return null;
}

const checked = (v: unknown) => v === true || v === "true" || v === "on" || v === "1" || v === 1;
const text = (v: unknown) => (typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "");

/** Names, addresses and the like: long enough for any real value, bounded for storage. */
export const MAX_TEXT_LENGTH = 255;
export const TOO_LONG = "Ce champ est trop long (255 caractères au maximum).";
const requiredText = (message = REQUIRED) =>
  z.preprocess(text, z.string().min(1, message).max(MAX_TEXT_LENGTH, TOO_LONG));
const optionalText = z.preprocess(text, z.string().max(MAX_TEXT_LENGTH, TOO_LONG));
const consent = (message: string) => z.preprocess(checked, z.literal(true, { error: message }));

function birthdateField(today: string, required: string) {
  return z.preprocess(
    (v) => toIsoDate(v) ?? (v === "" || v == null ? "" : "invalid"),
    z.string().min(1, required)
      .refine((d) => d === "" || isIsoDate(d), "La date de naissance est invalide.")
      .refine((d) => !isIsoDate(d) || d >= "1900-01-01", "La date de naissance est invalide.")
      .refine((d) => !isIsoDate(d) || ageOn(d, today) >= ADULT_AGE, ADULT_MESSAGE),
  );
}

export function registrationSchema(today: string) {
  return z.object({
    professional: z.preprocess(checked, z.boolean()),
    name: optionalText,
    siren: z.preprocess((v) => text(v).replace(/\s/g, ""), z.string()),
    firstname: requiredText(),
    lastname: requiredText(),
    birthdate: birthdateField(today, REQUIRED),
    address: requiredText(),
    zipcode: requiredText(),
    city: requiredText(),
    phone: z.preprocess(
      text,
      z.string().min(1, "Votre téléphone est requis.").refine(isPhoneShape, "Le téléphone doit être valide."),
    ),
    email: z.preprocess(
      (v) => normalizeEmail(text(v)),
      z.string().min(1, "Votre email est requis.").max(254, "L'email doit être valide.")
        .refine(isEmailShape, "L'email doit être valide."),
    ),
    password: z.preprocess(
      (v) => (typeof v === "string" ? v : ""),
      z.string().min(1, "Votre mot de passe est requis.").refine(isStrongPassword, PASSWORD_RULE_MESSAGE),
    ),
    passwordConfirmation: z.preprocess((v) => (typeof v === "string" ? v : undefined), z.string().optional()),
    terms: consent("Vous devez accepter les conditions générales"),
    privacy: consent("Vous devez accepter la politique de confidentialité"),
    age: consent("Vous devez avoir plus de 18 ans"),
    optin: consent("Vous devez accepter d'être contacté dans le cadre de l'organisation de votre événement"),
    token: z.preprocess((v) => (typeof v === "string" ? v : undefined), z.string().max(200).optional()),
  }).superRefine((raw, ctx) => {
    // Runs even when single fields failed (`when`), so fields may still hold unparsed input.
    const data = {
      professional: raw.professional === true,
      name: typeof raw.name === "string" ? raw.name : "",
      siren: typeof raw.siren === "string" ? raw.siren : "",
      password: typeof raw.password === "string" ? raw.password : "",
      passwordConfirmation: typeof raw.passwordConfirmation === "string"
        ? raw.passwordConfirmation
        : undefined,
    };
    // The payload has no explicit flag in the spec: company fields sent mean a professional.
    const professional = data.professional || data.name !== "" || data.siren !== "";
    if (professional && data.name === "") ctx.addIssue({ code: "custom", path: ["name"], message: REQUIRED });
    if (professional && data.siren === "") {
      ctx.addIssue({ code: "custom", path: ["siren"], message: REQUIRED });
    } else if (professional && !/^\d{9}$/.test(data.siren)) {
      ctx.addIssue({ code: "custom", path: ["siren"], message: SIREN_MESSAGE });
    }
    if (data.passwordConfirmation !== undefined) {
      if (data.passwordConfirmation === "") {
        ctx.addIssue({
          code: "custom",
          path: ["passwordConfirmation"],
          message: "Votre confirmation de mot de passe est requise.",
        });
      } else if (data.passwordConfirmation !== data.password) {
        ctx.addIssue({
          code: "custom",
          path: ["passwordConfirmation"],
          message: "Les mots de passe doivent être identiques.",
        });
      }
    }
  }, { when: () => true });
}

export type Registration = z.output<ReturnType<typeof registrationSchema>>;

export type UserType = "Admin" | "Company" | "Customer";

export function profileSchema(type: UserType, today: string) {
  return z.object({
    firstname: requiredText("Votre prénom est requis."),
    lastname: requiredText("Votre nom est requis."),
    address1: requiredText("Votre adresse est requise."),
    address2: optionalText,
    zipcode: requiredText("Votre code postal est requis."),
    city: requiredText("Votre ville est requise."),
    phone: z.preprocess(
      text,
      z.string().min(1, "Votre numéro de téléphone est requis.").refine(
        isPhoneShape,
        "Le téléphone doit être valide.",
      ),
    ),
    birthdate: birthdateField(today, "La date de naissance est requise."),
    name: optionalText,
    siren: z.preprocess((v) => text(v).replace(/\s/g, ""), z.string()),
    vatNumber: z.preprocess((v) => text(v).replace(/\s/g, "").toUpperCase(), z.string()),
    vatExemption: z.preprocess(checked, z.boolean()),
    emails: z.preprocess(
      (v) => (Array.isArray(v) ? v.map((e) => normalizeEmail(text(e))) : v == null ? [] : v),
      z.array(z.string().refine(isEmailShape, "Le mail doit être valide."), {
        error: "Le mail doit être valide.",
      })
        .max(MAX_ADDITIONAL_EMAILS, "Vous avez atteint le maximum de 5 emails supplémentaires.")
        .refine((list) => new Set(list).size === list.length, "Cet email est déjà dans la liste."),
    ),
    password: z.preprocess((v) => (typeof v === "string" ? v : ""), z.string()),
    passwordConfirmation: z.preprocess((v) => (typeof v === "string" ? v : ""), z.string()),
  }).superRefine((raw, ctx) => {
    const str = (v: unknown) => (typeof v === "string" ? v : "");
    const data = {
      siren: str(raw.siren),
      vatNumber: str(raw.vatNumber),
      password: str(raw.password),
      passwordConfirmation: str(raw.passwordConfirmation),
    };
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (type === "Company") {
      if (!/^\d{9}$/.test(data.siren)) issue("siren", SIREN_MESSAGE);
      if (data.vatNumber !== "" && !/^[A-Z]{2}[A-Z0-9]{2,12}$/.test(data.vatNumber)) {
        issue("vatNumber", VAT_MESSAGE);
      }
    } else if (data.siren !== "" && !/^\d{9}$/.test(data.siren)) {
      // The spec applies the 9-digit rule to companies; a customer's SIREN, when given, must still
      // be a real SIREN.
      issue("siren", SIREN_MESSAGE);
    }
    if (data.password !== "") {
      if (data.passwordConfirmation === "") {
        issue("passwordConfirmation", "Votre confirmation de mot de passe est requise.");
      }
      if (data.password.length < 12) {
        issue("password", "Le mot de passe doit contenir au moins 12 caractères.");
      } else if (data.passwordConfirmation !== "" && data.password !== data.passwordConfirmation) {
        issue("passwordConfirmation", "Les mots de passe doivent être identiques.");
      }
    }
  }, { when: () => true }).transform((data) => ({
    ...data,
    // Company details only belong to the types that have them.
    name: type === "Admin" ? "" : data.name,
    siren: type === "Admin" ? "" : data.siren,
    vatNumber: type === "Company" ? data.vatNumber : "",
    vatExemption: type === "Company" ? data.vatExemption : false,
  }));
}

export type ProfileUpdate = z.output<ReturnType<typeof profileSchema>>;

/** Password reset: the registration rule, and both entries identical. */
export const passwordResetSchema = z.object({
  password: z.preprocess(
    (v) => (typeof v === "string" ? v : ""),
    z.string().min(1, "Votre mot de passe est requis.").refine(isStrongPassword, PASSWORD_RULE_MESSAGE),
  ),
  passwordConfirmation: z.preprocess(
    (v) => (typeof v === "string" ? v : ""),
    z.string().min(1, "Votre confirmation de mot de passe est requise."),
  ),
}).refine((d) => d.password === d.passwordConfirmation, {
  path: ["passwordConfirmation"],
  message: "Les mots de passe doivent être identiques.",
});

/** Years offered by the birth-year select: 82 years ending 18 years before the current year. */
export function birthYearChoices(currentYear: number): number[] {
  const last = currentYear - ADULT_AGE;
  return Array.from({ length: 82 }, (_, i) => last - i);
}

export const FRENCH_MONTHS = [
  "janvier",
  "février",
  "mars",
  "avril",
  "mai",
  "juin",
  "juillet",
  "août",
  "septembre",
  "octobre",
  "novembre",
  "décembre",
];
