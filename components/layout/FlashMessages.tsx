import type { FlashMessage } from "../../lib/http/cookies.ts";

const COLORS: Record<FlashMessage["type"], string> = {
  success: "bg-emerald-600",
  error: "bg-red-600",
  warning: "bg-amber-500",
  info: "bg-slate-800",
};

/** Top-right flash messages, faded in and out by CSS alone (4000 ms each, 300 ms apart; the deal
 * page's snackbars 5000 ms, spec 000 §9). */
export function FlashMessages(
  { messages, durationMs = 4000 }: { messages: FlashMessage[]; durationMs?: 4000 | 5000 },
) {
  if (messages.length === 0) return null;
  return (
    <div
      class="flash-stack pointer-events-none fixed right-4 top-4 z-50 w-80 max-w-[calc(100vw-2rem)]"
      aria-live="polite"
    >
      {messages.slice(0, 5).map((flash, i) => (
        <div
          key={i}
          role="status"
          data-flash-type={flash.type}
          class={`flash ${
            durationMs === 5000 ? "flash-5s" : ""
          } flash-${i} absolute right-0 top-0 w-full rounded-lg px-4 py-3 text-sm font-medium text-white shadow-lg ${
            COLORS[flash.type] ?? COLORS.info
          }`}
        >
          {flash.message}
        </div>
      ))}
    </div>
  );
}
