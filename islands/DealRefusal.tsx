// The customer's refuse menu on the deal page (spec 000 §4 'refusal', §5, §8): the reasons customers
// may give, then the confirmation 'Êtes-vous sûr de vouloir refuser ce devis avec la raison : "…" ?'.
// On success 'Le devis a été refusé.' and the page reloads (refused banner, no payment); on failure
// 'Erreur lors du refus du devis'. The server checks who refuses and from which status.
import { useRef, useState } from "react";
import { api } from "../components/ui/api.ts";
import { Notice, type NoticeState } from "../components/ui/Notice.tsx";
import { DEAL_MESSAGES, reasonsFor, type RefusalReason, refuseConfirmation } from "../lib/deals/rules.ts";

export interface DealRefusalProps {
  token: string;
}

/** Deal snackbars last 5000 ms (spec 000 §9). After a refusal the page reloads at once and shows the
 * server's flash message for 5000 ms (the server keeps it for the reloaded page). */
const NOTICE_MS = 5000;

export default function DealRefusal({ token }: DealRefusalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState<RefusalReason | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const reasons = reasonsFor("Customer");

  const open = () => {
    setReason(null);
    dialog.current?.showModal();
  };

  const refuse = async () => {
    if (!reason || busy) return;
    setBusy(true);
    try {
      await api("PATCH", `/api/customer/deal/refuse/${token}`, { refusalReason: reason.value });
      dialog.current?.close();
      setNotice({ type: "success", text: DEAL_MESSAGES.refused, key: Date.now() });
      location.reload();
    } catch {
      setBusy(false);
      dialog.current?.close();
      setNotice({ type: "error", text: DEAL_MESSAGES.refuseError, key: Date.now() });
    }
  };

  return (
    <>
      <button
        type="button"
        class="inline-flex items-center gap-1.5 rounded-full px-3 py-2 text-sm font-semibold text-slate-600 underline-offset-2 hover:bg-slate-100 hover:text-red-700 hover:underline"
        aria-haspopup="dialog"
        onClick={open}
        data-testid="refuse-open"
      >
        Refuser ce devis
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="refusal-title"
        data-testid="refusal-dialog"
        class="m-auto max-h-[calc(100dvh-1.5rem)] w-[calc(100vw-1.5rem)] max-w-[500px] overflow-y-auto rounded-2xl bg-white p-0 shadow-xl"
        onCancel={(event) => {
          if (busy) event.preventDefault();
        }}
      >
        <div class="p-5 sm:p-6">
          <div class="mb-4 flex items-start justify-between gap-4">
            <h2 id="refusal-title" class="text-lg font-bold">Refuser le devis</h2>
            <button
              type="button"
              aria-label="Fermer"
              class="rounded-full px-2.5 py-0.5 text-2xl leading-none text-slate-500 hover:bg-slate-100"
              onClick={() => !busy && dialog.current?.close()}
            >
              ×
            </button>
          </div>
          {!reason
            ? (
              <>
                <p class="mb-3 text-sm text-slate-600">Pour quelle raison refusez-vous ce devis ?</p>
                <ul class="grid gap-2" role="menu" aria-label="Raisons du refus">
                  {reasons.map((r) => (
                    <li key={r.value} role="none">
                      <button
                        type="button"
                        role="menuitem"
                        class="w-full rounded-xl border border-slate-200 px-4 py-3 text-left text-sm font-medium hover:border-red-300 hover:bg-red-50"
                        onClick={() => setReason(r)}
                        data-reason={r.value}
                      >
                        {r.labelForCustomer}
                      </button>
                    </li>
                  ))}
                </ul>
              </>
            )
            : (
              <>
                <p class="text-sm text-slate-800" data-testid="refusal-confirmation">
                  {refuseConfirmation(reason.labelForCustomer)}
                </p>
                <div class="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                  <button
                    type="button"
                    class="rounded-full border border-slate-300 px-5 py-2.5 text-sm font-semibold hover:bg-slate-50"
                    disabled={busy}
                    onClick={() => setReason(null)}
                  >
                    Annuler
                  </button>
                  <button
                    type="button"
                    class="rounded-full bg-red-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-red-700 disabled:opacity-60"
                    disabled={busy}
                    onClick={refuse}
                    data-testid="refusal-confirm"
                  >
                    {busy ? "Refus en cours…" : "Confirmer le refus"}
                  </button>
                </div>
              </>
            )}
        </div>
      </dialog>
      <Notice notice={notice} onDone={() => setNotice(null)} durationMs={NOTICE_MS} />
    </>
  );
}
