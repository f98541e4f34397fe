// Gift vouchers (spec 000 §2 'Vos bons cadeaux', §3 'Discount / gift voucher', §9 price 50), pure and
// shared with the islands: the price, the code's shape, validity, statuses and every French message.
import { formatEuros } from "../money.ts";

/** Spec §9: a gift voucher costs 50 €; its face value is what was paid. */
export const VOUCHER_PRICE_CENTS = 5000;
/** Valid one year from its purchase (pretix's gift cards expire too; a year is the usual French term). */
export const VOUCHER_VALIDITY_MONTHS = 12;
/** Spec §2: the purchase dialog is 800 wide; snackbars last 3000 ms. */
export const VOUCHER_DIALOG_WIDTH = 800;
export const VOUCHER_SNACKBAR_MS = 3000;
/** How far ahead the recipient's email may be scheduled (a year: the voucher's own validity). */
export const MAX_SEND_DAYS_AHEAD = 365;

/** Crockford's base 32: digits and capitals without I, L, O, U, so that nothing reads as something else;
 * typed lowercase, with O for 0 or I/L for 1, it still matches (`normalizeCode`). */
export const CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** 16 characters of 5 bits: 80 random bits, shown as four groups of four. */
export const CODE_LENGTH = 16;

/** Formats 16 code characters as XXXX-XXXX-XXXX-XXXX. */
export function formatCode(raw: string): string {
  return raw.match(/.{1,4}/g)?.join("-") ?? raw;
}

/** What a customer typed → the code's 16 characters, or null when it cannot be a code. */
export function normalizeCode(input: string): string | null {
  const cleaned = input.toUpperCase().replace(/[\s\-_.]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (cleaned.length !== CODE_LENGTH) return null;
  for (const ch of cleaned) if (!CODE_ALPHABET.includes(ch)) return null;
  return cleaned;
}

export type VoucherStatus = "pending" | "active" | "canceled";

export const VOUCHER_STATUSES: Record<
  VoucherStatus,
  { label: string; color: "warning" | "success" | "error" }
> = {
  pending: { label: "En attente de paiement", color: "warning" },
  active: { label: "Actif", color: "success" },
  canceled: { label: "Annulé", color: "error" },
};

/** A voucher's state as the customer reads it, on the page and in the API alike: an active voucher past
 * its validity is 'expired', one with nothing left 'used'. */
export type VoucherStateKey = VoucherStatus | "expired" | "used";

export function voucherStateKey(
  v: { status: VoucherStatus; remaining: number; validUntil: number | null },
  now: number,
): VoucherStateKey {
  if (v.status !== "active") return v.status;
  if (v.validUntil !== null && v.validUntil <= now) return "expired";
  if (v.remaining <= 0) return "used";
  return "active";
}

const DERIVED_STATES = {
  expired: { label: "Expiré", color: "neutral" },
  used: { label: "Utilisé", color: "neutral" },
} as const;

/** What the customer reads of a voucher's state, from its status, remaining amount and validity. */
export function voucherState(
  v: { status: VoucherStatus; remaining: number; validUntil: number | null },
  now: number,
): { label: string; color: "warning" | "success" | "error" | "neutral" } {
  const key = voucherStateKey(v, now);
  return key === "expired" || key === "used" ? DERIVED_STATES[key] : VOUCHER_STATUSES[key];
}

export const VOUCHER_MESSAGES = {
  customersOnly: "Seuls les clients peuvent offrir ou utiliser un bon cadeau.",
  loginToBuy: "Connectez-vous à votre compte client pour offrir un bon cadeau.",
  loginToRedeem: "Connectez-vous à votre compte client pour utiliser un bon cadeau.",
  invalidForm: "Veuillez renseigner tous les champs obligatoires",
  required: "Ce champ est requis",
  emailInvalid: "L'email doit être valide.",
  sendDatePast: "La date d'envoi ne peut pas être passée.",
  sendDateTooFar: "La date d'envoi doit être dans l'année qui vient.",
  messageTooLong: "Le message ne peut pas dépasser 500 caractères.",
  nameTooLong: "Le nom ne peut pas dépasser 100 caractères.",
  codeRequired: "Veuillez saisir un code.",
  codeUnknown: "Ce code est inconnu. Vérifiez-le et réessayez.",
  codeNotActive: "Ce bon cadeau n'est pas encore actif : son paiement n'a pas abouti.",
  codeCanceled: "Ce bon cadeau a été annulé.",
  codeEmpty: "Ce bon cadeau a déjà été entièrement utilisé.",
  codeApplied: "Bon cadeau appliqué à votre panier.",
  codeRemoved: "Bon cadeau retiré de votre panier.",
  noCode: "Aucun bon cadeau n'est appliqué à votre panier.",
  tooManyCodes: "Trop de codes essayés. Veuillez réessayer dans une heure.",
  notFound: "Ce bon cadeau n'existe pas.",
  invoiceNotYet: "La facture de ce bon cadeau sera disponible une fois le paiement reçu.",
  bought: "Votre bon cadeau est payé : il sera envoyé à la date choisie.",
  paymentError: "Erreur lors de la création du paiement",
} as const;

/** 'Ce bon cadeau a expiré le 12/03/2027.' */
export function expiredMessage(validUntil: number): string {
  return `Ce bon cadeau a expiré le ${formatDay(validUntil)}.`;
}

/** The discount a voucher grants on an amount: what it has left, at most the amount. */
export function voucherDiscount(remaining: number, amount: number): number {
  return Math.max(0, Math.min(remaining, amount));
}

/** 'Bon cadeau appliqué : 50,00 € disponibles…' */
export function appliedMessage(remaining: number): string {
  return `Bon cadeau appliqué : ${
    formatEuros(remaining)
  } disponibles, déduits de votre commande au paiement.`;
}

const PARIS_DAY = new Intl.DateTimeFormat("fr-FR", {
  timeZone: "Europe/Paris",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
});

/** DD/MM/YYYY in Paris time (§9), from unix seconds. */
export function formatDay(unix: number): string {
  return PARIS_DAY.format(new Date(unix * 1000));
}

/** "YYYY-MM-DD" → DD/MM/YYYY (a calendar day, no time zone involved). */
export function formatIsoDay(day: string): string {
  return day.slice(0, 10).split("-").reverse().join("/");
}

/** Today in Paris as YYYY-MM-DD. */
export function parisToday(now = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(now);
}

/** The purchase form's send date: today or later, within a year. Null when valid, else the message. */
export function sendDateError(day: string, today: string): string | null {
  const parsed = Date.parse(`${day}T00:00:00Z`);
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(parsed) ||
    new Date(parsed).toISOString().slice(0, 10) !== day
  ) {
    return VOUCHER_MESSAGES.required;
  }
  if (day < today) return VOUCHER_MESSAGES.sendDatePast;
  const limit = new Date(Date.parse(`${today}T00:00:00Z`) + MAX_SEND_DAYS_AHEAD * 86400_000)
    .toISOString().slice(0, 10);
  if (day > limit) return VOUCHER_MESSAGES.sendDateTooFar;
  return null;
}

export const discountPdfPath = (id: string) => `/discount/pdf/${id}`;
export const discountInvoicePath = (id: string) => `/discount/invoice/${id}`;
