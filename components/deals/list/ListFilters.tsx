// The admin deals list's filter form: search (answered as one types), dates (of the service by default,
// of the creation as a second choice), status, sort, order and page size. A plain GET form: without JavaScript it reloads the page with the same parameters.
import type { JSX } from "preact";
import { Icon } from "../../ui/Icon.tsx";
import { DEAL_STATUSES, type DealStatus, STATUS_LABELS } from "../../../lib/deals/rules.ts";
import {
  type AdminListQuery,
  DATE_FIELD_LABELS,
  DATE_FIELDS,
  type DateField,
  DEFAULT_LIST_QUERY,
  PER_PAGE_CHOICES,
  SORT_KEYS,
  SORT_LABELS,
  type SortKey,
} from "./rows.ts";
import { INPUT, LIST_MESSAGES } from "./messages.ts";

export function ListFilters({ query, basePath, load, change, typeSearch }: {
  query: AdminListQuery;
  /** The page's own path (the form's action and the reset link). */
  basePath: string;
  /** Shows `next` at once. */
  load: (next: AdminListQuery) => void;
  /** Shows the first page with `patch` applied. */
  change: (patch: Partial<AdminListQuery>) => void;
  /** The search text typed: shown now, searched after a pause. */
  typeSearch: (search: string) => void;
}) {
  const submit = (event: JSX.TargetedEvent<HTMLFormElement>) => {
    event.preventDefault();
    load({ ...query, page: 1 });
  };
  return (
    <form
      id="deals-filter"
      method="get"
      action={basePath}
      onSubmit={submit}
      class="mb-4 grid grid-cols-2 gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm xl:grid-cols-[minmax(14rem,2fr)_repeat(2,minmax(9rem,1fr))_auto]"
      role="search"
    >
      <label class="col-span-2 block xl:col-span-1">
        <span class="mb-1 block font-medium text-slate-700">Recherche</span>
        <span class="relative block">
          <span class="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-400">
            <Icon name="search" class="h-4 w-4" />
          </span>
          <input
            type="search"
            name="search"
            value={query.search}
            placeholder={LIST_MESSAGES.searchPlaceholder}
            aria-label={LIST_MESSAGES.searchPlaceholder}
            class={`${INPUT} pl-9`}
            maxLength={100}
            onInput={(e) => typeSearch((e.target as HTMLInputElement).value)}
          />
        </span>
      </label>
      <label class="block">
        <span class="mb-1 block font-medium text-slate-700">Date de début</span>
        <input
          type="date"
          name="from"
          value={query.from}
          max={query.to || undefined}
          class={INPUT}
          title={query.dateField === "createdAt"
            ? "Devis créés à partir de cette date"
            : "Prestations à partir de cette date"}
          onChange={(e) => change({ from: (e.target as HTMLInputElement).value })}
        />
      </label>
      <label class="block">
        <span class="mb-1 block font-medium text-slate-700">Date de fin</span>
        <input
          type="date"
          name="to"
          value={query.to}
          min={query.from || undefined}
          class={INPUT}
          title={query.dateField === "createdAt"
            ? "Devis créés jusqu'à cette date incluse"
            : "Prestations jusqu'à cette date incluse"}
          onChange={(e) => change({ to: (e.target as HTMLInputElement).value })}
        />
      </label>
      <div class="col-span-2 flex items-end gap-2 xl:col-span-1">
        <button type="submit" class="rounded-lg bg-slate-800 px-4 py-2 font-semibold text-white">
          Rechercher
        </button>
        <a
          href={basePath}
          class="rounded-lg border border-slate-300 px-4 py-2 font-medium text-slate-700 hover:border-brand-500"
          data-testid="reset-filters"
          onClick={(e) => {
            e.preventDefault();
            load({ ...DEFAULT_LIST_QUERY, perPage: query.perPage });
          }}
        >
          Réinitialiser
        </a>
      </div>
      <div class="col-span-2 flex flex-wrap items-end gap-3 xl:col-span-4">
        <label class="flex items-center gap-2">
          <span class="text-slate-600">Dates sur</span>
          <select
            name="dateField"
            value={query.dateField}
            class="rounded-lg border border-slate-300 bg-white px-2 py-1.5"
            data-testid="date-field"
            onChange={(e) => change({ dateField: (e.target as HTMLSelectElement).value as DateField })}
          >
            {DATE_FIELDS.map((f) => <option key={f} value={f}>{DATE_FIELD_LABELS[f]}</option>)}
          </select>
        </label>
        <label class="flex items-center gap-2">
          <span class="text-slate-600">Statut</span>
          <select
            name="status"
            value={query.status}
            class="rounded-lg border border-slate-300 bg-white px-2 py-1.5"
            data-testid="status-filter"
            onChange={(e) => change({ status: (e.target as HTMLSelectElement).value as DealStatus | "" })}
          >
            <option value="">Tous les statuts</option>
            {DEAL_STATUSES.map((s) => <option key={s} value={s}>{STATUS_LABELS[s]}</option>)}
          </select>
        </label>
        <label class="flex items-center gap-2">
          <span class="text-slate-600">Trier par</span>
          <select
            name="sort"
            value={query.sort}
            class="rounded-lg border border-slate-300 bg-white px-2 py-1.5"
            onChange={(e) => change({ sort: (e.target as HTMLSelectElement).value as SortKey })}
          >
            {SORT_KEYS.map((key) => <option key={key} value={key}>{SORT_LABELS[key]}</option>)}
          </select>
        </label>
        <label class="flex items-center gap-2">
          <span class="sr-only">Ordre</span>
          <select
            name="direction"
            value={query.direction}
            class="rounded-lg border border-slate-300 bg-white px-2 py-1.5"
            onChange={(e) =>
              change({ direction: (e.target as HTMLSelectElement).value === "asc" ? "asc" : "desc" })}
          >
            <option value="desc">Décroissant</option>
            <option value="asc">Croissant</option>
          </select>
        </label>
        <label class="flex items-center gap-2">
          <span class="text-slate-600">Par page</span>
          <select
            name="perPage"
            value={String(query.perPage)}
            class="rounded-lg border border-slate-300 bg-white px-2 py-1.5"
            onChange={(e) => change({ perPage: Number((e.target as HTMLSelectElement).value) })}
          >
            {PER_PAGE_CHOICES.map((n) => <option key={n} value={String(n)}>{n}</option>)}
          </select>
        </label>
      </div>
    </form>
  );
}
