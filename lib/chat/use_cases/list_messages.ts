// GET /api/chat/messages: a deal's timeline (oldest first) for whoever may read its chat, the latest
// PAGE_SIZE entries or those after `after` (a client catching up). Through the API, reading marks
// them read; a page that renders the chat hidden (a tab) leaves that to the island, which says when
// they are really shown (POST /api/chat/read).
import { type Actor, requireSignedIn, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { CHAT_MESSAGES, type ChatMessage, PAGE_SIZE } from "../rules.ts";
import { canReadChat, markRead, messagesOf } from "../store.ts";
import type { ThreadInput } from "../input.ts";

export async function listMessages(
  deps: Deps,
  actor: Actor,
  input: ThreadInput,
  options: { markRead?: boolean } = {},
): Promise<ChatMessage[]> {
  const viewer = requireSignedIn(actor, { loginMessage: CHAT_MESSAGES.anonymous });
  return await transactionAs(deps.db, viewer, async (tx) => {
    if (!(await canReadChat(tx, input.dealId))) throw new AppError("forbidden", CHAT_MESSAGES.forbidden);
    const messages = await messagesOf(tx, input.dealId, input.after, PAGE_SIZE);
    if (options.markRead !== false && messages.length) {
      await markRead(tx, input.dealId, viewer.user.id, messages[messages.length - 1].id);
    }
    return messages;
  });
}
