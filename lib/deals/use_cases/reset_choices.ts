// 'Demander un nouveau choix' (admins and the deal's partner): empties the customer's chosen cocktails.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { DEAL_MESSAGES } from "../rules.ts";
import { findDeal, nameAction, writeDeal } from "../store.ts";
import { readPayload } from "./read_payload.ts";
import type { UpdateResult } from "./workflow.ts";

export async function resetChoices(deps: Deps, actor: Actor, id: number): Promise<UpdateResult> {
  const user = requireRole(actor, ["Admin", "Company"], { message: DEAL_MESSAGES.notAllowed });
  const deal = await transactionAs(deps.db, user, async (tx) => {
    await findDeal(tx, id, { lock: true });
    await nameAction(tx, "reset_choices");
    await writeDeal(tx, id, { choices: { cocktails: [] } });
    return await readPayload(deps, tx, user.user.type, id);
  });
  return { deal, message: "Le client peut choisir à nouveau ses cocktails." };
}
