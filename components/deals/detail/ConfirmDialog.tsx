// A confirmation in a native dialog (accept, refuse, reset choices…).
import type { ComponentChildren } from "preact";
import { Dialog } from "../../ui/Dialog.tsx";
import { BUTTON_LINE, BUTTON_MAIN } from "./ui.tsx";

export function ConfirmDialog({ open, title, children, confirmLabel, onConfirm, onClose, busy, testId }: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  busy?: boolean;
  testId?: string;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title} width={500} testId={testId}>
      <div class="text-sm text-slate-700">{children}</div>
      <div class="mt-6 flex flex-wrap justify-end gap-2">
        <button type="button" class={BUTTON_LINE} onClick={onClose} disabled={busy}>Annuler</button>
        <button type="button" class={BUTTON_MAIN} onClick={onConfirm} disabled={busy} data-testid="confirm">
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
