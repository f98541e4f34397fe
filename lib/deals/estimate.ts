// The instant estimate of a quote request (spec 000, 'Demande de devis'), pure and shared with the
// request form's island. The server computes every amount with the quote engine and hands them over
// in cents (the page's island props); POST /api/deal/request answers them in euros, the API's unit,
// and the island turns that answer back into cents here, in one place.
import { centsToEuros, eurosToCents } from "../money.ts";

/** Amounts in cents. */
export interface RequestEstimate {
  nbCocktails: number;
  staff: number;
  /** The quote's total HT (the partner's lines plus 'Gestion de projet'). */
  totalHT: number;
  /** The 'Gestion de projet' line (half the management fee). */
  projectManagement: number;
  vatAmount: number;
  totalTTC: number;
  pricePerPerson: number;
  lines: { label: string; qty: number; unitCost: number; totalCost: number }[];
}

/** The same in euros, as the API answers it. */
export type RequestEstimateJson = RequestEstimate;

const AMOUNTS = ["totalHT", "projectManagement", "vatAmount", "totalTTC", "pricePerPerson"] as const;

function convert(estimate: RequestEstimate, unit: (amount: number) => number): RequestEstimate {
  const out = { ...estimate };
  for (const key of AMOUNTS) out[key] = unit(estimate[key] ?? 0);
  out.lines = estimate.lines.map((l) => ({ ...l, unitCost: unit(l.unitCost), totalCost: unit(l.totalCost) }));
  return out;
}

export function estimateToJson(estimate: RequestEstimate): RequestEstimateJson {
  return convert(estimate, centsToEuros);
}

export function estimateFromJson(json: RequestEstimateJson): RequestEstimate {
  return convert(json, (euros) => eurosToCents(euros) ?? Math.round(euros * 100));
}
