// GET /api/deal/get/{id}: the back office's view of a deal, for admins and its partner (RLS decides
// which deals, the payload what). A customer reads their deals through lib/deals customer_deals.ts.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import { DEAL_MESSAGES } from "../rules.ts";
import type { Deps } from "../../deps.ts";
import type { DealPayload } from "../payload.ts";
import { readPayload } from "./read_payload.ts";

export async function getDeal(deps: Deps, actor: Actor, id: number): Promise<DealPayload> {
  const user = requireRole(actor, ["Admin", "Company"], { message: DEAL_MESSAGES.notAllowed });
  return await transactionAs(deps.db, user, (tx) => readPayload(deps, tx, user.user.type, id));
}
