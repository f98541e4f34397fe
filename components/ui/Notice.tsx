// A timed message for islands (snackbars and toasts of the spec: 2500, 3000, 5000 or 6000 ms), shown
// fixed at the top right of the screen so that it is seen wherever the user is (the dashboard moves it
// clear of its bar: .notice-toast in static/styles.css). It is a manual popover, so that it shows in the
// top layer above an open dialog and its overlay (the seat alert's success).
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "react";

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
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!notice) return;
    const toast = ref.current;
    // Shown again for each notice: the newest popover goes above a dialog opened since.
    if (toast?.showPopover) {
      if (toast.matches(":popover-open")) toast.hidePopover();
      toast.showPopover();
    }
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
      ref={ref}
      {...{ popover: "manual" }}
      role={notice.type === "error" ? "alert" : "status"}
      data-testid="notice"
      class={`notice-toast z-50 flex w-[min(24rem,calc(100vw-2rem))] items-center justify-between gap-4 rounded-lg border-0 px-4 py-3 text-sm font-medium text-white shadow-lg ${
        colors[notice.type]
      }`}
    >
      <span>{notice.text}</span>
      {action}
    </div>
  );
}
