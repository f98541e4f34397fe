// The quote's lines and totals (spec 000 §2 'quote lines plus a Gestion de projet line, totals'; §9):
// a table on wide screens; on a phone the quantity and unit price move under each line's label, so
// nothing scrolls sideways at 390 px.
import type { DealPayload } from "../../../lib/deals/payload.ts";
import { euros, numberFr } from "../../../lib/deals/format.ts";
import { vatLabel } from "./view.ts";

export interface DetailRow {
  label: string;
  description?: string;
  qty: number;
  /** Euros, excluding tax. */
  unit: number;
  total: number;
}

export interface DetailTotals {
  ht: number;
  vatLabel: string;
  vat: number;
  ttc: number;
}

export const PROJECT_MANAGEMENT = "Gestion de projet";

/** The deal's lines with 'Gestion de projet' (half the management fee, spec 000 §9). */
export function detailOf(deal: DealPayload, vatExempt: boolean): { rows: DetailRow[]; totals: DetailTotals } {
  const rows: DetailRow[] = deal.lines.map((l) => ({
    label: l.label,
    qty: l.qty,
    unit: l.unitCost,
    total: l.totalCost,
  }));
  const management = deal.totals.projectManagement;
  if (management > 0) rows.push({ label: PROJECT_MANAGEMENT, qty: 1, unit: management, total: management });
  return {
    rows,
    totals: {
      ht: deal.totals.totalInvoiceByPartner,
      vatLabel: vatLabel(deal, vatExempt),
      vat: deal.totals.vatAmount,
      ttc: deal.totals.totalTTC,
    },
  };
}

const qtyFr = numberFr;

export function QuoteDetail({ rows, totals }: { rows: DetailRow[]; totals: DetailTotals }) {
  return (
    <div class="overflow-hidden rounded-xl border border-slate-200">
      <table class="w-full text-sm" data-testid="quote-lines">
        <thead class="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" class="px-3 py-2.5 font-semibold">Désignation</th>
            <th scope="col" class="hidden px-3 py-2.5 text-right font-semibold sm:table-cell">Qté</th>
            <th scope="col" class="hidden px-3 py-2.5 text-right font-semibold sm:table-cell">P.U. HT</th>
            <th scope="col" class="px-3 py-2.5 text-right font-semibold">Total HT</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i} class="border-t border-slate-100 align-top" data-line={row.label}>
              <td class="px-3 py-3">
                <span class="block font-medium text-slate-900">{row.label}</span>
                {row.description && <span class="block text-xs text-slate-500">{row.description}</span>}
                <span class="mt-0.5 block text-xs text-slate-500 sm:hidden">
                  {qtyFr(row.qty)} × {euros(row.unit)}
                </span>
              </td>
              <td class="hidden whitespace-nowrap px-3 py-3 text-right sm:table-cell">{qtyFr(row.qty)}</td>
              <td class="hidden whitespace-nowrap px-3 py-3 text-right sm:table-cell">{euros(row.unit)}</td>
              <td class="whitespace-nowrap px-3 py-3 text-right font-medium">{euros(row.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl
        class="space-y-1.5 border-t border-slate-200 bg-slate-50 px-3 py-3 text-sm"
        data-testid="quote-totals"
      >
        <div class="flex justify-between gap-4">
          <dt class="text-slate-600">Total HT</dt>
          <dd class="font-medium" data-testid="total-ht">{euros(totals.ht)}</dd>
        </div>
        <div class="flex justify-between gap-4">
          <dt class="text-slate-600">{totals.vatLabel}</dt>
          <dd class="font-medium" data-testid="total-vat">{euros(totals.vat)}</dd>
        </div>
        <div class="flex justify-between gap-4 border-t border-slate-200 pt-2 text-base">
          <dt class="font-bold">Total TTC</dt>
          <dd class="font-extrabold text-slate-900" data-testid="total-ttc">{euros(totals.ttc)}</dd>
        </div>
      </dl>
    </div>
  );
}
