// Cocktail-workshop sessions, pure rules shared by the server and the islands (spec 000 §2-§5, §8, §9):
// the price of a date, the quantity bounds, the registration statuses, the French texts and timings.
// Money in integer cents; the API's euros are made at the edge (lib/money.ts).
import { centsToEuros, eurosToCents, withVat } from "../money.ts";

/** Snackbars of the sessions pages (§9), the share dialog's width (§2), the seat-alert dialog's. */
export const SNACKBAR_MS = 3000;
export const SHARE_DIALOG_WIDTH = 500;
export const ALERT_DIALOG_WIDTH = 500;
/** The session page shows this many upcoming dates at first (plus the one a link selects); the period
 * filter reaches the others. */
export const PAGE_DATES = 60;

export const SESSION_MESSAGES = {
  full: "COMPLET",
  soon: "BIENTÔT DISPO",
  selected: "TON CHOIX",
  book: "Réserver",
  alertButton: "M'alerter si une place se libère",
  datesTitle: "Dates de la session",
  periodTitle: "Choisir une période",
  shareTitle: "Partage ta session !",
  copy: "COPIER",
  linkCopied: "Lien copié dans le presse-papiers !",
  copyFailed: "Erreur lors de la copie du lien",
  alertEmailRequired: "Veuillez renseigner votre email",
  alertEmailInvalid: "L'email doit être valide.",
  alertOptinRequired: "Veuillez accepter d'être contacté",
  alertSaved: "Votre alerte a bien été prise en compte",
  alertNote:
    "Un email de confirmation vient de vous être envoyé : pensez à vérifier vos courriers indésirables (spams).",
  alertOnlyWhenFull: "Cette date a encore des places : vous pouvez la réserver dès maintenant.",
  notFound: "Cette date n'existe pas ou n'est plus proposée.",
  sessionNotFound: "Cette session n'existe pas.",
  closed: "Cette date n'est plus ouverte aux réservations.",
  canceled: "Cette date a été annulée.",
  past: "Cette date est passée.",
  changed: "Cette date a changé depuis l'affichage de la page : veuillez la recharger.",
  customersOnly:
    "Seuls les clients peuvent réserver une session. Veuillez vous connecter avec un compte client.",
  added: "Places réservées : elles vous sont gardées pendant",
  lineNotFound: "Cette ligne n'est plus dans votre panier.",
  expired: "Votre réservation a expiré et ses places ont été remises en vente : ajoutez de nouveau la date.",
  lineRemoved: "La ligne a été retirée de votre panier.",
  lineUpdated: "La quantité a été mise à jour.",
  emptyCart: "Votre panier est vide.",
  noDates: "Aucune date n'est proposée pour cette période.",
  moreDates: "Seules les prochaines dates sont affichées : choisissez une période pour voir les suivantes.",
} as const;

// Limits one visitor cannot turn against others (supabase/migrations/20261128004000_seat_limits.sql
// enforces them; these mirror it for the messages and the admin form). MAX_PLACES_PER_DATE is the
// default of each session's own setting.
export const MAX_PLACES_PER_DATE = 10;
export const MAX_PLACES_HELD = 20;
export const HOLD_COOLDOWN_MINUTES = 15;

/** 'Vous pouvez réserver 10 places au plus pour cette date (vous en avez déjà 4 dans votre panier).' */
export function dateLimitMessage(limit: number, held: number): string {
  const already = held > 0 ? ` (vous en avez déjà ${held} dans votre panier)` : "";
  return `Vous pouvez réserver ${limit} place${limit > 1 ? "s" : ""} au plus pour cette date${already}.`;
}

/** 'Votre panier peut garder 20 places au plus, toutes dates confondues (il en a déjà 18).' */
export function cartLimitMessage(limit: number, held: number): string {
  const already = held > 0 ? ` (il en a déjà ${held})` : "";
  return `Votre panier peut garder ${limit} places au plus, toutes dates confondues${already}.`;
}

/** After a lapsed hold: 'Votre réservation de cette date a expiré : vous pourrez la réserver de nouveau
 * dans 12 minutes.' */
export function cooldownMessage(minutesLeft: number): string {
  const m = Math.max(1, Math.round(minutesLeft));
  return `Votre réservation de cette date a expiré : vous pourrez la réserver de nouveau dans ${m} minute${
    m > 1 ? "s" : ""
  }.`;
}

/** 'Veuillez choisir entre 1 et 3 places.' (the quantity rule of §5, as the server says it). */
export function quantityMessage(placesLeft: number): string {
  return placesLeft <= 1
    ? "Il ne reste qu'une place : veuillez choisir 1 place."
    : `Veuillez choisir entre 1 et ${placesLeft} places.`;
}

/** 'Le champ « quantity » est requis.', or 'Les champs « session » et « quantity » sont requis.': the
 * add-to-cart request names the fields it lacks (the API's field names, as the issue defines them). */
export function missingFieldsMessage(fields: string[]): string {
  const named = fields.map((f) => `« ${f} »`);
  if (named.length === 1) return `Le champ ${named[0]} est requis.`;
  return `Les champs ${named.slice(0, -1).join(", ")} et ${named[named.length - 1]} sont requis.`;
}

/** 'place restante' when fewer than 2, else 'places restantes' (§2). */
export function placesLabel(places: number): string {
  return `${places} ${places < 2 ? "place restante" : "places restantes"}`;
}

export interface AdditionalCost {
  title: string;
  /** Cents, excluding VAT. */
  ht: number;
  /** Percent (20 for 20 %). */
  vat: number;
}

export interface DatePrice {
  priceTTC: number;
  travelCostTTC: number;
  additionalCosts: AdditionalCost[];
}

/** Price of one place (§9): priceTTC + travelCostTTC + each additional cost with its VAT (ht × (1 + vat/100),
 * rounded to the cent), in cents. */
export function unitPrice(date: DatePrice): number {
  return date.priceTTC + date.travelCostTTC +
    date.additionalCosts.reduce((sum, cost) => sum + withVat(cost.ht, cost.vat), 0);
}

/** Price of `quantity` places (§9: everything multiplied by the quantity), in cents. */
export function sessionPrice(date: DatePrice, quantity: number): number {
  return unitPrice(date) * quantity;
}

/** §5: decreasing stops at 1, increasing at the places left; blocked (1) on soon or full dates. */
export function clampQuantity(quantity: number, placesLeft: number, soon: boolean): number {
  if (soon || placesLeft < 1) return 1;
  return Math.min(Math.max(1, Math.trunc(quantity) || 1), placesLeft);
}

export type DateState = "soon" | "full" | "open";

/** §4 'Session date states': soon first (not selectable), then full (no place left). */
export function dateState(date: { soon: boolean; places: number }): DateState {
  if (date.soon) return "soon";
  return date.places <= 0 ? "full" : "open";
}

/** The share link of a date (§2): {origin}/session/{slug}?date={dtstart}. */
export function shareUrl(origin: string, slug: string, dtstart: number): string {
  return `${origin}/session/${slug}?date=${dtstart}`;
}

export type RegistrationStatus = "pending" | "invoiced" | "canceled";

/** §4 'Registration status': label, colour, and which actions a row offers. */
export const REGISTRATION_STATUSES: Record<
  RegistrationStatus,
  { label: string; color: "warning" | "success" | "error" }
> = {
  pending: { label: "En attente", color: "warning" },
  invoiced: { label: "Facturé", color: "success" },
  canceled: { label: "Annulé", color: "error" },
};

export function registrationActions(status: RegistrationStatus) {
  return {
    // A buyer keeps every document issued to them: the invoice and the receipt of a canceled
    // registration stay downloadable next to the credit note that corrects them (the page offers only
    // documents that exist: a registration canceled unpaid has none). This widens spec 000 §4, which
    // offered neither once canceled.
    invoice: status !== "pending",
    receipt: true,
    share: status === "pending",
    // A canceled paid registration: the credit note of its refund (the cancel email promises it).
    creditNote: status === "canceled",
  };
}

/** The dates a page shows first: the next PAGE_DATES, and the selected one wherever it is. */
export function firstDates(offers: DateOffer[]): { shown: DateOffer[]; more: boolean } {
  const shown = offers.slice(0, PAGE_DATES);
  const selected = offers.find((o) => o.selected);
  if (selected && !shown.includes(selected)) shown.push(selected);
  return { shown, more: offers.length > shown.length };
}

/** A date offer as the API gives it (§3 'Session date offer'): money in euros, times in unix seconds. */
export interface DateOffer {
  id: number;
  uuid: string;
  dtstart: number;
  places: number;
  quantity: number;
  soon: boolean;
  selected: boolean;
  popup: boolean;
  url: string;
  session_id: number;
  timestamp: number;
  shareUrl: string;
  priceTTC: number;
  travelCostTTC: number;
  additionalCosts: { title: string; ht: number; vat: number }[];
  /** Beyond §3: the organiser closed the date (shown 'COMPLET', no seat alert). */
  closed?: boolean;
}

/** An offer's prices back in cents (exact, from their decimal text), for `sessionPrice`. */
export function offerPrice(
  offer: Pick<DateOffer, "priceTTC" | "travelCostTTC" | "additionalCosts">,
): DatePrice {
  return {
    priceTTC: eurosToCents(offer.priceTTC) ?? 0,
    travelCostTTC: eurosToCents(offer.travelCostTTC) ?? 0,
    additionalCosts: offer.additionalCosts.map((cost) => ({
      title: cost.title,
      ht: eurosToCents(cost.ht) ?? 0,
      vat: cost.vat,
    })),
  };
}

/** Cents → the offer's euros. */
export function priceToOffer(
  price: DatePrice,
): Pick<DateOffer, "priceTTC" | "travelCostTTC" | "additionalCosts"> {
  return {
    priceTTC: centsToEuros(price.priceTTC),
    travelCostTTC: centsToEuros(price.travelCostTTC),
    additionalCosts: price.additionalCosts.map((cost) => ({
      title: cost.title,
      ht: centsToEuros(cost.ht),
      vat: cost.vat,
    })),
  };
}

/** Seconds left on a hold, never below 0. */
export function holdSecondsLeft(expiresAt: number, now: number): number {
  return Math.max(0, expiresAt - now);
}

/** "12:05" (minutes:seconds) for the cart's countdown. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// Made once: building an Intl formatter costs far more than using it (a page lists hundreds of dates).
const PARIS_DATE_TIME = new Intl.DateTimeFormat("fr-FR", {
  timeZone: "Europe/Paris",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/** "DD/MM/YYYY HH:mm" in Paris time (§9), from unix seconds. */
export function formatDateTime(dtstart: number): string {
  const parts = PARIS_DATE_TIME.formatToParts(new Date(dtstart * 1000));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("day")}/${get("month")}/${get("year")} ${get("hour")}:${get("minute")}`;
}

// ---------------------------------------------------------------------------------------------------
// Workshop operations: the waiting list, closing and canceling a date, the attendees.

/** How long a seat offer keeps its place for the subscriber (the migration's seat_offer_window()). */
export const SEAT_OFFER_HOURS = 2;
/** The confirmation dialog of a date's cancellation (spec §9 dialogs: 500 px). */
export const CANCEL_DIALOG_WIDTH = 500;

export const OPS_MESSAGES = {
  offerTitle: "Une place s'est libérée pour vous",
  offerTake: "Ajouter cette place à mon panier",
  offerTaken: "La place est dans votre panier : finalisez votre réservation avant la fin du délai.",
  offerInvalid: "Ce lien n'est pas valide.",
  offerUsed: "Ce lien a déjà servi : la place est dans le panier où elle a été ajoutée.",
  offerExpired:
    "Ce lien a expiré : la place a été proposée à la personne suivante. Vous pouvez vous réinscrire à l'alerte.",
  closed: "La date est fermée : plus aucune réservation n'est prise.",
  reopened: "La date est de nouveau ouverte aux réservations.",
  canceled: "La date a été annulée : les inscrits sont prévenus par email et remboursés.",
  alreadyCanceled: "Cette date est déjà annulée.",
  cannotReopenCanceled: "Une date annulée ne peut pas être rouverte.",
  cancelByAction:
    "Pour annuler une date, utilisez le bouton « Annuler la date » : il prévient et rembourse les inscrits.",
  closeConfirmTitle: "Fermer cette date ?",
  closeConfirm:
    "Plus personne ne pourra réserver cette date : elle s'affichera « COMPLET ». Les inscrits gardent leurs places et vous pourrez la rouvrir.",
  cancelConfirmTitle: "Annuler cette date ?",
  cancelConfirm:
    "Les inscrits seront prévenus par email et remboursés, les paniers en cours libérés et les alertes arrêtées. Cette action ne peut pas être annulée.",
} as const;

/** The public state of a date's row: closed dates read 'COMPLET' without the seat alert. */
export function offerState(offer: { soon: boolean; places: number; closed?: boolean }): DateState | "closed" {
  if (offer.closed) return "closed";
  return dateState(offer);
}

/** Fill of a date for its organiser: sold (registrations not canceled), held (carts and waiting-list
 * offers), left; `rate` in whole percent of the capacity. */
export function fillOf(places: number, sold: number, placesLeft: number) {
  const held = Math.max(0, places - placesLeft - sold);
  return { sold, held, left: placesLeft, rate: places > 0 ? Math.round(((sold + held) / places) * 100) : 0 };
}
