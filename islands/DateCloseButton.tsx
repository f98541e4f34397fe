// 'Fermer' on a workshop date (back office): asks first, in a dialog that says what closing does (no
// more bookings, the bookers keep their places, the date can be reopened), then posts the form. Without
// JavaScript the form posts at once, as before.
import { useRef, useState } from "react";
import { Dialog } from "../components/ui/Dialog.tsx";
import { CANCEL_DIALOG_WIDTH, OPS_MESSAGES } from "../lib/sessions/rules.ts";

export interface DateCloseButtonProps {
  /** The form's address (POST …/fermer, with its 'retour'). */
  action: string;
  /** "Atelier Gin tonic — 05/12/2026 19:00". */
  label: string;
  /** The button's classes (the row's other actions'). */
  class: string;
}

export default function DateCloseButton({ action, label, class: className }: DateCloseButtonProps) {
  const [open, setOpen] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  return (
    <form method="post" action={action} ref={form}>
      <button
        type="submit"
        class={className}
        aria-label={`Fermer la date ${label}`}
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        Fermer
      </button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={OPS_MESSAGES.closeConfirmTitle}
        width={CANCEL_DIALOG_WIDTH}
        testId="close-date-dialog"
      >
        <p class="font-semibold">{label}</p>
        <p class="mt-2 text-sm text-slate-700">{OPS_MESSAGES.closeConfirm}</p>
        <div class="mt-5 flex flex-wrap justify-end gap-2">
          <button
            type="button"
            class="rounded-full border border-slate-300 px-4 py-2 text-sm font-semibold"
            onClick={() => setOpen(false)}
          >
            Retour
          </button>
          <button
            type="button"
            class="rounded-full bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
            onClick={() => form.current?.submit()}
          >
            Fermer la date
          </button>
        </div>
      </Dialog>
    </form>
  );
}
