// 'Supprimer' from the admin list's row menu: confirmed in a dialog (a paid deal is refused by the
// server with its reason).
import { Dialog } from "../../ui/Dialog.tsx";
import { DEAL_MESSAGES } from "../../../lib/deals/rules.ts";
import type { DealListRow } from "./rows.ts";

export function DeleteDialog({ row, deleting, onClose, onConfirm }: {
  row: DealListRow;
  deleting: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog
      open
      onClose={() => !deleting && onClose()}
      title="Supprimer le devis"
      width={480}
      testId="delete-dialog"
    >
      <div class="text-sm">
        <p class="text-slate-700">{DEAL_MESSAGES.deleteConfirm}</p>
        <p class="mt-1 text-slate-500">#{row.id} {row.name}</p>
        <div class="mt-6 flex justify-end gap-2">
          <button
            type="button"
            class="rounded-lg border border-slate-300 px-4 py-2 font-medium"
            onClick={onClose}
            disabled={deleting}
          >
            Annuler
          </button>
          <button
            type="button"
            class="rounded-lg bg-red-600 px-4 py-2 font-semibold text-white hover:bg-red-700 disabled:opacity-60"
            onClick={onConfirm}
            disabled={deleting}
            data-testid="confirm-delete"
          >
            Supprimer
          </button>
        </div>
      </div>
    </Dialog>
  );
}
