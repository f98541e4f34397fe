// The deal detail page (spec 001 §2.1), shared by admins and partners: the main island (header, tabs,
// 'Aperçu', 'Paramètres', admin settings), the 'Présentation' tab's island and the 'Chat' tab's in their
// slots.
import { Island } from "../../Island.tsx";
import DealDetail from "../../../islands/DealDetail.tsx";
import { PresentationSlot } from "./PresentationSlot.tsx";
import type { DealDetailProps } from "./types.ts";
import { CHAT_SLOT_ID } from "./tabs.ts";
import { DealChatSection } from "../../chat/DealChatSection.tsx";
import type { PageChat } from "../../../lib/chat/use_cases/page_chat.ts";

export function DealPage(props: DealDetailProps & { chat?: PageChat | null }) {
  const { chat = null, ...detail } = props;
  return (
    <div class="mx-auto max-w-7xl pb-10">
      <Island component={DealDetail} props={detail} />
      <PresentationSlot deal={props.deal} role={props.role} />
      {chat && (
        <div id={CHAT_SLOT_ID} role="tabpanel" aria-labelledby="deal-tab-link-chat" hidden>
          <DealChatSection dealId={props.deal.id} chat={chat} />
        </div>
      )}
    </div>
  );
}
