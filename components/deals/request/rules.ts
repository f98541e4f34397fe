// The quote request form's pure pieces, shared by the page, the island and the no-JavaScript post:
// the form's values, the event types behind the links' `?evenement=` slugs, the browser's checks
// before sending, and the payload. The server's zod schema (lib/deals/input.ts, quoteRequestSchema)
// is authoritative: the checks below answer the same French message for the same mistake
// (tests/http/deal_request_test.ts compares them), so that the browser and the server never disagree.
// Pure: imported by islands/DealRequestForm.tsx (no zod, no phone metadata in the bundle).
import { DURATIONS_MINUTES, EVENT_TYPES, START_TIMES } from "../../../lib/deals/rules.ts";
import { isEmailShape, isPhoneLike, PHONE_INVALID, REQUIRED } from "../../../lib/accounts/rules.ts";
import type { RecipeType } from "../../../lib/deals/pricing.ts";
import type { RequestEstimate } from "../../../lib/deals/estimate.ts";

/** What the form holds: text for the inputs, as the user typed it. */
export interface RequestValues {
  type_d_evenement: string;
  deal_prestation_date: string;
  horaire_souhaite: string;
  nombre_de_participants: string;
  duree_2_service: string;
  ville: string;
  adresse_precise: string;
  distance_en_km: string;
  bar_mobile: "true" | "false";
  type_de_recette: RecipeType;
  creation_de_recette: "true" | "false";
  description: string;
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
  consent: boolean;
}

export type RequestField = keyof RequestValues;

export const EMPTY_REQUEST: RequestValues = {
  type_d_evenement: "",
  deal_prestation_date: "",
  horaire_souhaite: "",
  nombre_de_participants: "",
  duree_2_service: "",
  ville: "",
  adresse_precise: "",
  distance_en_km: "",
  bar_mobile: "false",
  type_de_recette: "signature",
  creation_de_recette: "false",
  description: "",
  firstname: "",
  lastname: "",
  email: "",
  phone: "",
  consent: false,
};

/** The server's messages (lib/deals/input.ts, quoteRequestSchema and requestQuote). */
export const REQUEST_MESSAGES = {
  form: "Veuillez renseigner tous les champs obligatoires",
  required: REQUIRED,
  eventType: "Type d'événement non proposé.",
  date: "La date doit être aujourd'hui ou plus tard.",
  startTime: "Horaire non proposé.",
  number: "Veuillez saisir un nombre valide.",
  duration: "Durée non proposée.",
  recipe: "Type de recette non proposé.",
  tooLong: "Ce champ est trop long.",
  emailRequired: "Votre email est requis.",
  emailInvalid: "L'email doit être valide.",
  phoneRequired: "Votre téléphone est requis.",
  phoneInvalid: PHONE_INVALID,
  consent: "Vous devez accepter d'être contacté dans le cadre de l'organisation de votre événement",
  tooMany: "Trop de demandes de devis envoyées. Veuillez réessayer plus tard.",
  unexpected: "Une erreur inattendue s'est produite, veuillez réessayer",
} as const;

/** Limits of the server's schema. */
export const REQUEST_LIMITS = {
  guests: [1, 5000],
  distance: [0, 1000],
  ville: 120,
  adresse_precise: 500,
  description: 2000,
  name: 120,
  email: 254,
  phone: 40,
} as const;

const RECIPE_TYPES: RecipeType[] = ["signature", "classic", "mocktail"];

/** `?evenement=` slugs of the site's links (menus, city pages), and the event type each one picks. */
const EVENT_SLUGS: Record<string, string> = {
  "team-building": "Entreprise team building",
  "seminaire": "Entreprise séminaire",
  "anniversaire": "Anniversaire",
  "mariage": "Mariage - soirée dansante",
  "vin-d-honneur": "Mariage - Vin d'honneur",
  "salon": "Salon - Congrès",
  "lancement": "Lancement",
  "autre": "Autre",
};

/** A slug ("mariage") or an event type itself → the event type; anything else → "". */
export function eventTypeFromQuery(value: string | undefined | null): string {
  if (!value) return "";
  const text = value.trim();
  if (EVENT_TYPES.includes(text)) return text;
  return EVENT_SLUGS[text.toLowerCase()] ?? "";
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function isRealDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** "12", " 12 " → 12; "" → null; anything else → NaN (the server's looseNumber). */
function number(value: string): number | null {
  const t = value.trim().replace(",", ".");
  return t === "" ? null : Number(t);
}

function integerIn(value: string, [min, max]: readonly [number, number]): boolean {
  const n = number(value);
  return n !== null && Number.isInteger(n) && n >= min && n <= max;
}

/** The browser's checks, in the server's words: field → message; empty when the form can be sent.
 * `today` is YYYY-MM-DD. The phone gets a quick shape check only: the server checks it for real. */
export function requestErrors(values: RequestValues, today: string): Partial<Record<RequestField, string>> {
  const errors: Partial<Record<RequestField, string>> = {};
  const m = REQUEST_MESSAGES;
  const text = (field: RequestField, max: number, required = false, requiredMessage: string = m.required) => {
    const value = String(values[field] ?? "").trim();
    if (value.length > max) errors[field] = m.tooLong;
    else if (required && value === "") errors[field] = requiredMessage;
    return value;
  };

  if (values.type_d_evenement === "") errors.type_d_evenement = m.required;
  else if (!EVENT_TYPES.includes(values.type_d_evenement)) errors.type_d_evenement = m.eventType;

  const date = values.deal_prestation_date.trim();
  if (date !== "" && (!isRealDate(date) || date < today)) errors.deal_prestation_date = m.date;

  if (values.horaire_souhaite !== "" && !START_TIMES.includes(values.horaire_souhaite)) {
    errors.horaire_souhaite = m.startTime;
  }

  if (number(values.nombre_de_participants) === null) errors.nombre_de_participants = m.required;
  else if (!integerIn(values.nombre_de_participants, REQUEST_LIMITS.guests)) {
    errors.nombre_de_participants = m.number;
  }

  const duration = number(values.duree_2_service);
  if (duration === null || Number.isNaN(duration)) errors.duree_2_service = m.required;
  else if (!DURATIONS_MINUTES.includes(duration)) errors.duree_2_service = m.duration;

  text("ville", REQUEST_LIMITS.ville, true);
  text("adresse_precise", REQUEST_LIMITS.adresse_precise);
  if (number(values.distance_en_km) !== null && !integerIn(values.distance_en_km, REQUEST_LIMITS.distance)) {
    errors.distance_en_km = m.number;
  }
  if (!RECIPE_TYPES.includes(values.type_de_recette)) errors.type_de_recette = m.recipe;
  text("description", REQUEST_LIMITS.description);
  text("firstname", REQUEST_LIMITS.name, true);
  text("lastname", REQUEST_LIMITS.name, true);

  const email = text("email", REQUEST_LIMITS.email, true, m.emailRequired);
  if (!errors.email && !isEmailShape(email)) errors.email = m.emailInvalid;
  const phone = text("phone", REQUEST_LIMITS.phone, true, m.phoneRequired);
  if (!errors.phone && !isPhoneLike(phone)) errors.phone = m.phoneInvalid;

  if (!values.consent) errors.consent = m.consent;
  return errors;
}

/** The JSON body of POST /api/deal/request. */
export function requestPayload(values: RequestValues): Record<string, unknown> {
  const numeric = (value: string) => {
    const n = number(value);
    return n === null ? null : Number.isNaN(n) ? value : n;
  };
  return {
    type_d_evenement: values.type_d_evenement,
    deal_prestation_date: values.deal_prestation_date.trim(),
    horaire_souhaite: values.horaire_souhaite,
    nombre_de_participants: numeric(values.nombre_de_participants),
    duree_2_service: numeric(values.duree_2_service),
    ville: values.ville.trim(),
    adresse_precise: values.adresse_precise.trim(),
    distance_en_km: numeric(values.distance_en_km),
    bar_mobile: values.bar_mobile === "true",
    type_de_recette: values.type_de_recette,
    creation_de_recette: values.creation_de_recette === "true",
    description: values.description.trim(),
    firstname: values.firstname.trim(),
    lastname: values.lastname.trim(),
    email: values.email.trim(),
    phone: values.phone.trim(),
    consent: values.consent,
  };
}

/** Values posted by the form without JavaScript (form fields are text; unchecked boxes are absent). */
export function valuesFromForm(body: Record<string, unknown>): RequestValues {
  const str = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : "");
  const yes = (name: string) => ["true", "on", "1"].includes(str(name));
  const recipe = str("type_de_recette");
  return {
    type_d_evenement: str("type_d_evenement"),
    deal_prestation_date: str("deal_prestation_date"),
    horaire_souhaite: str("horaire_souhaite"),
    nombre_de_participants: str("nombre_de_participants"),
    duree_2_service: str("duree_2_service"),
    ville: str("ville"),
    adresse_precise: str("adresse_precise"),
    distance_en_km: str("distance_en_km"),
    bar_mobile: yes("bar_mobile") ? "true" : "false",
    type_de_recette: (RECIPE_TYPES as string[]).includes(recipe) ? recipe as RecipeType : "signature",
    creation_de_recette: yes("creation_de_recette") ? "true" : "false",
    description: str("description"),
    firstname: str("firstname"),
    lastname: str("lastname"),
    email: str("email"),
    phone: str("phone"),
    consent: yes("consent"),
  };
}

/** The request's answer: its deal's token and the estimate in cents (lib/deals/estimate.ts). */
export interface RequestOutcome {
  token: string;
  estimate: RequestEstimate;
}
