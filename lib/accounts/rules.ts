// Pure account rules: registration (spec 000 §5), profile (spec 001 §5), phone and email shapes, and
// every French message of the accounts capability. No database, no environment: unit-tested in
// rules_test.ts. The islands (AuthForm, ProfileForm) import the same validators and messages, so that
// each rule is written once: `registrationErrors` and `profileErrors` are plain functions the browser
// runs before sending, and the zod schemas below only coerce the input and then call them. The schemas
// are built by functions, and the full phone check (libphonenumber) is used only by them, so an island
// bundles neither zod nor the phone metadata.
import { z } from "zod";
import { isPhoneShape, normalizePhone } from "./phone.ts";
import { isStrictEmail } from "../validation.ts";

export { isPhoneShape, normalizePhone };

export type UserType = "Admin" | "Company" | "Customer";

export const REQUIRED = "Ce champ est requis";
export const REGISTRATION_INVALID = "Veuillez renseigner tous les champs obligatoires";
export const PROFILE_INVALID = "Veuillez renseigner toutes les informations obligatoires";
export const PROFILE_SAVED = "Les données ont été sauvegardées.";
const MAX_ADDITIONAL_EMAILS = 5;
const ADULT_AGE = 18;
/** A deletion request becomes final after this many days; logging in cancels it. */
export const DELETION_GRACE_DAYS = 14;

export const PASSWORD_RULE_MESSAGE =
  "Le mot de passe doit contenir au moins 8 caractères, une majuscule, une minuscule, un chiffre et un caractère spécial.";
export const SIREN_MESSAGE = "Le SIREN doit contenir exactement 9 chiffres.";
/** Spec 001 §5: the 9-digit rule is the partners'; a customer's SIREN field only has a 9-character
 * maximum. */
export const SIREN_MAX_MESSAGE = "Le SIREN ne doit pas dépasser 9 caractères.";
export const SIREN_MAX_LENGTH = 9;
export const VAT_MESSAGE = "Le numéro de TVA doit être au format européen (ex: FR12345678901).";
export const VAT_KEY_MESSAGE =
  "Ce numéro de TVA n'existe pas : sa clé (les 2 caractères après FR) ne correspond pas au SIREN qui le suit.";
export const VAT_SIREN_MESSAGE =
  "Le numéro de TVA doit contenir votre SIREN : FR, la clé, puis les 9 chiffres du SIREN.";
const ADULT_MESSAGE = "Vous devez avoir plus de 18 ans";
export const EMAIL_TAKEN = "Cet email existe déjà chez nous.";
export const PHONE_TAKEN = "Ce téléphone existe déjà chez nous.";
export const PHONE_INVALID = "Le téléphone doit être valide.";
export const EMAIL_INVALID = "L'email doit être valide.";
export const BAD_CREDENTIALS = "Email ou mot de passe incorrect";
const CONFIRMATION_REQUIRED = "Votre confirmation de mot de passe est requise.";
const PASSWORDS_DIFFER = "Les mots de passe doivent être identiques.";
const BIRTHDATE_INVALID = "La date de naissance est invalide.";
const PROFILE_PASSWORD_MIN = 12;
const PROFILE_PASSWORD_MESSAGE = "Le mot de passe doit contenir au moins 12 caractères.";
const ADDITIONAL_EMAILS_LIMIT_MESSAGE = "Vous avez atteint le maximum de 5 emails supplémentaires.";
const ADDITIONAL_EMAIL_INVALID = "Le mail doit être valide.";
const ADDITIONAL_EMAIL_DUPLICATE = "Cet email est déjà dans la liste.";
const CONSENT_MESSAGES = {
  terms: "Vous devez accepter les conditions générales",
  privacy: "Vous devez accepter la politique de confidentialité",
  age: "Vous devez avoir plus de 18 ans",
  optin: "Vous devez accepter d'être contacté dans le cadre de l'organisation de votre événement",
} as const;
const PROFILE_REQUIRED = {
  firstname: "Votre prénom est requis.",
  lastname: "Votre nom est requis.",
  address1: "Votre adresse est requise.",
  zipcode: "Votre code postal est requis.",
  city: "Votre ville est requise.",
  phone: "Votre numéro de téléphone est requis.",
  birthdate: "La date de naissance est requise.",
} as const;
export const BIRTH_PART_REQUIRED = {
  day: "Le jour est requis.",
  month: "Le mois est requis.",
  year: "L'année est requise.",
} as const;

/** Names, addresses and the like: long enough for any real value, bounded for storage. */
export const MAX_TEXT_LENGTH = 255;
export const TOO_LONG = "Ce champ est trop long (255 caractères au maximum).";

/** 8+ characters, upper, lower, digit and one of # ? ! @ $ % ^ & * - */
const REGISTRATION_PASSWORD = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[#?!@$%^&*-]).{8,}$/;

/** An address with nothing around it (lib/validation.ts isStrictEmail: `a@b.fr>,<c` is refused). */
export function isEmailShape(value: string): boolean {
  return isStrictEmail(value);
}

export function isStrongPassword(value: string): boolean {
  return REGISTRATION_PASSWORD.test(value);
}

/** The browser's quick check: 8 to 15 digits, optionally international. The server then checks the
 * number for real (`isPhoneShape`, which needs 30 kB of phone metadata). */
export function isPhoneLike(value: string): boolean {
  return /^(\+|00)?\d{8,15}$/.test(value.replace(/[\s.\-()]/g, ""));
}

/** A stored (E.164) number as people write it: French numbers as "06 00 00 00 05", others as stored. */
export function displayPhone(e164: string | null): string {
  if (!e164) return "";
  const french = /^\+33([1-9])(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(e164);
  return french ? `0${french.slice(1).join(" ")}` : e164;
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

const VAT_SHAPE = /^[A-Z]{2}[A-Z0-9]{2,12}$/;

/** The key of a French VAT number (numéro de TVA intracommunautaire) for a SIREN: (12 + 3 × (SIREN mod
 * 97)) mod 97, on two digits. */
export function frenchVatKey(siren: string): string {
  return String((12 + 3 * (Number(siren) % 97)) % 97).padStart(2, "0");
}

/** The French VAT number of a SIREN: "FR" + key + SIREN. */
export function frenchVatNumber(siren: string): string {
  return `FR${frenchVatKey(siren)}${siren}`;
}

/** A VAT number's first problem, or null: the European shape of spec 001 §5 (two letters, then 2 to 12
 * capitals or digits); a French one is FR + a 2-character key + the 9-digit SIREN, its numeric key must
 * be the SIREN's, and its SIREN the `siren` given with it (when there is one). Written without spaces,
 * in capitals (the schemas normalise it). */
export function vatNumberError(vatNumber: string, siren = ""): string | null {
  if (!VAT_SHAPE.test(vatNumber)) return VAT_MESSAGE;
  if (!vatNumber.startsWith("FR")) return null;
  if (!/^FR[0-9A-Z]{2}\d{9}$/.test(vatNumber)) return VAT_MESSAGE;
  const key = vatNumber.slice(2, 4);
  const own = vatNumber.slice(4);
  // Numeric keys are computed; the few older alphanumeric keys are not checkable this way.
  if (/^\d{2}$/.test(key) && key !== frenchVatKey(own)) return VAT_KEY_MESSAGE;
  if (/^\d{9}$/.test(siren) && own !== siren) return VAT_SIREN_MESSAGE;
  return null;
}

/** Unix seconds between 1900 and 2200: anything else is not a birth date (and 1e20 is no date at all). */
const MIN_UNIX = -2208988800;
const MAX_UNIX = 7258118400;

/** Accepts YYYY-MM-DD or unix seconds (the user payload's form) and returns YYYY-MM-DD. */
export function toIsoDate(value: unknown): string | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value < MIN_UNIX || value > MAX_UNIX) return null;
    return new Date(value * 1000).toISOString().slice(0, 10);
  }
  if (typeof value === "string" && isIsoDate(value.trim())) return value.trim();
  if (typeof value === "string" && /^-?\d{1,12}$/.test(value.trim())) return toIsoDate(Number(value));
  return null;
}

type Errors = Record<string, string>;

function birthdateError(birthdate: string, today: string, required: string): string | null {
  if (birthdate === "") return required;
  if (!isIsoDate(birthdate) || birthdate < "1900-01-01") return BIRTHDATE_INVALID;
  if (ageOn(birthdate, today) < ADULT_AGE) return ADULT_MESSAGE;
  return null;
}

function textErrors(
  input: Record<string, unknown>,
  required: Record<string, string>,
  optional: string[],
): Errors {
  const errors: Errors = {};
  for (const [field, message] of Object.entries(required)) {
    const value = String(input[field] ?? "");
    if (value === "") errors[field] = message;
    else if (value.length > MAX_TEXT_LENGTH) errors[field] = TOO_LONG;
  }
  for (const field of optional) {
    if (String(input[field] ?? "").length > MAX_TEXT_LENGTH) errors[field] = TOO_LONG;
  }
  return errors;
}

/** Spec 000 §5: the confirmation is required, follows the password rule, and equals the password.
 * (An API client that sends no confirmation at all is not asked for one.) */
function registrationConfirmationError(
  password: string,
  confirmation: string | undefined,
): string | null {
  if (confirmation === undefined) return null;
  if (confirmation === "") return CONFIRMATION_REQUIRED;
  if (!isStrongPassword(confirmation)) return PASSWORD_RULE_MESSAGE;
  if (confirmation !== password) return PASSWORDS_DIFFER;
  return null;
}

/** Spec 001 §5: the profile password is optional; when given, 12 characters and confirmed. */
function profilePasswordErrors(password: string, confirmation: string): Errors {
  const errors: Errors = {};
  if (password === "") return errors;
  if (confirmation === "") errors.passwordConfirmation = CONFIRMATION_REQUIRED;
  if (password.length < PROFILE_PASSWORD_MIN) errors.password = PROFILE_PASSWORD_MESSAGE;
  else if (confirmation !== "" && password !== confirmation) errors.passwordConfirmation = PASSWORDS_DIFFER;
  return errors;
}

/** The additional-emails list: shape, no duplicates, at most 5. Returns the first problem. */
export function additionalEmailError(list: string[], candidate: string): string | null {
  if (list.length >= MAX_ADDITIONAL_EMAILS) return ADDITIONAL_EMAILS_LIMIT_MESSAGE;
  if (!isEmailShape(candidate)) return ADDITIONAL_EMAIL_INVALID;
  if (list.includes(candidate)) return ADDITIONAL_EMAIL_DUPLICATE;
  return null;
}

export interface RegistrationInput {
  professional: boolean;
  name: string;
  siren: string;
  firstname: string;
  lastname: string;
  /** YYYY-MM-DD, "" when empty, anything else when unreadable. */
  birthdate: string;
  address: string;
  zipcode: string;
  city: string;
  phone: string;
  email: string;
  password: string;
  passwordConfirmation?: string;
  terms: boolean;
  privacy: boolean;
  age: boolean;
  optin: boolean;
}

/** Every field's first problem (spec 000 §5), for the browser and the server alike. */
export function registrationErrors(
  input: RegistrationInput,
  today: string,
  isPhone: (value: string) => boolean = isPhoneLike,
): Errors {
  // The payload has no explicit flag in the spec: company fields sent mean a professional.
  const professional = input.professional || input.name !== "" || input.siren !== "";
  const errors: Errors = textErrors(
    input as unknown as Record<string, unknown>,
    { firstname: REQUIRED, lastname: REQUIRED, address: REQUIRED, zipcode: REQUIRED, city: REQUIRED },
    ["name"],
  );
  if (professional && input.name === "") errors.name = REQUIRED;
  if (professional && input.siren === "") errors.siren = REQUIRED;
  else if (professional && !/^\d{9}$/.test(input.siren)) errors.siren = SIREN_MESSAGE;
  const birth = birthdateError(input.birthdate, today, REQUIRED);
  if (birth) errors.birthdate = birth;
  if (input.phone === "") errors.phone = "Votre téléphone est requis.";
  else if (!isPhone(input.phone)) errors.phone = PHONE_INVALID;
  if (input.email === "") errors.email = "Votre email est requis.";
  else if (!isEmailShape(input.email)) errors.email = EMAIL_INVALID;
  if (input.password === "") errors.password = "Votre mot de passe est requis.";
  else if (!isStrongPassword(input.password)) errors.password = PASSWORD_RULE_MESSAGE;
  const confirmation = registrationConfirmationError(input.password, input.passwordConfirmation);
  if (confirmation) errors.passwordConfirmation = confirmation;
  for (const consent of ["terms", "privacy", "age", "optin"] as const) {
    if (!input[consent]) errors[consent] = CONSENT_MESSAGES[consent];
  }
  return errors;
}

export interface ProfileInput {
  firstname: string;
  lastname: string;
  address1: string;
  address2: string;
  zipcode: string;
  city: string;
  phone: string;
  /** YYYY-MM-DD, "" when empty, anything else when unreadable. */
  birthdate: string;
  name: string;
  siren: string;
  vatNumber: string;
  vatExemption: boolean;
  emails: string[];
  password: string;
  passwordConfirmation: string;
}

/** Whether the profile has a VAT number: partners always, customers only as professionals (a company
 * name or a SIREN given), never admins. A private customer's VAT number is dropped on save. */
export function hasVatNumberField(type: UserType, input: { name: string; siren: string }): boolean {
  if (type === "Company") return true;
  return type === "Customer" && (input.name.trim() !== "" || input.siren.trim() !== "");
}

/** Every field's first problem (spec 001 §5), for the browser and the server alike. */
export function profileErrors(
  input: ProfileInput,
  type: UserType,
  today: string,
  isPhone: (value: string) => boolean = isPhoneLike,
): Errors {
  const { phone: _phone, birthdate: _birth, ...requiredText } = PROFILE_REQUIRED;
  const errors = textErrors(input as unknown as Record<string, unknown>, requiredText, ["address2", "name"]);
  if (input.phone === "") errors.phone = PROFILE_REQUIRED.phone;
  else if (!isPhone(input.phone)) errors.phone = PHONE_INVALID;
  const birth = birthdateError(input.birthdate, today, PROFILE_REQUIRED.birthdate);
  if (birth) errors.birthdate = birth;
  if (type === "Company") {
    if (!/^\d{9}$/.test(input.siren)) errors.siren = SIREN_MESSAGE;
  } else if (input.siren.length > SIREN_MAX_LENGTH) {
    // Spec 001 §5: the 9-digit rule applies to companies only; customers get a 9-character maximum.
    errors.siren = SIREN_MAX_MESSAGE;
  }
  // Optional for partners and professional customers (printed on their invoices, BT-48).
  if (hasVatNumberField(type, input) && input.vatNumber !== "") {
    const vat = vatNumberError(input.vatNumber, input.siren);
    if (vat) errors.vatNumber = vat;
  }
  if (input.emails.length > MAX_ADDITIONAL_EMAILS) errors.emails = ADDITIONAL_EMAILS_LIMIT_MESSAGE;
  else if (input.emails.some((e) => !isEmailShape(e))) errors.emails = ADDITIONAL_EMAIL_INVALID;
  else if (new Set(input.emails).size !== input.emails.length) errors.emails = ADDITIONAL_EMAIL_DUPLICATE;
  Object.assign(errors, profilePasswordErrors(input.password, input.passwordConfirmation));
  return errors;
}

// ---------------------------------------------------------------------------------------------------
// Server-side schemas: coerce whatever arrived into the validators' input, then run them with the
// full phone check.

const checked = (v: unknown) => v === true || v === "true" || v === "on" || v === "1" || v === 1;
const text = (v: unknown) => (typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "");
const rawText = (v: unknown) => (typeof v === "string" ? v : "");
const birthText = (v: unknown) => toIsoDate(v) ?? (v === "" || v == null ? "" : "invalid");
const noSpaces = (v: unknown) => text(v).replace(/\s/g, "");

/** A field read from any input (missing, wrong type…) into the value the validators expect. */
const coerced = <T>(fn: (v: unknown) => T) => z.unknown().optional().transform(fn);

function addIssues(ctx: z.RefinementCtx, errors: Errors) {
  for (const [path, message] of Object.entries(errors)) {
    ctx.addIssue({ code: "custom", path: [path], message });
  }
}

export function registrationSchema(today: string) {
  return z.object({
    professional: coerced(checked),
    name: coerced(text),
    siren: coerced(noSpaces),
    firstname: coerced(text),
    lastname: coerced(text),
    birthdate: coerced(birthText),
    address: coerced(text),
    zipcode: coerced(text),
    city: coerced(text),
    phone: coerced(text),
    email: coerced((v) => normalizeEmail(text(v))),
    password: coerced(rawText),
    passwordConfirmation: coerced((v) => (typeof v === "string" ? v : undefined)),
    terms: coerced(checked),
    privacy: coerced(checked),
    age: coerced(checked),
    optin: coerced(checked),
  }).superRefine((input, ctx) => addIssues(ctx, registrationErrors(input, today, isPhoneShape)));
}

export type Registration = z.output<ReturnType<typeof registrationSchema>>;

export function profileSchema(type: UserType, today: string) {
  return z.object({
    firstname: coerced(text),
    lastname: coerced(text),
    address1: coerced(text),
    address2: coerced(text),
    zipcode: coerced(text),
    city: coerced(text),
    phone: coerced(text),
    birthdate: coerced(birthText),
    name: coerced(text),
    siren: coerced(noSpaces),
    vatNumber: coerced((v) => noSpaces(v).toUpperCase()),
    vatExemption: coerced(checked),
    emails: coerced((v) => Array.isArray(v) ? v.map((e) => normalizeEmail(text(e))) : v == null ? [] : [""]),
    password: coerced(rawText),
    passwordConfirmation: coerced(rawText),
  }).superRefine((input, ctx) => addIssues(ctx, profileErrors(input, type, today, isPhoneShape)))
    .transform((data) => ({
      ...data,
      // Company details only belong to the types that have them.
      name: type === "Admin" ? "" : data.name,
      siren: type === "Admin" ? "" : data.siren,
      vatNumber: hasVatNumberField(type, data) ? data.vatNumber : "",
      vatExemption: type === "Company" ? data.vatExemption : false,
    }));
}

/** Password reset: the registration rule, and both entries identical. */
export function passwordResetSchema() {
  return z.object({
    password: coerced(rawText),
    passwordConfirmation: coerced(rawText),
  }).superRefine((input, ctx) => {
    const errors: Errors = {};
    if (input.password === "") errors.password = "Votre mot de passe est requis.";
    else if (!isStrongPassword(input.password)) errors.password = PASSWORD_RULE_MESSAGE;
    if (input.passwordConfirmation === "") errors.passwordConfirmation = CONFIRMATION_REQUIRED;
    else if (input.passwordConfirmation !== input.password) errors.passwordConfirmation = PASSWORDS_DIFFER;
    addIssues(ctx, errors);
  });
}

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
