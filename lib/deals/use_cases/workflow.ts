// What the status workflow's use cases share: the transition table's answer as a status (409 with its
// French message otherwise), the admin's edit lock, the cocktail list's validation, and the answer of
// an action on a deal.
import type { Tx } from "../../db/database.ts";
import { AppError } from "../../errors.ts";
import {
  COCKTAIL_VALIDATION_HINT,
  type CocktailValidation,
  type DealStatus,
  type TransitionResult,
  validateCocktailList,
} from "../rules.ts";
import type { DealRow } from "../store.ts";
import type { DealPayload } from "../payload.ts";
import { settingsOf } from "../payload.ts";
import { loadCatalogue } from "../settings_store.ts";

export interface UpdateResult {
  deal: DealPayload;
  /** The French message to show (e.g. the partner must revalidate). */
  message: string | null;
}

/** The status a transition leads to, or 409 with the table's message. */
export function check(result: TransitionResult): DealStatus {
  if (!result.ok) throw new AppError("conflict", result.error);
  return result.to;
}

/** The admin's lock on partners' edits ('disableQuoteEdits'). */
export const locked = (deal: DealRow) => deal.adminSettings.disableQuoteEdits === true;

/** The deal's cocktail list checked against its partner's catalogue (spec 001 §3). */
export async function cocktailValidation(tx: Tx, deal: DealRow): Promise<CocktailValidation> {
  const catalogue = deal.companyId
    ? await loadCatalogue(tx, deal.companyId)
    : { signature: [], classic: [], mocktail: [] };
  const settings = settingsOf(deal.settings);
  const type = settings.cocktailListType;
  const proposed = type === "creation"
    ? settings.customCocktails.map((c) => c.id)
    : type
    ? catalogue[type].map((c) => c.id)
    : [];
  return validateCocktailList(settings, {
    signature: catalogue.signature.length,
    classic: catalogue.classic.length,
    mocktail: catalogue.mocktail.length,
  }, proposed);
}

/** 409 with the validation's message when the cocktail list does not validate. */
export async function requireCocktails(tx: Tx, deal: DealRow): Promise<void> {
  const validation = await cocktailValidation(tx, deal);
  if (validation.type !== "validation_success") {
    throw new AppError("conflict", `${validation.message} ${COCKTAIL_VALIDATION_HINT}`);
  }
}
