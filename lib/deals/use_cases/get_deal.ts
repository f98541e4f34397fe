// GET /api/deal/get/{id}: a deal as the actor sees it (RLS decides which deals, the payload what).
import { type Actor, requireSignedIn, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import type { DealPayload } from "../payload.ts";
import { readPayload } from "./read_payload.ts";

export async function getDeal(deps: Deps, actor: Actor, id: number): Promise<DealPayload> {
  const user = requireSignedIn(actor);
  return await transactionAs(deps.db, user, (tx) => readPayload(deps, tx, user.user.type, id));
}
