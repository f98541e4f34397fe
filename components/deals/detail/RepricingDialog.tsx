// 'Recalculer le devis ?' (issue "Quotes and payments, second pass" §5): after the request's figures
// change (guests, duration, distance, bar, recipes), the quote engine's lines and the totals they give,
// beside the current ones. Nothing changes unless the admin or partner applies them; the server applies
// the proposal only for the total shown here (409 when it moved since).
import { useState } from "react";
import { euros } from "../../../lib/deals/format.ts";
import { DEAL_MESSAGES } from "../../../lib/deals/rules.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { useDeal } from "./controller.tsx";
import { dealApi, type RepricingProposal } from "./requests.ts";
import { Banner, BUTTON_LINE, BUTTON_MAIN } from "./ui.tsx";

/** The request's fields the quote engine reads (lib/deals/use_cases/quote_lines.ts quoteRequestOf). */
export const PRICED_FIELDS = [
  "nombre_de_participants",
  "duree_2_service",
  "distance_en_km",
  "bar_mobile___table_a_dispo",
  "creation_de_recette",
  "type_de_recette",
];

export const REPRICING_TITLE = "Recalculer le devis ?";

export function RepricingDialog({ proposal, onClose }: { proposal: RepricingProposal; onClose: () => void }) {
  const { deal, run } = useDeal();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const apply = async () => {
    setBusy(true);
    const result = await run(() => dealApi.applyRepricing(deal.id, proposal.proposed.totalHt), {
      error: DEAL_MESSAGES.saveError,
    });
    setBusy(false);
    if (result.ok) onClose();
    else setError(result.message);
  };

  return (
    <Dialog open onClose={onClose} title={REPRICING_TITLE} width={600} testId="repricing-dialog">
      <p class="text-sm text-slate-700">
        La demande a changé ({proposal.guests}{" "}
        participants). Le calculateur propose ces lignes ; les lignes actuelles restent telles quelles si vous
        les gardez.
      </p>
      <table class="mt-4 w-full text-sm" data-testid="repricing-lines">
        <thead>
          <tr class="border-b border-slate-200 text-left text-xs text-slate-600">
            <th class="py-1.5 font-medium">Ligne</th>
            <th class="py-1.5 text-right font-medium">Qté</th>
            <th class="py-1.5 text-right font-medium">Total HT</th>
          </tr>
        </thead>
        <tbody>
          {proposal.lines.map((line, i) => (
            <tr key={i} class="border-b border-slate-100">
              <td class="py-1.5 pr-2">{line.label}</td>
              <td class="py-1.5 text-right tabular-nums">{line.qty}</td>
              <td class="py-1.5 text-right tabular-nums">{euros(line.totalCost)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl class="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg bg-slate-50 px-4 py-3 text-sm">
        <dt class="text-slate-600">Total HT</dt>
        <dd class="text-right tabular-nums" data-testid="repricing-total-ht">
          <span class="text-slate-600 line-through">{euros(proposal.current.totalHt)}</span> →{" "}
          <strong class="text-slate-900">{euros(proposal.proposed.totalHt)}</strong>
        </dd>
        <dt class="text-slate-600">Total TTC</dt>
        <dd class="text-right tabular-nums" data-testid="repricing-total-ttc">
          <span class="text-slate-600 line-through">{euros(proposal.current.totalTTC)}</span> →{" "}
          <strong class="text-slate-900">{euros(proposal.proposed.totalTTC)}</strong>
        </dd>
      </dl>
      {error && (
        <div class="mt-3">
          <Banner tone="error">{error}</Banner>
        </div>
      )}
      <div class="mt-6 flex flex-wrap justify-end gap-2">
        <button
          type="button"
          class={BUTTON_LINE}
          onClick={onClose}
          disabled={busy}
          data-testid="repricing-keep"
        >
          Garder les lignes actuelles
        </button>
        <button
          type="button"
          class={BUTTON_MAIN}
          onClick={apply}
          disabled={busy}
          data-testid="repricing-apply"
        >
          Appliquer les nouvelles lignes
        </button>
      </div>
    </Dialog>
  );
}
