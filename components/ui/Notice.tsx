// A timed message for islands (snackbars and toasts of the spec: 2500, 3000, 5000 or 6000 ms), shown
// fixed at the top of the screen so that it is seen wherever the user is.
import type { ComponentChildren } from "preact";
import { useEffect } from "react";

export interface NoticeState {
  type: "success" | "error" | "info" | "warning";
  text: string;
  /** Bumped to show the same text again. */
  key?: number;
}

export function Notice({ notice, onDone, durationMs, action }: {
  notice: NoticeState | null;
  onDone: () => void;
  durationMs: number;
  action?: ComponentChildren;
}) {
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(onDone, durationMs);
    return () => clearTimeout(timer);
  }, [notice, durationMs]);
  if (!notice) return null;
  const colors = {
    success: "bg-emerald-600",
    error: "bg-red-600",
    warning: "bg-amber-500",
    info: "bg-slate-800",
  };
  return (
    <div
      role={notice.type === "error" ? "alert" : "status"}
      data-testid="notice"
      class={`fixed left-1/2 top-4 z-50 flex w-[min(36rem,calc(100vw-2rem))] -translate-x-1/2 items-center justify-between gap-4 rounded-lg px-4 py-3 text-sm font-medium text-white shadow-lg ${
        colors[notice.type]
      }`}
    >
      <span>{notice.text}</span>
      {action}
    </div>
  );
}
