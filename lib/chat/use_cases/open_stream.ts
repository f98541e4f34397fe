// GET /api/chat/stream: a subscription to a deal's timeline on this instance's hub. The stream is
// registered before the right is checked, so that a change of right committed meanwhile still reaches
// it; it starts after `after` (or Last-Event-ID) when given, after the latest entry otherwise.
import { type Actor, requireSignedIn, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { chatHubOf, ChatSubscription } from "../hub.ts";
import { CHAT_MESSAGES } from "../rules.ts";
import { canReadChat } from "../store.ts";
import type { ThreadInput } from "../input.ts";

export interface OpenStream {
  subscription: ChatSubscription;
  close: () => void;
}

export async function openStream(deps: Deps, actor: Actor, input: ThreadInput): Promise<OpenStream> {
  const viewer = requireSignedIn(actor, { loginMessage: CHAT_MESSAGES.anonymous });
  const hub = await chatHubOf(deps.db, (error) => deps.logger.error("chat", String(error)));
  // Nothing is handed to the stream until its starting point is known.
  const subscription = new ChatSubscription(input.dealId, viewer, Number.MAX_SAFE_INTEGER);
  const unsubscribe = hub.subscribe(subscription);
  try {
    const start = await transactionAs(deps.db, viewer, async (tx) => {
      if (!(await canReadChat(tx, input.dealId))) throw new AppError("forbidden", CHAT_MESSAGES.forbidden);
      if (input.after !== null) return input.after;
      const [row] = await tx<{ last: number }>`
        select coalesce(max(id), 0)::bigint as last from public.chat_messages where deal_id = ${input.dealId}`;
      return row.last;
    });
    subscription.lastId = start;
  } catch (error) {
    unsubscribe();
    throw error;
  }
  // Catch up from the starting point (what was committed before the subscription counted).
  hub.refresh(input.dealId);
  return {
    subscription,
    close: () => {
      subscription.abort();
      unsubscribe();
    },
  };
}
