// 'Annuler' on a workshop date (back office): a confirmation dialog (500 px, spec §9) that says what
// happens — bookers told by email and refunded, holds released, alerts stopped — and posts the form.
// Without JavaScript the link leads to the same confirmation as a page.
import { useState } from "react";
import { Dialog } from "../components/ui/Dialog.tsx";
import { CANCEL_DIALOG_WIDTH, OPS_MESSAGES } from "../lib/sessions/rules.ts";

export interface DateCancelButtonProps {
  uuid: string;
  /** "Atelier Gin tonic — 05/12/2026 19:00". */
  label: string;
  /** Registrations that will be canceled (told by email). */
  bookers: number;
  compact?: boolean;
}

export default function DateCancelButton({ uuid, label, bookers, compact = false }: DateCancelButtonProps) {
  const [open, setOpen] = useState(false);
  const action = `/dashboard/admin/ateliers/date/${uuid}/annuler`;
  return (
    <>
      <a
        href={action}
        class={compact
          ? "rounded-full border border-red-200 px-3 py-1 text-xs font-semibold text-red-700 hover:bg-red-50"
          : "rounded-full border border-red-300 px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50"}
        aria-label={`Annuler la date ${label}`}
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        Annuler
      </a>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={OPS_MESSAGES.cancelConfirmTitle}
        width={CANCEL_DIALOG_WIDTH}
        testId="cancel-date-dialog"
      >
        <p class="font-semibold">{label}</p>
        <p class="mt-2 text-sm text-slate-700">
          {bookers > 0
            ? `${bookers} inscription(s) concernée(s). ${OPS_MESSAGES.cancelConfirm}`
            : OPS_MESSAGES.cancelConfirm}
        </p>
        <form method="post" action={action} class="mt-5 flex flex-wrap justify-end gap-2">
          <button
            type="button"
            class="rounded-full border border-slate-300 px-4 py-2 text-sm font-semibold"
            onClick={() => setOpen(false)}
          >
            Retour
          </button>
          <button
            type="submit"
            class="rounded-full bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-700"
          >
            Annuler la date
          </button>
        </form>
      </Dialog>
    </>
  );
}
