// A native <dialog> opened with showModal() (Escape and the close button close it), for islands.
// Widths come from the spec (500, 600, 700, 800 px…); on a phone it takes the screen's width.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "react";

/** The spec's dialog widths, as classes (Tailwind sees only literal class names). */
const WIDTHS = {
  400: "max-w-[400px]",
  480: "max-w-[480px]",
  500: "max-w-[500px]",
  600: "max-w-[600px]",
  700: "max-w-[700px]",
  800: "max-w-[800px]",
} as const;

export function Dialog({ open, onClose, title, width = 600, children, testId, persistent }: {
  open: boolean;
  onClose: () => void;
  title: string;
  width?: keyof typeof WIDTHS;
  children: ComponentChildren;
  testId?: string;
  /** Escape does not close it (a form being paid); only its close button does. */
  persistent?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      onCancel={(event) => persistent && event.preventDefault()}
      aria-label={title}
      data-testid={testId}
      class={`m-auto w-[calc(100vw-2rem)] rounded-2xl bg-white p-0 shadow-xl ${WIDTHS[width]}`}
    >
      {open && (
        <div class="p-6">
          <div class="mb-4 flex items-start justify-between gap-4">
            <h2 class="text-lg font-semibold">{title}</h2>
            <button
              type="button"
              aria-label="Fermer"
              class="rounded-full px-2 text-xl leading-none text-slate-500 hover:bg-slate-100"
              onClick={onClose}
            >
              ×
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}
