// 'Demander un nouveau choix' (admins and the deal's partner): empties the customer's chosen cocktails.
// The admin's edit lock covers it: a partner empties no choice of a locked quote (the guard trigger
// refuses it too).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { DEAL_MESSAGES } from "../rules.ts";
import { findDeal, nameAction, writeDeal } from "../store.ts";
import { readPayload } from "./read_payload.ts";
import { locked, type UpdateResult } from "./workflow.ts";

export async function resetChoices(deps: Deps, actor: Actor, id: number): Promise<UpdateResult> {
  const user = requireRole(actor, ["Admin", "Company"], { message: DEAL_MESSAGES.notAllowed });
  const deal = await transactionAs(deps.db, user, async (tx) => {
    const deal = await findDeal(tx, id, { lock: true });
    if (user.user.type === "Company" && locked(deal)) throw new AppError("conflict", DEAL_MESSAGES.locked);
    await nameAction(tx, "reset_choices");
    await writeDeal(tx, id, { choices: { cocktails: [] } });
    return await readPayload(deps, tx, user.user.type, id);
  });
  return { deal, message: "Le client peut choisir à nouveau ses cocktails." };
}
