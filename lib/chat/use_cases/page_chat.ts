// The chat a page shows: the viewer and the timeline when the viewer may read it there, null otherwise.
// Each page has its partner flag (spec 000 §6): the customer's page showChatToPartner, the back
// office's 'Chat' tab showChatForPartner; the API and RLS allow a partner with either.
import type { Actor } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import type { ChatMessage, ChatViewer } from "../rules.ts";
import { listMessages } from "./list_messages.ts";

export interface PageChat {
  viewer: ChatViewer;
  /** The latest entries (HISTORY_PAGE_SIZE at most), oldest first. */
  messages: ChatMessage[];
  /** Older entries exist: the island offers 'Messages précédents'. */
  hasOlder: boolean;
}

export async function pageChat(
  deps: Deps,
  actor: Actor,
  dealId: number,
  options: { partnerFlag: boolean },
): Promise<PageChat | null> {
  if (actor.kind !== "user") return null;
  if (actor.user.type === "Company" && !options.partnerFlag) return null;
  try {
    const { messages, hasOlder } = await listMessages(deps, actor, { dealId, after: null }, {
      markRead: false,
    });
    return { viewer: { id: actor.user.id, type: actor.user.type }, messages, hasOlder };
  } catch (error) {
    if (error instanceof AppError && (error.code === "forbidden" || error.code === "unauthenticated")) {
      return null;
    }
    throw error;
  }
}
