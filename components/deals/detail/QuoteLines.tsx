// 'Lignes du devis' (spec 001 §2.2, §5): an editable table of quote lines (label, quantity, unit cost
// € HT, total). Lines can be added and deleted; the save button stays disabled while nothing has
// changed; after a save the server's message shows (a partner is told to revalidate). Amounts are
// typed in euros and checked to the cent here, then again by the server, which stores cents.
import { useEffect, useMemo, useState } from "react";
import { DEAL_MESSAGES, transition } from "../../../lib/deals/rules.ts";
import { eurosToCents } from "../../../lib/money.ts";
import { euros } from "../../../lib/deals/format.ts";
import { useDeal } from "./controller.tsx";
import { dealApi } from "./requests.ts";
import { BUTTON_DARK, BUTTON_LINE, IconButton, INPUT, Section } from "./ui.tsx";
import { DealIcon } from "./icons.tsx";

interface Row {
  key: number;
  label: string;
  qty: string;
  unitCost: string;
}

const LINE_LABEL_REQUIRED = "Chaque ligne a besoin d'un libellé.";
const LINE_QTY_INVALID = "Veuillez saisir un nombre valide.";
const LINE_AMOUNT_INVALID = "Veuillez saisir un montant valide (deux décimales au plus).";

let nextKey = 1;
const rowsOf = (lines: { label: string; qty: number; unitCost: number }[]): Row[] =>
  lines.map((l) => ({ key: nextKey++, label: l.label, qty: String(l.qty), unitCost: String(l.unitCost) }));
const comparable = (rows: Row[]) =>
  JSON.stringify(rows.map((r) => [r.label.trim(), r.qty.trim(), r.unitCost.trim()]));

const quantityOf = (text: string) => (/^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : null);
const centsOf = (text: string) => {
  const cents = eurosToCents(text.trim());
  return cents !== null && cents >= 0 ? cents : null;
};

function rowError(row: Row): string | null {
  if (!row.label.trim()) return LINE_LABEL_REQUIRED;
  if (quantityOf(row.qty) === null) return LINE_QTY_INVALID;
  if (centsOf(row.unitCost) === null) return LINE_AMOUNT_INVALID;
  return null;
}

export function QuoteLines() {
  const { deal, role, locked, run } = useDeal();
  const canEdit = transition("edit", { from: deal.status, role, locked }).ok;
  const [rows, setRows] = useState<Row[]>(() => rowsOf(deal.lines));
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const saved = useMemo(() => comparable(rowsOf(deal.lines)), [deal.lines]);
  useEffect(() => {
    setRows(rowsOf(deal.lines));
    setErrors({});
  }, [deal.lines]);

  const dirty = comparable(rows) !== saved;
  const totalCents = rows.reduce((sum, r) => sum + (quantityOf(r.qty) ?? 0) * (centsOf(r.unitCost) ?? 0), 0);

  const update = (key: number, change: Partial<Row>) => {
    setRows(rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
    if (errors[key]) {
      const rest = { ...errors };
      delete rest[key];
      setErrors(rest);
    }
    setFormError(null);
  };

  const remove = (key: number) => {
    setRows(rows.filter((r) => r.key !== key));
    const rest = { ...errors };
    delete rest[key];
    setErrors(rest);
    setFormError(null);
  };

  const save = async (event?: Event) => {
    event?.preventDefault();
    const found: Record<number, string> = {};
    rows.forEach((r) => {
      const problem = rowError(r);
      if (problem) found[r.key] = problem;
    });
    setErrors(found);
    if (Object.keys(found).length) return setFormError(Object.values(found)[0]);
    setBusy(true);
    const lines = rows.map((r) => ({
      label: r.label.trim(),
      qty: quantityOf(r.qty),
      unitCost: r.unitCost.trim(),
    }));
    const result = await run(() => dealApi.patch(deal.id, { lines }), { error: DEAL_MESSAGES.saveError });
    setBusy(false);
    setFormError(result.ok ? null : result.message);
  };

  return (
    <Section id="deal-lines" title="Lignes du devis" testId="deal-lines">
      <form onSubmit={save} noValidate>
        <div
          class="hidden gap-2 border-b border-slate-200 pb-2 text-xs font-medium uppercase tracking-wide text-slate-500 sm:grid sm:grid-cols-[minmax(0,1fr)_4.5rem_6rem_6.5rem_2.25rem]"
          aria-hidden="true"
        >
          <span>Libellé</span>
          <span>Quantité</span>
          <span>Coût unitaire € HT</span>
          <span class="text-right">Total € HT</span>
          <span />
        </div>
        {rows.length === 0 && <p class="py-3 text-sm text-slate-500">Aucune ligne pour le moment.</p>}
        <ul class="divide-y divide-slate-100">
          {rows.map((row, index) => {
            const qty = quantityOf(row.qty);
            const unit = centsOf(row.unitCost);
            const total = qty !== null && unit !== null ? euros((qty * unit) / 100) : "—";
            const n = index + 1;
            return (
              <li
                key={row.key}
                class="grid grid-cols-[4.5rem_minmax(0,1fr)_auto] items-end gap-2 py-2 sm:grid-cols-[minmax(0,1fr)_4.5rem_6rem_6.5rem_2.25rem] sm:items-center"
                data-testid="quote-line"
              >
                <label class="col-span-3 sm:col-span-1">
                  <span class="block text-xs text-slate-500 sm:sr-only">Libellé de la ligne {n}</span>
                  <input
                    class={`${INPUT} ${errors[row.key] === LINE_LABEL_REQUIRED ? "border-red-500" : ""}`}
                    value={row.label}
                    title={row.label}
                    maxLength={255}
                    disabled={!canEdit}
                    onInput={(e) => update(row.key, { label: (e.target as HTMLInputElement).value })}
                    name={`line-${n}-label`}
                  />
                </label>
                <label>
                  <span class="block text-xs text-slate-500 sm:sr-only">
                    Quantité<span class="sr-only">(ligne {n})</span>
                  </span>
                  <input
                    class={`${INPUT} ${errors[row.key] === LINE_QTY_INVALID ? "border-red-500" : ""}`}
                    type="number"
                    min={0}
                    step={1}
                    inputMode="numeric"
                    value={row.qty}
                    disabled={!canEdit}
                    onInput={(e) => update(row.key, { qty: (e.target as HTMLInputElement).value })}
                    name={`line-${n}-qty`}
                  />
                </label>
                <label>
                  <span class="block text-xs text-slate-500 sm:sr-only">
                    Coût unitaire € HT<span class="sr-only">(ligne {n})</span>
                  </span>
                  <input
                    class={`${INPUT} ${errors[row.key] === LINE_AMOUNT_INVALID ? "border-red-500" : ""}`}
                    type="number"
                    min={0}
                    step={1}
                    inputMode="decimal"
                    value={row.unitCost}
                    disabled={!canEdit}
                    onInput={(e) => update(row.key, { unitCost: (e.target as HTMLInputElement).value })}
                    name={`line-${n}-unitCost`}
                  />
                </label>
                <div class="row-span-1 flex items-end justify-end gap-1 sm:contents">
                  <span
                    class="pb-2 text-right text-sm font-semibold tabular-nums sm:pb-0"
                    data-testid="line-total"
                  >
                    <span class="sr-only">Total (ligne {n}) :</span>
                    {total}
                  </span>
                  {canEdit
                    ? (
                      <IconButton
                        icon="trash"
                        label={`Supprimer la ligne ${n}`}
                        tone="danger"
                        onClick={() => remove(row.key)}
                      />
                    )
                    : <span />}
                </div>
              </li>
            );
          })}
        </ul>
        <div class="mt-2 flex justify-between border-t border-slate-200 pt-3 text-sm">
          <span class="font-medium text-slate-600">Total des lignes € HT</span>
          <span class="font-bold tabular-nums" data-testid="lines-total">{euros(totalCents / 100)}</span>
        </div>
        {formError && (
          <p
            role="alert"
            class="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700"
            data-testid="lines-error"
          >
            {formError}
          </p>
        )}
        {canEdit && (
          <div class="mt-4 flex flex-wrap justify-between gap-2">
            <button
              type="button"
              class={BUTTON_LINE}
              onClick={() => setRows([...rows, { key: nextKey++, label: "", qty: "1", unitCost: "0" }])}
              data-testid="add-line"
            >
              <DealIcon name="plus" class="h-4 w-4" />
              Ajouter une ligne
            </button>
            <button type="submit" class={BUTTON_DARK} disabled={!dirty || busy} data-testid="save-lines">
              Enregistrer les lignes
            </button>
          </div>
        )}
      </form>
    </Section>
  );
}
