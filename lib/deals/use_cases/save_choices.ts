// PATCH /api/customer/deal/save/choices/{token}: the deal's customer chooses cocktails — capped at the
// authorised number, only cocktails the quote proposes (mocktails only when the menu is alcohol-free:
// the list type decides), and only while the quote is open.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { parseInput } from "../../validation.ts";
import { z } from "zod";
import {
  type CocktailListType,
  CUSTOMER_MESSAGES,
  DEAL_MESSAGES,
  REFUSED_STATUSES,
  VISIBLE_STATUSES,
} from "../rules.ts";
import { findChoiceDeal, nameAction, writeDeal } from "../store.ts";
import { EMPTY_CATALOGUE } from "../settings.ts";
import { loadCatalogue } from "../settings_store.ts";
import { checkToken, proposed, PUBLIC_PAGE } from "./customer_access.ts";

const choicesSchema = z.object({
  choices: z.object({ cocktails: z.array(z.string().max(64)).max(50) }),
});

/** PATCH /api/customer/deal/save/choices/{token}: capped at the authorised number, only cocktails the
 * quote proposes (mocktails only when the menu is alcohol-free: the list type decides). */
export async function saveChoices(
  deps: Deps,
  actor: Actor,
  token: string,
  body: unknown,
): Promise<{ cocktails: string[] }> {
  const customer = requireRole(actor, "Customer");
  checkToken(token);
  const { choices } = parseInput(choicesSchema, body, DEAL_MESSAGES.invalid);
  const unique = [...new Set(choices.cocktails)];
  const deal = await transactionAs(deps.db, customer, (tx) => findChoiceDeal(tx, token));
  if (!deal) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  if (
    !VISIBLE_STATUSES.includes(deal.status) || REFUSED_STATUSES.includes(deal.status) || deal.status === "win"
  ) {
    throw new AppError("conflict", CUSTOMER_MESSAGES.choicesClosed);
  }
  const listType = (deal.settings.cocktailListType ?? null) as CocktailListType | null;
  const authorised = Number(deal.settings.nbCocktailsAuthorized) || 3;
  if (unique.length > authorised) {
    throw new AppError("validation", CUSTOMER_MESSAGES.tooManyCocktails(authorised));
  }
  // The partner's catalogue is not the customer's to read: the system reads the proposed ids.
  const allowed = await transactionAs(deps.db, PUBLIC_PAGE, async (tx) => {
    const catalogue = deal.companyId ? await loadCatalogue(tx, deal.companyId) : EMPTY_CATALOGUE;
    const custom = (deal.settings.customCocktails ?? []) as {
      id: string;
      name: string;
      description: string;
    }[];
    return new Set(proposed(listType, catalogue, custom).map((c) => c.id));
  });
  if (unique.some((id) => !allowed.has(id))) {
    throw new AppError("validation", CUSTOMER_MESSAGES.unknownCocktail);
  }
  await transactionAs(deps.db, customer, async (tx) => {
    await nameAction(tx, "choose_cocktails");
    await writeDeal(tx, deal.id, { choices: { cocktails: unique } });
  });
  return { cocktails: unique };
}
