// The viewer of an open stream has been shown entries up to `through` (RLS: one's own markers, on a
// chat one may read).
import { type Actor, requireSignedIn, statementTx } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { markRead } from "../store.ts";

export async function markChatRead(deps: Deps, actor: Actor, dealId: number, through: number): Promise<void> {
  const viewer = requireSignedIn(actor);
  await markRead(statementTx(deps.db, viewer), dealId, viewer.user.id, through);
}
