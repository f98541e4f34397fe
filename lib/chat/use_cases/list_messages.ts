// GET /api/chat/messages: a deal's timeline (oldest first) for whoever may read its chat: the latest
// HISTORY_PAGE_SIZE entries, the HISTORY_PAGE_SIZE before `before` ('Messages précédents'), or up to
// PAGE_SIZE after `after` (a client catching up). `hasOlder` says whether entries precede the page (one
// more row is read to know). Through the API, reading the latest or newer entries marks them read; a
// page that renders the chat hidden (a tab) leaves that to the island, which says when they are really
// shown (POST /api/chat/read). Older pages mark nothing.
import { type Actor, requireSignedIn, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { CHAT_MESSAGES, type ChatMessage, HISTORY_PAGE_SIZE, PAGE_SIZE } from "../rules.ts";
import { canReadChat, markRead, messagesOf } from "../store.ts";
import type { ThreadInput } from "../input.ts";

export interface ChatTimeline {
  messages: ChatMessage[];
  /** Entries exist before the first one returned (always false for a catch-up after an id). */
  hasOlder: boolean;
}

export async function listMessages(
  deps: Deps,
  actor: Actor,
  input: ThreadInput,
  options: { markRead?: boolean } = {},
): Promise<ChatTimeline> {
  const viewer = requireSignedIn(actor, { loginMessage: CHAT_MESSAGES.anonymous });
  return await transactionAs(deps.db, viewer, async (tx) => {
    if (!(await canReadChat(tx, input.dealId))) throw new AppError("forbidden", CHAT_MESSAGES.forbidden);
    if (input.after !== null) {
      const messages = await messagesOf(tx, input.dealId, { after: input.after }, PAGE_SIZE);
      if (options.markRead !== false && messages.length) {
        await markRead(tx, input.dealId, viewer.user.id, messages[messages.length - 1].id);
      }
      return { messages, hasOlder: false };
    }
    const before = input.before ?? null;
    const rows = await messagesOf(tx, input.dealId, { after: null, before }, HISTORY_PAGE_SIZE + 1);
    const hasOlder = rows.length > HISTORY_PAGE_SIZE;
    const messages = hasOlder ? rows.slice(1) : rows;
    if (before === null && options.markRead !== false && messages.length) {
      await markRead(tx, input.dealId, viewer.user.id, messages[messages.length - 1].id);
    }
    return { messages, hasOlder };
  });
}
