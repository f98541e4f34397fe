// The quote engine ("deviseur"), pure: the pricing grid (spec 001 §3 'Pricing config'), its
// validation (§5, with the spec's messages), and the pricing of a request into quote lines and totals
// (§9, 000 §9). Grid amounts are euros as the API carries them; every computation is in integer cents.
// The formulas are written out in ARCHITECTURE.md.
import { centsToEuros, eurosToCents, percentOf, percentToBasisPoints } from "../money.ts";
import { durationLabel } from "./rules.ts";

export type RecipeType = "signature" | "classic" | "mocktail";

export interface GridSetting {
  id: "min_cocktail" | "nb_cocktail_per_h_per_person" | "staff_capacity";
  value: number;
}
export interface FlatFee {
  id: "fdd" | "bm" | "fcr";
  value: number;
}
export interface CocktailTier {
  from: number;
  to: number;
  signature: number;
  classic: number;
  mocktail: number;
}
/** Staff by guests. Tiers created by the form use fromGuests/toGuests/staffCount: both spellings
 * exist (spec 001 §3) and are read alike. */
export interface StaffTier {
  from?: number;
  to?: number;
  count?: number;
  fromGuests?: number;
  toGuests?: number;
  staffCount?: number;
}
/** Cost of one bartender for a service duration, in minutes. */
export interface DurationTier {
  from: number;
  to: number;
  cost: number;
}

export interface PricingConfig {
  settings: GridSetting[];
  flatFees: FlatFee[];
  cocktailTiers: CocktailTier[];
  staffTiers: StaffTier[];
  durationTiers: DurationTier[];
}

/** Fixed retro-commission by total quote amount (euros HT), paid by the partner. */
export interface CommissionTier {
  from: number;
  to: number;
  cost: number;
}

export const SETTING_LABELS: Record<GridSetting["id"], string> = {
  min_cocktail: "Nombre minimum de cocktails",
  nb_cocktail_per_h_per_person: "Cocktails par heure et par personne",
  staff_capacity: "Cocktails par heure et par barman",
};
export const FLAT_FEE_LABELS: Record<FlatFee["id"], string> = {
  fdd: "Frais de déplacement (par km)",
  bm: "Bar mobile",
  fcr: "Création de recettes (forfait)",
};

export const DEFAULT_PRICING: PricingConfig = {
  settings: [
    { id: "min_cocktail", value: 50 },
    { id: "nb_cocktail_per_h_per_person", value: 1 },
    { id: "staff_capacity", value: 60 },
  ],
  flatFees: [
    { id: "fdd", value: 0.6 },
    { id: "bm", value: 150 },
    { id: "fcr", value: 120 },
  ],
  cocktailTiers: [
    { from: 1, to: 100, signature: 9, classic: 7.5, mocktail: 6 },
    { from: 101, to: 200, signature: 8, classic: 6.5, mocktail: 5.5 },
    { from: 201, to: 400, signature: 7, classic: 6, mocktail: 5 },
    { from: 401, to: 100000, signature: 6.5, classic: 5.5, mocktail: 4.5 },
  ],
  staffTiers: [
    { from: 1, to: 50, count: 1 },
    { from: 51, to: 120, count: 2 },
    { from: 121, to: 250, count: 3 },
    { from: 251, to: 100000, count: 4 },
  ],
  durationTiers: [
    { from: 1, to: 120, cost: 180 },
    { from: 121, to: 240, cost: 280 },
    { from: 241, to: 360, cost: 380 },
    { from: 361, to: 100000, cost: 480 },
  ],
};

export const DEFAULT_COMMISSION_TIERS: CommissionTier[] = [
  { from: 0, to: 1000, cost: 50 },
  { from: 1001, to: 3000, cost: 100 },
  { from: 3001, to: 1000000, cost: 150 },
];

// ---------------------------------------------------------------------------------------------------
// Validation (spec 001 §5): cocktail tiers, then staff tiers, then duration tiers; the first error
// stops the save and names the row to highlight.

export const GRID_SAVED = "Grille tarifaire sauvegardée avec succès.";
export const TIER_NOT_ABOVE = 'La valeur "Entre" doit être supérieure à la tranche précédente.';
export const TIER_GAP =
  'Il ne doit pas y avoir de trou entre les tranches (le "Entre" doit être égal à la tranche précédente + 1).';
const GRID_SHAPE_ERROR = "La grille tarifaire est incomplète.";

export function tierError(kind: "cocktails" | "staff" | "durée" | null, n: number): string {
  const name = kind ? `tranche de ${kind} ${n}` : `tranche ${n}`;
  return `Erreur dans la ${name}: Vérifiez que toutes les valeurs sont renseignées et que les tranches sont cohérentes.`;
}

function settingError(label: string): string {
  return `Veuillez renseigner une valeur positive ou nulle pour « ${label} ».`;
}

export type GridSection =
  | "settings"
  | "flatFees"
  | "cocktailTiers"
  | "staffTiers"
  | "durationTiers"
  | "tiers";

export interface GridError {
  message: string;
  section: GridSection;
  /** The row to highlight, from 0. */
  index: number;
}

const isAmount = (v: unknown) =>
  typeof v === "number" && Number.isFinite(v) && v >= 0 && eurosToCents(v) !== null;
const isCount = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0;

export function staffTierBounds(tier: StaffTier): { from: number; to: number; count: number } {
  return {
    from: (tier.from ?? tier.fromGuests) as number,
    to: (tier.to ?? tier.toGuests) as number,
    count: (tier.count ?? tier.staffCount) as number,
  };
}

/** Checks a list of [from, to] tiers: each well formed, each starting right after the previous one. */
function checkTiers(
  tiers: { from: number; to: number; values: unknown[] }[],
  section: GridSection,
  kind: "cocktails" | "staff" | "durée" | null,
  valueOk: (v: unknown) => boolean,
): GridError | null {
  for (let i = 0; i < tiers.length; i++) {
    const { from, to, values } = tiers[i];
    if (!isCount(from) || !isCount(to) || from >= to || !values.every(valueOk)) {
      return { message: tierError(kind, i + 1), section, index: i };
    }
    if (i > 0) {
      const previous = tiers[i - 1].to;
      if (from <= previous) return { message: TIER_NOT_ABOVE, section, index: i };
      if (from !== previous + 1) return { message: TIER_GAP, section, index: i };
    }
  }
  return null;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The first problem of a pricing grid, or null when it can be saved. */
export function validatePricing(config: PricingConfig): GridError | null {
  if (
    !isObject(config) || !Array.isArray(config.settings) || !Array.isArray(config.flatFees) ||
    !Array.isArray(config.cocktailTiers) || !Array.isArray(config.staffTiers) ||
    !Array.isArray(config.durationTiers) ||
    config.cocktailTiers.length === 0 || config.staffTiers.length === 0 ||
    config.durationTiers.length === 0 ||
    !config.settings.every(isObject) || !config.flatFees.every(isObject)
  ) {
    return { message: GRID_SHAPE_ERROR, section: "settings", index: 0 };
  }
  for (const section of ["cocktailTiers", "staffTiers", "durationTiers"] as const) {
    const index = (config[section] as unknown[]).findIndex((tier) => !isObject(tier));
    if (index >= 0) {
      const kind = section === "cocktailTiers" ? "cocktails" : section === "staffTiers" ? "staff" : "durée";
      return { message: tierError(kind, index + 1), section, index };
    }
  }
  const cocktails = checkTiers(
    config.cocktailTiers.map((t) => ({
      from: t.from,
      to: t.to,
      values: [t.signature, t.classic, t.mocktail],
    })),
    "cocktailTiers",
    "cocktails",
    isAmount,
  );
  if (cocktails) return cocktails;
  const staff = checkTiers(
    config.staffTiers.map((t) => {
      const b = staffTierBounds(t);
      return { from: b.from, to: b.to, values: [b.count] };
    }),
    "staffTiers",
    "staff",
    isCount,
  );
  if (staff) return staff;
  const durations = checkTiers(
    config.durationTiers.map((t) => ({ from: t.from, to: t.to, values: [t.cost] })),
    "durationTiers",
    "durée",
    isAmount,
  );
  if (durations) return durations;
  for (const [index, id] of (Object.keys(SETTING_LABELS) as GridSetting["id"][]).entries()) {
    const value = config.settings.find((s) => s.id === id)?.value;
    const positive = typeof value === "number" && Number.isFinite(value) && value >= 0 &&
      (id !== "staff_capacity" || value > 0) &&
      (id === "nb_cocktail_per_h_per_person" || Number.isInteger(value));
    if (!positive) return { message: settingError(SETTING_LABELS[id]), section: "settings", index };
  }
  for (const [index, id] of (Object.keys(FLAT_FEE_LABELS) as FlatFee["id"][]).entries()) {
    const value = config.flatFees.find((f) => f.id === id)?.value;
    if (!isAmount(value)) return { message: settingError(FLAT_FEE_LABELS[id]), section: "flatFees", index };
  }
  return null;
}

/** 'Commission fixe' tiers (spec 001 §5): same rules, messages 'Erreur dans la tranche {n}: …'. */
export function validateCommissionTiers(tiers: CommissionTier[]): GridError | null {
  if (!Array.isArray(tiers)) return { message: tierError(null, 1), section: "tiers", index: 0 };
  const broken = tiers.findIndex((tier) => !isObject(tier));
  if (broken >= 0) return { message: tierError(null, broken + 1), section: "tiers", index: broken };
  return checkTiers(
    tiers.map((t) => ({ from: t.from, to: t.to, values: [t.cost] })),
    "tiers",
    null,
    isAmount,
  );
}

// ---------------------------------------------------------------------------------------------------
// Pricing.

export interface QuoteRequest {
  guests: number;
  durationMinutes: number;
  recipeType: RecipeType;
  customRecipe: boolean;
  mobileBar: boolean;
  distanceKm: number;
}

/** A quote line in cents (the API shows euros). */
export interface PricedLine {
  label: string;
  qty: number;
  unitCost: number;
  totalCost: number;
}

export interface PricingParameters {
  /** VAT rate in percent: 20, or 0 when the partner is VAT-exempt. */
  vat: number;
  /** Management fee rate in percent of the total cost. */
  commissionRate: number;
}

export interface QuoteTotals {
  /** Sum of the cost lines (what the partner charges), cents HT. */
  totalCost: number;
  /** totalCost × commissionRate / 100. */
  managementFee: number;
  /** The 'Gestion de projet' line: half the fee, billed to the customer. */
  projectManagement: number;
  /** totalCost + half the fee: the quote's total HT. */
  totalInvoiceByPartner: number;
  vatAmount: number;
  /** totalInvoiceByPartner + VAT. */
  totalTTC: number;
  /** 'Commission fixe' of the tier the total HT falls in. */
  fixedCommission: number;
  /** totalInvoiceByPartner / participants, rounded to the cent. */
  pricePerPerson: number;
  /** totalInvoiceByPartner / cocktails, rounded to the cent. */
  averageCocktailPrice: number;
}

const RECIPE_LABELS: Record<RecipeType, string> = {
  signature: "Cocktails signature",
  classic: "Cocktails classiques",
  mocktail: "Mocktails",
};

function setting(config: PricingConfig, id: GridSetting["id"]): number {
  return config.settings.find((s) => s.id === id)?.value ??
    DEFAULT_PRICING.settings.find((s) => s.id === id)!.value;
}

function fee(config: PricingConfig, id: FlatFee["id"]): number {
  const value = config.flatFees.find((f) => f.id === id)?.value ?? 0;
  return eurosToCents(value) ?? 0;
}

/** The tier `value` falls in; below the first, the first; beyond the last, the last. */
function tierFor<T>(tiers: T[], value: number, bounds: (t: T) => { from: number; to: number }): T {
  const found = tiers.find((t) => value >= bounds(t).from && value <= bounds(t).to);
  if (found) return found;
  return value < bounds(tiers[0]).from ? tiers[0] : tiers[tiers.length - 1];
}

/** nbCocktails = max(min_cocktail, ⌈rate × guests × hours⌉). */
export function cocktailCount(config: PricingConfig, guests: number, durationMinutes: number): number {
  const raw = setting(config, "nb_cocktail_per_h_per_person") * guests * (durationMinutes / 60);
  // The float product of exact inputs can land a hair above an integer (e.g. 1.1 × 30 × 1.5).
  return Math.max(setting(config, "min_cocktail"), Math.ceil(raw - 1e-9));
}

/** Bartenders: the guests' tier, or more when the cocktails per hour exceed what they can serve. */
export function staffCount(
  config: PricingConfig,
  guests: number,
  cocktails: number,
  durationMinutes: number,
): number {
  const tier = staffTierBounds(tierFor(config.staffTiers, guests, staffTierBounds));
  const perHour = cocktails / (durationMinutes / 60);
  const needed = Math.ceil(perHour / setting(config, "staff_capacity") - 1e-9);
  return Math.max(tier.count, needed, 1);
}

export interface PricedQuote {
  nbCocktails: number;
  staff: number;
  lines: PricedLine[];
}

/** The cost lines of a request, priced with `config` (the partner's grid or the default one). */
export function priceQuote(config: PricingConfig, request: QuoteRequest): PricedQuote {
  const nbCocktails = cocktailCount(config, request.guests, request.durationMinutes);
  const staff = staffCount(config, request.guests, nbCocktails, request.durationMinutes);
  const cocktailTier = tierFor(config.cocktailTiers, nbCocktails, (t) => t);
  const unit = eurosToCents(cocktailTier[request.recipeType]) ?? 0;
  const staffUnit = eurosToCents(tierFor(config.durationTiers, request.durationMinutes, (t) => t).cost) ?? 0;
  const lines: PricedLine[] = [
    {
      label: RECIPE_LABELS[request.recipeType],
      qty: nbCocktails,
      unitCost: unit,
      totalCost: unit * nbCocktails,
    },
    {
      label: `Bartender${staff > 1 ? "s" : ""} (${durationLabel(request.durationMinutes)} de service)`,
      qty: staff,
      unitCost: staffUnit,
      totalCost: staffUnit * staff,
    },
  ];
  const km = Math.round(request.distanceKm);
  if (km > 0) {
    const perKm = fee(config, "fdd");
    lines.push({ label: `Frais de déplacement (${km} km)`, qty: km, unitCost: perKm, totalCost: perKm * km });
  }
  if (request.mobileBar) {
    const bar = fee(config, "bm");
    lines.push({ label: "Bar mobile", qty: 1, unitCost: bar, totalCost: bar });
  }
  if (request.customRecipe) {
    const creation = fee(config, "fcr");
    lines.push({ label: "Création de recettes sur mesure", qty: 1, unitCost: creation, totalCost: creation });
  }
  return { nbCocktails, staff, lines };
}

/** Totals of any set of lines (generated or edited by hand). */
export function computeTotals(
  lines: Pick<PricedLine, "totalCost">[],
  parameters: PricingParameters,
  context: { guests: number; nbCocktails: number; commissionTiers?: CommissionTier[] },
): QuoteTotals {
  const totalCost = lines.reduce((sum, line) => sum + line.totalCost, 0);
  const managementFee = percentOf(totalCost, percentToBasisPoints(parameters.commissionRate));
  const projectManagement = Math.round(managementFee / 2);
  const totalInvoiceByPartner = totalCost + projectManagement;
  const vatAmount = percentOf(totalInvoiceByPartner, percentToBasisPoints(parameters.vat));
  const tiers = context.commissionTiers ?? DEFAULT_COMMISSION_TIERS;
  const fixedCommission = tiers.length
    ? eurosToCents(tierFor(tiers, centsToEuros(totalInvoiceByPartner), (t) => t).cost) ?? 0
    : 0;
  return {
    totalCost,
    managementFee,
    projectManagement,
    totalInvoiceByPartner,
    vatAmount,
    totalTTC: totalInvoiceByPartner + vatAmount,
    fixedCommission,
    pricePerPerson: context.guests > 0 ? Math.round(totalInvoiceByPartner / context.guests) : 0,
    averageCocktailPrice: context.nbCocktails > 0
      ? Math.round(totalInvoiceByPartner / context.nbCocktails)
      : 0,
  };
}
