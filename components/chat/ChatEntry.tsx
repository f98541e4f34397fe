// One entry of a deal's chat (spec 000 §6, 001 §2.6): a bell for a notification, a comment bubble for
// a message; on the start or end side by viewer; coloured by author (Admin red, own grey, Customer
// blue, Company green); 'Vous' for one's own. Text is rendered as text (escaped), line breaks kept.
import { authorLabel, type ChatMessage, type ChatViewer, colourOf, sideOf } from "../../lib/chat/rules.ts";
import { dateTimeFr } from "../../lib/deals/format.ts";

const COLOURS = {
  grey: "border-slate-200 bg-slate-100 text-slate-900",
  red: "border-red-200 bg-red-50 text-red-950",
  blue: "border-blue-200 bg-blue-50 text-blue-950",
  green: "border-green-200 bg-green-50 text-green-950",
  slate: "border-slate-200 bg-white text-slate-800",
} as const;

const NAME_COLOURS = {
  grey: "text-slate-700",
  red: "text-red-700",
  blue: "text-blue-700",
  green: "text-green-700",
  slate: "text-slate-600",
} as const;

export function BellIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      class="h-4 w-4 shrink-0"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      aria-hidden="true"
    >
      <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}

export function CommentIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      class="h-4 w-4 shrink-0"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      aria-hidden="true"
    >
      <path d="M21 12a8 8 0 0 1-11.6 7.1L3 21l1.9-6.4A8 8 0 1 1 21 12z" />
    </svg>
  );
}

export function ChatEntry({ message, viewer }: { message: ChatMessage; viewer: ChatViewer }) {
  const side = sideOf(message, viewer);
  const colour = colourOf(message, viewer);
  const notification = message.type === "notification";
  return (
    <li
      class={`flex ${side === "end" ? "justify-end" : "justify-start"}`}
      data-testid="chat-entry"
      data-side={side}
      data-colour={colour}
      data-type={message.type}
      data-id={message.id}
    >
      <div class={`max-w-[85%] rounded-2xl border px-3 py-2 shadow-sm ${COLOURS[colour]}`}>
        <p class={`flex items-center gap-1.5 text-xs font-semibold ${NAME_COLOURS[colour]}`}>
          {notification ? <BellIcon /> : <CommentIcon />}
          <span data-testid="chat-author">{authorLabel(message, viewer)}</span>
          <span class="font-normal text-slate-600">· {dateTimeFr(message.createdAt)}</span>
        </p>
        <p
          class={`mt-1 whitespace-pre-wrap break-words text-sm ${notification ? "italic" : ""}`}
          data-testid="chat-text"
        >
          {message.text}
        </p>
      </div>
    </li>
  );
}
