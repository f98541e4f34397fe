// What the deals API accepts, as zod schemas: each field coerced the way the spec's forms send it
// ("Quote validity, participants and line values are coerced to numbers"), bounded, and answered with
// a French message when wrong. Server only (islands use rules.ts).
import { z } from "zod";
import { eurosToCents } from "../money.ts";
import {
  ADMIN_SETTING_KEYS,
  COCKTAIL_LIST_TYPES,
  DEAL_STATUSES,
  DURATIONS_MINUTES,
  EVENT_TYPES,
  LOCATION_TYPES,
  START_TIMES,
} from "./rules.ts";
import { isIsoDate } from "../accounts/rules.ts";
import { MAX_RICH_TEXT, RICH_TEXT_TOO_LONG } from "../richtext/rules.ts";
import { EMAIL_INVALID_MESSAGE, isStrictEmail } from "../validation.ts";

const NUMBER_MESSAGE = "Veuillez saisir un nombre valide.";
const TOO_LONG = "Ce champ est trop long.";

/** "12", 12, " 12 " → 12; "" → null. */
const looseNumber = (v: unknown) => {
  if (typeof v === "number") return v;
  if (typeof v === "string") {
    const t = v.trim().replace(",", ".");
    return t === "" ? null : Number(t);
  }
  return v == null ? null : Number.NaN;
};

const integer = (min: number, max: number) =>
  z.unknown().optional().transform(looseNumber).pipe(
    z.number({ error: NUMBER_MESSAGE }).int(NUMBER_MESSAGE).min(min, NUMBER_MESSAGE).max(max, NUMBER_MESSAGE)
      .nullable(),
  );

const text = (max: number) =>
  z.unknown().optional().transform((
    v,
  ) => (typeof v === "string" ? v.trim() : v == null ? "" : typeof v === "number" ? String(v) : "\u0000"))
    .pipe(z.string().max(max, TOO_LONG).refine((s) => !s.includes("\u0000"), "Valeur invalide."));

const oneOf = (values: readonly string[], message = "Valeur non proposée.") =>
  z.unknown().optional().transform((v) => (v == null ? "" : String(v))).pipe(
    z.string().refine((s) => s === "" || values.includes(s), message),
  );

/** Yes/no properties are stored as the text "true" or "false" (spec 001 §3), "" when unknown. */
const yesNo = z.unknown().optional().transform((v): string =>
  v === true || v === "true" || v === "1" || v === "oui"
    ? "true"
    : v === false || v === "false" || v === "0" || v === "non"
    ? "false"
    : v == null || v === ""
    ? ""
    : "?"
).pipe(z.string().refine((s) => s !== "?", "Valeur non proposée."));

const euros = (max: number) =>
  z.unknown().optional().transform((v) => eurosToCents(v)).pipe(
    z.number({ error: "Veuillez saisir un montant valide (deux décimales au plus)." }).int().min(
      0,
      "Le montant ne peut pas être négatif.",
    ).max(max * 100, "Ce montant est trop élevé."),
  );

export const richText = text(MAX_RICH_TEXT).pipe(z.string().max(MAX_RICH_TEXT, RICH_TEXT_TOO_LONG));

/** Deal properties (spec 001 §3) a form may change; anything else is ignored. */
const propertiesSchema = z.object({
  adresse_precise: text(500),
  ville: text(120),
  nombre_de_participants: integer(0, 100000),
  deal_prestation_date: z.unknown().optional().transform((v) => (v == null ? "" : String(v).trim())).pipe(
    z.string().refine((s) => s === "" || isIsoDate(s), "La date doit être au format AAAA-MM-JJ."),
  ),
  duree_2_service: z.unknown().optional().transform(looseNumber).pipe(
    z.number({ error: NUMBER_MESSAGE }).refine((n) => DURATIONS_MINUTES.includes(n), "Durée non proposée.")
      .nullable(),
  ),
  horaire_souhaite: oneOf(START_TIMES, "Horaire non proposé."),
  bar_mobile___table_a_dispo: yesNo,
  carte_des_cocktails: text(1000),
  mocktails: text(1000),
  distance_en_km: integer(0, 5000),
  description: text(2000),
  service_vin_champ__en_complement__: yesNo,
  type_d_evenement: oneOf(EVENT_TYPES, "Type d'événement non proposé."),
  nom_futur_e__marie_e_: text(255),
  emplacement_du_service: text(255),
  deal_location_type: oneOf(LOCATION_TYPES, "Lieu non proposé."),
  acces_au_lieu: text(500),
  acces_a_l_eau: yesNo,
  validite_devis__en_jours_: integer(0, 365),
  envoi_devis: text(20),
}).partial();

const lineSchema = z.object({
  label: text(255).pipe(z.string().min(1, "Chaque ligne a besoin d'un libellé.")),
  qty: integer(0, 100000).pipe(z.number({ error: NUMBER_MESSAGE })),
  unitCost: euros(1_000_000),
});
const linesSchema = z.array(lineSchema, { error: "Les lignes du devis sont invalides." }).max(
  50,
  "50 lignes au plus.",
);

const customCocktail = z.object({
  id: text(64).pipe(z.string().min(1)),
  name: text(120).pipe(z.string().min(1, "Le nom et la description du cocktail sont obligatoires.")),
  description: text(1000).pipe(z.string().min(1, "Le nom et la description du cocktail sont obligatoires.")),
});

const settingsSchema = z.object({
  hasDeposit: z.boolean({ error: "Valeur invalide." }),
  depositPercentage: integer(1, 100),
  cocktailListType: z.enum(COCKTAIL_LIST_TYPES, { error: "Type de liste non proposé." }).nullable(),
  customCocktails: z.array(customCocktail).max(30, "30 cocktails personnalisés au plus."),
  nbCocktailsAuthorized: integer(1, 50).pipe(z.number({ error: NUMBER_MESSAGE })),
}).partial();

const adminSettingsSchema = z.object(
  Object.fromEntries(ADMIN_SETTING_KEYS.map((key) => [key, z.boolean({ error: "Valeur invalide." })])),
).partial();

const parametersSchema = z.object({
  vat: z.number({ error: NUMBER_MESSAGE }).refine(
    (v) => [0, 5.5, 10, 20].includes(v),
    "Taux de TVA non proposé.",
  ),
  commissionRate: z.number({ error: NUMBER_MESSAGE }).min(0).max(100).refine(
    (v) => Math.round(v * 100) === v * 100,
    NUMBER_MESSAGE,
  ),
}).partial();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** PATCH /api/deal/{id}: every field optional; which role may send which is the use case's rule. */
export const dealPatchSchema = z.object({
  name: text(255),
  hubspotId: text(64),
  company: z.union([
    z.string().regex(UUID, "Partenaire introuvable."),
    z.null(),
    z.object({ id: z.string().regex(UUID, "Partenaire introuvable.") }),
  ]),
  properties: propertiesSchema,
  lines: linesSchema,
  settings: settingsSchema,
  adminSettings: adminSettingsSchema,
  parameters: parametersSchema,
  status: z.enum(DEAL_STATUSES, { error: "Statut inconnu." }),
  refusalReason: text(64),
  adminComments: text(5000),
  description: richText,
  adminDescription: richText,
  customField1: richText,
  customField2: richText,
  map: text(4000),
}).partial();

export type DealPatch = z.output<typeof dealPatchSchema>;

export const refusalSchema = z.object({
  reason: text(64).pipe(z.string().min(1, "Veuillez choisir une raison de refus.")),
});

/** A deal status in a list's query string ('?status=send'). */
export const STATUS_INVALID = "Statut inconnu.";
export const statusParam = z.enum(DEAL_STATUSES, { error: STATUS_INVALID });

/** A list's page number in a query string: 1 to 100 000. */
export const PAGE_INVALID = "Le numéro de page est invalide.";
export const pageParam = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const text = String(v).trim();
  if (!/^[1-9]\d{0,5}$/.test(text) || Number(text) > 100_000) {
    ctx.addIssue({ code: "custom", message: PAGE_INVALID });
    return z.NEVER;
  }
  return Number(text);
});

/** 'Mes devis' of a partner or a customer: 25 deals a page, newest first. */
export const OWN_LIST_PAGE_SIZE = 25;
export const ownListQuerySchema = z.object({ page: pageParam.optional() });

export const listQuerySchema = z.object({
  search: text(100).optional().transform((s) => s ?? ""),
  from: z.string().refine(isIsoDate, "Date invalide.").optional(),
  to: z.string().refine(isIsoDate, "Date invalide.").optional(),
  page: pageParam.optional(),
  perPage: z.coerce.number().int().min(1).max(100).optional(),
  sort: z.enum(["createdAt", "serviceDate", "totalHt", "id"]).optional(),
  direction: z.enum(["asc", "desc"]).optional(),
  /** What the dates filter: the service date ('Date presta', the default) or the creation date. */
  dateField: z.enum(["serviceDate", "createdAt"]).optional(),
  status: statusParam.optional(),
});

// ---------------------------------------------------------------------------------------------------
// The public quote request (/demande-de-devis → POST /api/deal/request).

export const REQUEST_INVALID = "Veuillez renseigner tous les champs obligatoires";
const REQUIRED = "Ce champ est requis";

export function quoteRequestSchema(today: string) {
  return z.object({
    type_d_evenement: oneOf(EVENT_TYPES, "Type d'événement non proposé.").pipe(z.string().min(1, REQUIRED)),
    deal_prestation_date: z.unknown().optional().transform((v) => (v == null ? "" : String(v).trim())).pipe(
      z.string().refine(
        (s) => s === "" || (isIsoDate(s) && s >= today),
        "La date doit être aujourd'hui ou plus tard.",
      ),
    ),
    horaire_souhaite: oneOf(START_TIMES, "Horaire non proposé."),
    nombre_de_participants: integer(1, 5000).pipe(z.number({ error: REQUIRED })),
    duree_2_service: z.unknown().optional().transform(looseNumber).pipe(
      z.number({ error: REQUIRED }).refine((n) => DURATIONS_MINUTES.includes(n), "Durée non proposée."),
    ),
    ville: text(120).pipe(z.string().min(1, REQUIRED)),
    adresse_precise: text(500),
    distance_en_km: integer(0, 1000).transform((n) => n ?? 0),
    bar_mobile: z.unknown().optional().transform((v) =>
      v === true || v === "true" || v === "on" || v === "1"
    ),
    type_de_recette: z.enum(["signature", "classic", "mocktail"], { error: "Type de recette non proposé." }),
    creation_de_recette: z.unknown().optional().transform((v) =>
      v === true || v === "true" || v === "on" || v === "1"
    ),
    description: text(2000),
    firstname: text(120).pipe(z.string().min(1, REQUIRED)),
    lastname: text(120).pipe(z.string().min(1, REQUIRED)),
    email: text(254).pipe(
      z.string().min(1, "Votre email est requis.").refine(isStrictEmail, EMAIL_INVALID_MESSAGE),
    ).transform((s) => s.toLowerCase()),
    phone: text(40).pipe(z.string().min(1, "Votre téléphone est requis.")),
    consent: z.unknown().optional().transform((v) => v === true || v === "true" || v === "on" || v === "1")
      .pipe(
        z.literal(true, {
          error: "Vous devez accepter d'être contacté dans le cadre de l'organisation de votre événement",
        }),
      ),
  });
}

export type QuoteRequestInput = z.output<ReturnType<typeof quoteRequestSchema>>;
