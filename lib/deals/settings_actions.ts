// Use cases of the quote engine's settings: the default pricing grid and the 'Paramètres' screen
// (admins), a partner's own grid and cocktail catalogue ('Ma grille tarifaire', 'Mes cocktails'), the
// option fields, and the partner list. Reads for pricing take the use case's transaction.
import { type Actor, transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import type { Tx } from "../db/database.ts";
import { AppError } from "../errors.ts";
import { cleanStoredRichText, sanitizeRichText } from "../richtext/sanitize.ts";
import { MAX_RICH_TEXT, RICH_TEXT_TOO_LONG } from "../richtext/rules.ts";
import {
  type CommissionTier,
  DEFAULT_COMMISSION_TIERS,
  DEFAULT_PRICING,
  GRID_SAVED,
  type GridError,
  type PricingConfig,
  validateCommissionTiers,
  validatePricing,
} from "./pricing.ts";
import { COCKTAIL_MESSAGES, type FieldDefinition, FIELDS } from "./rules.ts";
import {
  type CompanyListItem,
  listCompanies,
  readCompanySetting,
  readSetting,
  writeCompanySetting,
  writeSetting,
} from "./store.ts";

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

const SETTING_BOUNDS: Record<string, [number, number, boolean]> = {
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

export async function loadDeviseurSettings(tx: Tx): Promise<Deviseur> {
  return deviseurOf(
    (await readSetting<NamedSetting[]>(tx, "deviseur_settings"))?.value ?? DEFAULT_DEVISEUR_SETTINGS,
  );
}

/** The partner's own grid when it has one, else the default grid (spec: the partner's overrides). */
export async function loadPricing(tx: Tx, companyId: string | null): Promise<PricingConfig> {
  if (companyId) {
    const own = await readCompanySetting<PricingConfig>(tx, companyId, "deviseur_pricing");
    if (own && !validatePricing(own.value)) return own.value;
  }
  const base = await readSetting<PricingConfig>(tx, "deviseur_pricing");
  return base && !validatePricing(base.value) ? base.value : DEFAULT_PRICING;
}

export async function loadCommissionTiers(tx: Tx): Promise<CommissionTier[]> {
  return (await readSetting<CommissionTier[]>(tx, "deviseur_fixed_commission_tiers"))?.value ??
    DEFAULT_COMMISSION_TIERS;
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
export const COCKTAIL_REQUIRED = COCKTAIL_MESSAGES.required;

export async function loadCatalogue(tx: Tx, companyId: string): Promise<Catalogue> {
  const stored = await readCompanySetting<Catalogue>(tx, companyId, "cocktails");
  return { ...EMPTY_CATALOGUE, ...(stored?.value ?? {}) };
}

function checkCatalogue(value: unknown): Catalogue {
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
// GET/PATCH /api/settings/{key} (everyone reads; admins write) — each key with its own check.

type SettingType = "text" | "boolean" | "json" | "number";

const RICH_KEYS = [
  "deviseur_description",
  "deviseur_custom_field_1",
  "deviseur_custom_field_2",
  "deviseur_signtext_field",
];
const BOOLEAN_KEYS = [
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

const DEFAULTS: Record<string, { value: unknown; type: SettingType }> = {
  deviseur_pricing: { value: DEFAULT_PRICING, type: "json" },
  deviseur_settings: { value: DEFAULT_DEVISEUR_SETTINGS, type: "json" },
  deviseur_fixed_commission_tiers: { value: DEFAULT_COMMISSION_TIERS, type: "json" },
  ...Object.fromEntries(RICH_KEYS.map((k) => [k, { value: "", type: "text" as const }])),
  ...Object.fromEntries(BOOLEAN_KEYS.map((k) => [k, { value: "0", type: "boolean" as const }])),
};

function gridFailure(error: GridError): AppError {
  return new AppError("validation", error.message, {
    [error.section]: error.message,
    _row: String(error.index),
  });
}

/** Checks and normalises a setting's value (rich texts sanitised, booleans stored as '1'). */
function checkSetting(key: string, value: unknown): { value: unknown; type: SettingType } {
  if (key === "deviseur_pricing") {
    const error = validatePricing(value as PricingConfig);
    if (error) throw gridFailure(error);
    return { value, type: "json" };
  }
  if (key === "deviseur_fixed_commission_tiers") {
    const error = validateCommissionTiers(value as CommissionTier[]);
    if (error) throw gridFailure(error);
    return { value, type: "json" };
  }
  if (key === "deviseur_settings") {
    if (!Array.isArray(value)) throw new AppError("validation", "Les paramètres sont invalides.");
    const list = DEFAULT_DEVISEUR_SETTINGS.map((d) => {
      const sent = (value as NamedSetting[]).find((s) => s?.id === d.id);
      const v = typeof sent?.value === "string"
        ? Number(String(sent.value).replace(",", "."))
        : sent?.value ?? d.value;
      const [min, max, integer] = SETTING_BOUNDS[d.id];
      if (
        typeof v !== "number" || !Number.isFinite(v) || v < min || v > max ||
        (integer && !Number.isInteger(v))
      ) {
        const message = `« ${d.label} » doit être compris entre ${min} et ${max}.`;
        throw new AppError("validation", message, { [d.id]: message });
      }
      return { ...d, value: v };
    });
    return { value: list, type: "json" };
  }
  if (RICH_KEYS.includes(key)) {
    if (typeof value !== "string") throw new AppError("validation", "Ce texte est invalide.");
    if (value.length > MAX_RICH_TEXT) throw new AppError("validation", RICH_TEXT_TOO_LONG);
    return { value: sanitizeRichText(value), type: "text" };
  }
  if (BOOLEAN_KEYS.includes(key)) {
    const on = value === true || value === "1" || value === 1 || value === "true";
    return { value: on ? "1" : "0", type: "boolean" };
  }
  throw new AppError("not_found", "Ce réglage n'existe pas.");
}

export async function getSetting(
  deps: Deps,
  actor: Actor,
  key: string,
): Promise<{ value: unknown; type: string }> {
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  if (!SETTING_KEYS.includes(key)) throw new AppError("not_found", "Ce réglage n'existe pas.");
  const stored = await transactionAs(deps.db, actor, (tx) => readSetting(tx, key));
  const setting = stored ?? DEFAULTS[key];
  return { ...setting, value: readable(key, setting.value) };
}

/** A setting's value as shown: rich texts sanitised again under today's rules (lib/richtext). */
function readable(key: string, value: unknown): unknown {
  return RICH_KEYS.includes(key) && typeof value === "string" ? cleanStoredRichText(value) : value;
}

export async function saveSetting(
  deps: Deps,
  actor: Actor,
  key: string,
  value: unknown,
): Promise<{ value: unknown; type: string; message: string }> {
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  if (actor.user.type !== "Admin") throw new AppError("forbidden");
  if (!SETTING_KEYS.includes(key)) throw new AppError("not_found", "Ce réglage n'existe pas.");
  const checked = checkSetting(key, value);
  await transactionAs(
    deps.db,
    actor,
    (tx) => writeSetting(tx, key, checked.value, checked.type, actor.user.id),
  );
  await deps.logger.info("deals", "Réglage du deviseur modifié", { key, adminId: actor.user.id });
  return {
    ...checked,
    message: key === "deviseur_pricing" ? GRID_SAVED : "Les paramètres ont été sauvegardés.",
  };
}

// ---------------------------------------------------------------------------------------------------
// GET/PATCH /api/company/settings/{name}/{userId}: a partner's own records, or any partner's for admins.

export const COMPANY_SETTING_NAMES = ["deviseur_pricing", "cocktails"];

function companyAccess(actor: Actor, userId: string): void {
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  const own = actor.user.type === "Company" && actor.user.id === userId;
  if (!own && actor.user.type !== "Admin") throw new AppError("forbidden");
}

export async function getCompanySetting(
  deps: Deps,
  actor: Actor,
  name: string,
  userId: string,
): Promise<{ value: unknown; type: string } | null> {
  companyAccess(actor, userId);
  if (!COMPANY_SETTING_NAMES.includes(name)) throw new AppError("not_found", "Ce réglage n'existe pas.");
  return await transactionAs(deps.db, actor, (tx) => readCompanySetting(tx, userId, name));
}

export async function saveCompanySetting(
  deps: Deps,
  actor: Actor,
  name: string,
  userId: string,
  value: unknown,
): Promise<{ value: unknown; type: string; message: string }> {
  companyAccess(actor, userId);
  if (!COMPANY_SETTING_NAMES.includes(name)) throw new AppError("not_found", "Ce réglage n'existe pas.");
  let checked: unknown;
  if (name === "deviseur_pricing") {
    const error = validatePricing(value as PricingConfig);
    if (error) throw gridFailure(error);
    checked = value;
  } else {
    checked = checkCatalogue(value);
  }
  await transactionAs(deps.db, actor, async (tx) => {
    const [target] = await tx`select 1 from public.users where id = ${userId} and type = 'Company'`;
    if (!target) throw new AppError("not_found", "Partenaire introuvable.");
    await writeCompanySetting(tx, userId, name, checked, "json");
  });
  return {
    value: checked,
    type: "json",
    message: name === "deviseur_pricing" ? GRID_SAVED : COCKTAIL_MESSAGES.saved,
  };
}

export function getField(name: string): FieldDefinition {
  if (!Object.hasOwn(FIELDS, name)) throw new AppError("not_found", "Ce champ n'existe pas.");
  const field = FIELDS[name];
  return field;
}

export async function listPartners(deps: Deps, actor: Actor): Promise<CompanyListItem[]> {
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  if (actor.user.type !== "Admin") throw new AppError("forbidden");
  return await transactionAs(deps.db, actor, (tx) => listCompanies(tx));
}

/** Every setting of the admin's 'Paramètres' tab, in one transaction (defaults where none is saved). */
export async function deviseurScreen(
  deps: Deps,
  actor: Actor,
  keys: readonly string[],
): Promise<Record<string, unknown>> {
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  if (actor.user.type !== "Admin") throw new AppError("forbidden");
  return await transactionAs(deps.db, actor, async (tx) => {
    const values: Record<string, unknown> = {};
    for (const key of keys) {
      if (!SETTING_KEYS.includes(key)) throw new AppError("not_found", "Ce réglage n'existe pas.");
      values[key] = readable(key, ((await readSetting(tx, key)) ?? DEFAULTS[key]).value);
    }
    return values;
  });
}

/** 'Ma grille tarifaire': the partner's own grid, or the default grid it starts from. */
export async function partnerPricingForEdit(
  deps: Deps,
  actor: Actor,
): Promise<{ config: PricingConfig; own: boolean }> {
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  if (actor.user.type !== "Company") throw new AppError("forbidden");
  return await transactionAs(deps.db, actor, async (tx) => {
    const own = await readCompanySetting<PricingConfig>(tx, actor.user.id, "deviseur_pricing");
    if (own) return { config: own.value, own: true };
    const base = await readSetting<PricingConfig>(tx, "deviseur_pricing");
    return { config: base?.value ?? DEFAULT_PRICING, own: false };
  });
}

/** 'Mes cocktails': the partner's catalogue. */
export async function ownCatalogue(deps: Deps, actor: Actor): Promise<Catalogue> {
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  if (actor.user.type !== "Company") throw new AppError("forbidden");
  return await transactionAs(deps.db, actor, (tx) => loadCatalogue(tx, actor.user.id));
}
