// The cocktail list validation dialog's result (spec 001 §3), for admins and the deal's partner.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { type CocktailValidation, DEAL_MESSAGES } from "../rules.ts";
import { findDeal } from "../store.ts";
import { cocktailValidation } from "./workflow.ts";

export async function checkCocktailList(deps: Deps, actor: Actor, id: number): Promise<CocktailValidation> {
  const user = requireRole(actor, ["Admin", "Company"], { message: DEAL_MESSAGES.notAllowed });
  return await transactionAs(deps.db, user, async (tx) => cocktailValidation(tx, await findDeal(tx, id)));
}
