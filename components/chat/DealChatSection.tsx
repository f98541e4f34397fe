// Where a page puts the deal's chat: the island for a viewer who may read it, the spec's login prompt
// for an anonymous visitor of the customer's page (spec 000 §6 '...pour avoir accès au chat'), nothing
// for anyone else. The prompt is a link to the login page that comes back to the quote: the page's
// own login dialog stays the only one (and the prompt needs no JavaScript).
import { Island } from "../Island.tsx";
import DealChat from "../../islands/DealChat.tsx";
import { ChatCard } from "./ChatCard.tsx";
import { CHAT_MESSAGES } from "../../lib/chat/rules.ts";
import type { PageChat } from "../../lib/chat/use_cases/page_chat.ts";

export const CHAT_ANCHOR = "chat";

export function DealChatSection(
  { dealId, chat, loginToken }: { dealId: number; chat: PageChat | null; loginToken?: string },
) {
  if (chat) {
    return (
      <div id={CHAT_ANCHOR} class="scroll-mt-4">
        <Island
          component={DealChat}
          props={{ dealId, viewer: chat.viewer, messages: chat.messages, hasOlder: chat.hasOlder }}
        />
      </div>
    );
  }
  if (!loginToken) return null;
  return (
    <div id={CHAT_ANCHOR} class="scroll-mt-4" data-testid="chat-login">
      <ChatCard>
        <a
          href={`/login?redirect=${encodeURIComponent(`/deal/show/${loginToken}`)}`}
          class="block w-full rounded-2xl border-2 border-brand-500 bg-white px-5 py-3 text-center text-sm font-semibold leading-snug text-brand-700 shadow-sm hover:bg-brand-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
          data-testid="chat-login-link"
        >
          {CHAT_MESSAGES.anonymous}
        </a>
      </ChatCard>
    </div>
  );
}
