// The quote engine's settings, pure (islands import the types): the deviseur settings ('Paramètres',
// spec 001 §2.11) with their defaults and bounds, a partner's cocktail catalogue ('Mes cocktails') and
// its check, the setting keys the API knows and their defaults, the option fields.
import { AppError } from "../errors.ts";
import { DEFAULT_COMMISSION_TIERS, DEFAULT_PRICING, type GridError } from "./pricing.ts";
import { COCKTAIL_MESSAGES, type FieldDefinition, FIELDS } from "./rules.ts";

// ---------------------------------------------------------------------------------------------------
// 'Paramètres' (deviseur settings): named numeric settings with a suffix (spec 001 §2.11).

export interface NamedSetting {
  id: string;
  label: string;
  value: number;
  suffix: string;
}

export const DEFAULT_DEVISEUR_SETTINGS: NamedSetting[] = [
  { id: "commission_rate", label: "Taux de la gestion de projet", value: 15, suffix: "%" },
  { id: "vat_rate", label: "Taux de TVA", value: 20, suffix: "%" },
  { id: "deposit_percentage", label: "Acompte demandé", value: 30, suffix: "%" },
  { id: "quote_validity_days", label: "Validité du devis", value: 30, suffix: "jours" },
  { id: "nb_cocktails_authorized", label: "Cocktails au choix du client", value: 3, suffix: "cocktails" },
];

/** [min, max, integer] of each deviseur setting. */
export const SETTING_BOUNDS: Record<string, [number, number, boolean]> = {
  commission_rate: [0, 100, false],
  vat_rate: [0, 100, false],
  deposit_percentage: [1, 100, true],
  quote_validity_days: [1, 365, true],
  nb_cocktails_authorized: [1, 50, true],
};

export interface Deviseur {
  commissionRate: number;
  vatRate: number;
  depositPercentage: number;
  quoteValidityDays: number;
  nbCocktailsAuthorized: number;
}

export function deviseurOf(list: NamedSetting[]): Deviseur {
  const value = (id: string) =>
    list.find((s) => s.id === id)?.value ?? DEFAULT_DEVISEUR_SETTINGS.find((s) => s.id === id)!.value;
  return {
    commissionRate: value("commission_rate"),
    vatRate: value("vat_rate"),
    depositPercentage: value("deposit_percentage"),
    quoteValidityDays: value("quote_validity_days"),
    nbCocktailsAuthorized: value("nb_cocktails_authorized"),
  };
}

// ---------------------------------------------------------------------------------------------------
// The cocktail catalogue ('Mes cocktails'): lists signature, classic and mocktail.

export interface CatalogueCocktail {
  id: string;
  name: string;
  description: string;
  photo: string;
}

export type Catalogue = Record<"signature" | "classic" | "mocktail", CatalogueCocktail[]>;

export const EMPTY_CATALOGUE: Catalogue = { signature: [], classic: [], mocktail: [] };
const COCKTAIL_REQUIRED = COCKTAIL_MESSAGES.required;

/** A catalogue as sent by the form, checked and normalised (ids kept when well-formed, else new). */
export function checkCatalogue(value: unknown): Catalogue {
  const invalid = () => new AppError("validation", COCKTAIL_REQUIRED, { cocktails: COCKTAIL_REQUIRED });
  if (!value || typeof value !== "object" || Array.isArray(value)) throw invalid();
  const catalogue: Catalogue = { signature: [], classic: [], mocktail: [] };
  const ids = new Set<string>();
  for (const list of ["signature", "classic", "mocktail"] as const) {
    const items = (value as Record<string, unknown>)[list] ?? [];
    if (!Array.isArray(items) || items.length > 100) throw invalid();
    for (const item of items) {
      const c = item as Record<string, unknown>;
      const name = typeof c?.name === "string" ? c.name.trim() : "";
      const description = typeof c?.description === "string" ? c.description.trim() : "";
      const id = typeof c?.id === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(c.id) ? c.id : crypto.randomUUID();
      if (!name || !description || name.length > 120 || description.length > 1000 || ids.has(id)) {
        throw invalid();
      }
      ids.add(id);
      catalogue[list].push({
        id,
        name,
        description,
        photo: typeof c.photo === "string" ? c.photo.slice(0, 500) : "",
      });
    }
  }
  return catalogue;
}

// ---------------------------------------------------------------------------------------------------
// GET/PATCH /api/settings/{key} (admins read and write; a partner reads PARTNER_READABLE_SETTINGS) —
// each key with its own check.

export type SettingType = "text" | "boolean" | "json" | "number";

export const RICH_KEYS = [
  "deviseur_description",
  "deviseur_custom_field_1",
  "deviseur_custom_field_2",
  "deviseur_signtext_field",
];
export const BOOLEAN_KEYS = [
  "deviseur_show_custom_field_1_on_invoice",
  "deviseur_show_custom_field_2_on_invoice",
  "deviseur_show_custom_field_1_on_quote",
  "deviseur_show_custom_field_2_on_quote",
];
export const SETTING_KEYS = [
  "deviseur_pricing",
  "deviseur_settings",
  "deviseur_fixed_commission_tiers",
  ...RICH_KEYS,
  ...BOOLEAN_KEYS,
];

/** What a partner reads through the API: the base grid its own 'Ma grille tarifaire' starts from. */
export const PARTNER_READABLE_SETTINGS = ["deviseur_pricing"];

/** What a setting reads as while none is saved. */
export const SETTING_DEFAULTS: Record<string, { value: unknown; type: SettingType }> = {
  deviseur_pricing: { value: DEFAULT_PRICING, type: "json" },
  deviseur_settings: { value: DEFAULT_DEVISEUR_SETTINGS, type: "json" },
  deviseur_fixed_commission_tiers: { value: DEFAULT_COMMISSION_TIERS, type: "json" },
  ...Object.fromEntries(RICH_KEYS.map((k) => [k, { value: "", type: "text" as const }])),
  ...Object.fromEntries(BOOLEAN_KEYS.map((k) => [k, { value: "0", type: "boolean" as const }])),
};

export const SETTING_NOT_FOUND = "Ce réglage n'existe pas.";

/** GET/PATCH /api/company/settings/{name}/{userId}: a partner's own records. */
export const COMPANY_SETTING_NAMES = ["deviseur_pricing", "cocktails"];

/** A grid's first error as the form shows it (the section's field, the row). */
export function gridFailure(error: GridError): AppError {
  return new AppError("validation", error.message, {
    [error.section]: error.message,
    _row: String(error.index),
  });
}

/** GET /api/settings/field/{name}: an option field's definition. */
export function getField(name: string): FieldDefinition {
  if (!Object.hasOwn(FIELDS, name)) throw new AppError("not_found", "Ce champ n'existe pas.");
  const field = FIELDS[name];
  return field;
}
