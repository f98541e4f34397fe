// Pricing a deal's request with a grid, and its totals with the commission tiers: shared by the quote
// request and the edits that re-price a deal (a partner assigned, lines or properties changed).
import type { Tx } from "../../db/database.ts";
import type { DealSettings } from "../rules.ts";
import type { StoredLine } from "../store.ts";
import {
  computeTotals,
  priceQuote,
  type PricingConfig,
  type QuoteRequest,
  type QuoteTotals,
} from "../pricing.ts";
import { loadCommissionTiers } from "../settings_store.ts";

/** The engine's request read from a deal's properties and settings. */
export function quoteRequestOf(
  properties: Record<string, unknown>,
  settings: Partial<DealSettings>,
): QuoteRequest {
  const listType = settings.cocktailListType;
  const recipe = properties.type_de_recette;
  return {
    guests: Number(properties.nombre_de_participants) || 0,
    durationMinutes: Number(properties.duree_2_service) || 120,
    recipeType: recipe === "classic" || recipe === "mocktail"
      ? recipe
      : listType === "classic" || listType === "mocktail"
      ? listType
      : "signature",
    customRecipe: properties.creation_de_recette === "true" || listType === "creation",
    mobileBar: properties.bar_mobile___table_a_dispo === "true",
    distanceKm: Number(properties.distance_en_km) || 0,
  };
}

export interface Priced {
  lines: StoredLine[];
  calculations: { nbCocktails: number; officialStaffCount: number };
}

/** The lines the grid gives for the request, with the engine's counts. */
export function generate(config: PricingConfig, request: QuoteRequest): Priced {
  const quote = priceQuote(config, request);
  return {
    lines: quote.lines,
    calculations: { nbCocktails: quote.nbCocktails, officialStaffCount: quote.staff },
  };
}

/** The totals of `lines` (the commission tiers read in `tx`); totalHt is the quote's total HT. */
export async function totalsFor(
  tx: Tx,
  lines: StoredLine[],
  parameters: { vat: number; commissionRate: number },
  guests: number,
  nbCocktails: number,
): Promise<{ totals: QuoteTotals; totalHt: number }> {
  const totals = computeTotals(lines, parameters, {
    guests,
    nbCocktails,
    commissionTiers: await loadCommissionTiers(tx),
  });
  return { totals, totalHt: totals.totalInvoiceByPartner };
}
