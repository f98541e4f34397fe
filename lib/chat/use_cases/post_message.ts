// POST /api/chat/messages: a message from the signed-in user (author from the session, never the
// body), refused empty or too long (422), rate-limited per user on every instance (429). The insert
// announces it to every instance's streams (NOTIFY on commit).
import { type Actor, requireSignedIn, transactionAs } from "../../actor.ts";
import { recordCreation } from "../../idempotency/context.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { enforceLimit } from "../../limits/limiter.ts";
import { CHAT_MESSAGES, type ChatMessage, MESSAGES_PER_MINUTE } from "../rules.ts";
import { canReadChat, insertMessage, markRead } from "../store.ts";

export async function postMessage(
  deps: Deps,
  actor: Actor,
  input: { dealId: number; text: string },
): Promise<ChatMessage> {
  const author = requireSignedIn(actor, { loginMessage: CHAT_MESSAGES.anonymous });
  await enforceLimit(
    deps.db,
    `chat:${author.user.id}`,
    { max: MESSAGES_PER_MINUTE, windowSeconds: 60 },
    CHAT_MESSAGES.rateLimited,
  );
  return await transactionAs(deps.db, author, async (tx) => {
    if (!(await canReadChat(tx, input.dealId))) throw new AppError("forbidden", CHAT_MESSAGES.forbidden);
    const message = await insertMessage(tx, input.dealId, author.user.id, input.text);
    await recordCreation(tx);
    await markRead(tx, input.dealId, author.user.id, message.id);
    return message;
  });
}
