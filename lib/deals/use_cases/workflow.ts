// What the status workflow's use cases share: the transition table's answer as a status (409 with its
// French message otherwise), the admin's edit lock, the cocktail list's validation, the seller's VAT
// number a sent quote needs, and the answer of an action on a deal.
import type { Tx } from "../../db/database.ts";
import { AppError } from "../../errors.ts";
import {
  COCKTAIL_VALIDATION_HINT,
  type CocktailValidation,
  type DealStatus,
  type TransitionResult,
  validateCocktailList,
} from "../rules.ts";
import { sellerVatError } from "../../partners/rules.ts";
import { sellerTaxIdentity } from "../../partners/store.ts";
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

/** Sending a quote to the customer (the partner validating its availability, or an admin doing it on
 * the partner's behalf) needs the seller's VAT number when the partner charges VAT: every invoice of
 * the deal is issued in the partner's name and must print it (lib/partners/rules.ts sellerVatError).
 * Throws a 409 with the French message when the deal's partner may not send its quote yet. Runs in the
 * sending transaction, as its actor (the partner reads its own account, an admin any). */
export async function requireSellerVatNumber(
  tx: Tx,
  deal: { companyId: string | null; parameters: { vat?: number } },
  /** The sender's role: the partner reads a message about its profile, anyone else about the partner's. */
  role: string,
): Promise<void> {
  if (!deal.companyId) return;
  const seller = await sellerTaxIdentity(tx, deal.companyId);
  if (!seller) return; // not a partner (the platform sells): its VAT number is the configuration's
  const error = sellerVatError(
    seller,
    Number(deal.parameters.vat ?? 20),
    role === "Company" ? "Company" : "Admin",
  );
  if (error) throw new AppError("conflict", error, { vatNumber: error });
}
