// POST /api/chat/read: the island has shown the viewer the entries up to `through` (the chat visible
// on screen). One's own marker, on a chat one may read (403 otherwise; RLS says the same); it never
// moves back.
import { type Actor, requireSignedIn, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { CHAT_MESSAGES } from "../rules.ts";
import { canReadChat, markRead } from "../store.ts";

export async function markChatRead(
  deps: Deps,
  actor: Actor,
  input: { dealId: number; through: number },
): Promise<{ through: number }> {
  const viewer = requireSignedIn(actor, { loginMessage: CHAT_MESSAGES.anonymous });
  await transactionAs(deps.db, viewer, async (tx) => {
    if (!(await canReadChat(tx, input.dealId))) throw new AppError("forbidden", CHAT_MESSAGES.forbidden);
    await markRead(tx, input.dealId, viewer.user.id, input.through);
  });
  return { through: input.through };
}
