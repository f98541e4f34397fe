// Where a page puts the deal's chat: the island for a viewer who may read it, the spec's login prompt
// for an anonymous visitor of the customer's page (spec 000 §6 '...pour avoir accès au chat'), nothing
// for anyone else.
import { Island } from "../Island.tsx";
import DealChat from "../../islands/DealChat.tsx";
import PaymentSection from "../../islands/PaymentSection.tsx";
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
        <Island component={DealChat} props={{ dealId, viewer: chat.viewer, messages: chat.messages }} />
      </div>
    );
  }
  if (!loginToken) return null;
  return (
    <div id={CHAT_ANCHOR} class="scroll-mt-4" data-testid="chat-login">
      <ChatCard>
        <Island
          component={PaymentSection}
          props={{ token: loginToken, mode: "login", loginButtons: [{ label: CHAT_MESSAGES.anonymous }] }}
        />
      </ChatCard>
    </div>
  );
}
