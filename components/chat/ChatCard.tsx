// The chat panel's frame (card width 400, spec 000 §9 / 001 §2.6): a title, the timeline, then what the
// island puts below it (the box to write).
import type { ComponentChildren } from "preact";
import { CHAT_CARD_WIDTH, CHAT_MESSAGES } from "../../lib/chat/rules.ts";

export function ChatCard({ children, status }: { children: ComponentChildren; status?: ComponentChildren }) {
  return (
    <section
      class="w-full rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
      style={{ maxWidth: `${CHAT_CARD_WIDTH}px` }}
      aria-label={CHAT_MESSAGES.title}
      data-testid="chat-card"
    >
      <div class="mb-3 flex items-center justify-between gap-2">
        <h2 class="text-lg font-bold text-slate-900">{CHAT_MESSAGES.title}</h2>
        {status}
      </div>
      {children}
    </section>
  );
}
