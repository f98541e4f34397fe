// An editable list of tiers ("Entre … Et …" plus values), shared by the pricing grid and the
// 'Commission fixe' table: add, delete, move up and down; the row named by a validation error is
// highlighted with its message in red. A table on wide screens, labelled fields on phones.
import type { ComponentChildren, Ref } from "preact";
import { Icon } from "../../ui/Icon.tsx";

export interface TierColumn {
  field: string;
  label: string;
  step: string;
  min?: string;
  unit?: string;
  /** A note under the input, from its value (e.g. the hours of a duration in minutes). */
  after?: (value: string) => string;
}

export interface TierRow {
  key: number;
  [field: string]: string | number;
}

const FIELD_INPUT =
  "w-full rounded-lg border bg-white px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-brand-500";
export const ICON_BUTTON =
  "inline-flex h-9 w-9 items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-600 hover:border-brand-500 hover:text-brand-700 disabled:opacity-30 disabled:hover:border-slate-300 disabled:hover:text-slate-600";

const GRID_CLASSES: Record<number, string> = {
  3: "md:grid-cols-[repeat(3,minmax(0,1fr))_auto]",
  5: "md:grid-cols-[repeat(5,minmax(0,1fr))_auto]",
};

/** Moves the item at `index` by one place; the same list when it cannot move. */
export function moved<T>(list: T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  if (target < 0 || target >= list.length) return list;
  const next = [...list];
  [next[index], next[target]] = [next[target], next[index]];
  return next;
}

/** "" is not 0: an empty field must fail validation, as the spec's message says. */
export function numberOf(value: string | number): number {
  const text = String(value).trim().replace(",", ".");
  return text === "" ? Number.NaN : Number(text);
}

function ErrorLine({ message, errorRef }: { message: string; errorRef?: Ref<HTMLParagraphElement> }) {
  return (
    <p ref={errorRef} class="mt-2 text-sm font-medium text-red-600" role="alert" data-testid="tier-error">
      {message}
    </p>
  );
}

export function TierRows(props: {
  /** Prefix of the inputs' ids and of data-tier-row. */
  name: string;
  columns: TierColumn[];
  rows: TierRow[];
  /** The row to highlight and its message. */
  error: { index: number; message: string } | null;
  errorRef?: Ref<HTMLParagraphElement>;
  onChange: (index: number, field: string, value: string) => void;
  onMove: (index: number, by: -1 | 1) => void;
  onRemove: (index: number) => void;
  onAdd: () => void;
  addLabel: string;
  /** Shown when there is no tier. */
  empty?: ComponentChildren;
}) {
  const { name, columns, rows, error } = props;
  const grid = GRID_CLASSES[columns.length] ?? GRID_CLASSES[3];
  const heading = (c: TierColumn) => `${c.label}${c.unit ? ` (${c.unit})` : ""}`;
  return (
    <div data-tiers={name}>
      {rows.length > 0 && (
        <div
          class={`hidden gap-3 px-3 pb-1 text-xs font-semibold text-slate-500 md:grid ${grid}`}
          aria-hidden="true"
        >
          {columns.map((c) => <span key={c.field}>{heading(c)}</span>)}
          <span class="w-[7.5rem]" />
        </div>
      )}
      {rows.length === 0 && props.empty}
      <ol class="space-y-2">
        {rows.map((row, index) => {
          const message = error && error.index === index ? error.message : null;
          return (
            <li
              key={row.key}
              class={`rounded-lg border p-3 ${
                message ? "border-red-400 bg-red-50 ring-2 ring-red-300" : "border-slate-200"
              }`}
              data-tier-row={`${name}-${index}`}
              data-invalid={message ? "true" : undefined}
            >
              <div class={`grid grid-cols-2 gap-3 ${grid}`}>
                {columns.map((c) => {
                  const id = `${name}-${row.key}-${c.field}`;
                  const value = String(row[c.field] ?? "");
                  return (
                    <div key={c.field} class="min-w-0">
                      <label for={id} class="mb-1 block text-xs font-medium text-slate-600 md:sr-only">
                        {heading(c)}
                      </label>
                      <input
                        id={id}
                        type="number"
                        inputMode={c.step === "1" || c.step === "10" ? "numeric" : "decimal"}
                        step={c.step}
                        min={c.min}
                        value={value}
                        title={`Tranche ${index + 1} : ${heading(c)}`}
                        aria-invalid={message ? "true" : undefined}
                        class={`${FIELD_INPUT} ${message ? "border-red-400" : "border-slate-300"}`}
                        onInput={(e) => props.onChange(index, c.field, (e.target as HTMLInputElement).value)}
                      />
                      {c.after && <span class="mt-0.5 block text-xs text-slate-500">{c.after(value)}</span>}
                    </div>
                  );
                })}
                {/* On a phone the buttons fill the cell beside the last field (odd counts) or a row. */}
                <div
                  class={`flex items-end justify-end gap-1 md:col-span-1 md:items-start ${
                    columns.length % 2 === 0 ? "col-span-2" : ""
                  }`}
                >
                  <button
                    type="button"
                    class={ICON_BUTTON}
                    aria-label={`Monter la tranche ${index + 1}`}
                    title="Monter"
                    disabled={index === 0}
                    onClick={() => props.onMove(index, -1)}
                  >
                    <Icon name="up" class="h-4 w-4" />
                  </button>
                  <button
                    type="button"
                    class={ICON_BUTTON}
                    aria-label={`Descendre la tranche ${index + 1}`}
                    title="Descendre"
                    disabled={index === rows.length - 1}
                    onClick={() => props.onMove(index, 1)}
                  >
                    <Icon name="down" class="h-4 w-4" />
                  </button>
                  <button
                    type="button"
                    class={`${ICON_BUTTON} hover:border-red-500 hover:text-red-600`}
                    aria-label={`Supprimer la tranche ${index + 1}`}
                    title="Supprimer"
                    onClick={() => props.onRemove(index)}
                  >
                    <Icon name="trash" class="h-4 w-4" />
                  </button>
                </div>
              </div>
              {message && <ErrorLine message={message} errorRef={props.errorRef} />}
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        class="mt-3 inline-flex items-center gap-2 rounded-lg border border-dashed border-slate-400 px-4 py-2 text-sm font-medium text-slate-700 hover:border-brand-500 hover:text-brand-700"
        onClick={props.onAdd}
      >
        <Icon name="plus" class="h-4 w-4" />
        {props.addLabel}
      </button>
    </div>
  );
}

/** A new tier after the last one: starting right after it, as wide, with its values. */
export function tierAfter(rows: TierRow[], columns: TierColumn[], key: number, defaultSpan: number): TierRow {
  const last = rows[rows.length - 1];
  const lastTo = last ? numberOf(last.to) : Number.NaN;
  const lastSpan = last ? numberOf(last.to) - numberOf(last.from) : Number.NaN;
  const from = Number.isFinite(lastTo) ? lastTo + 1 : 1;
  const span = Number.isFinite(lastSpan) && lastSpan > 0 ? lastSpan : defaultSpan;
  const row: TierRow = { key, from: String(from), to: String(from + span) };
  for (const c of columns) {
    if (c.field !== "from" && c.field !== "to") row[c.field] = last ? String(last[c.field] ?? "") : "";
  }
  return row;
}

export function Panel({ title, hint, children, testId }: {
  title: string;
  hint?: ComponentChildren;
  children: ComponentChildren;
  testId?: string;
}) {
  return (
    <section class="rounded-xl border border-slate-200 bg-white p-4 md:p-5" data-testid={testId}>
      <h2 class="text-lg font-semibold">{title}</h2>
      {hint && <p class="mt-1 text-sm text-slate-600">{hint}</p>}
      <div class="mt-4">{children}</div>
    </section>
  );
}

/** A labelled number with its suffix, hint and error (the named settings of both forms). */
export function NumberField(props: {
  id: string;
  label: string;
  value: string;
  suffix?: string;
  hint?: string;
  step?: string;
  error?: string | null;
  errorRef?: Ref<HTMLParagraphElement>;
  onInput: (value: string) => void;
}) {
  return (
    <div class="text-sm">
      <label for={props.id} class="block font-medium text-slate-700">{props.label}</label>
      <div class="mt-1 flex items-center gap-2">
        <input
          id={props.id}
          name={props.id}
          type="number"
          min="0"
          step={props.step ?? "any"}
          inputMode="decimal"
          value={props.value}
          aria-invalid={props.error ? "true" : undefined}
          aria-describedby={props.hint ? `${props.id}-hint` : undefined}
          class={`${FIELD_INPUT} ${props.error ? "border-red-400" : "border-slate-300"}`}
          onInput={(e) => props.onInput((e.target as HTMLInputElement).value)}
        />
        {props.suffix && <span class="shrink-0 text-xs text-slate-500">{props.suffix}</span>}
      </div>
      {props.hint && <p id={`${props.id}-hint`} class="mt-1 text-xs text-slate-500">{props.hint}</p>}
      {props.error && <ErrorLine message={props.error} errorRef={props.errorRef} />}
    </div>
  );
}
