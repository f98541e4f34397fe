// Parts of the logs page's island: stat cards, filters, the table and its pages.
import { Icon } from "../ui/Icon.tsx";
import {
  LOG_MESSAGES,
  LOG_STAT_LABELS,
  LOG_TYPE_LABELS,
  LOG_TYPES,
  type LogEntry,
  type LogFilters,
  type LogStats,
  type LogType,
  serviceLabel,
} from "../../lib/ops/rules.ts";

const dateTime = new Intl.DateTimeFormat("fr-FR", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZone: "Europe/Paris",
});

const TYPE_STYLES: Record<LogType, string> = {
  error: "bg-red-100 text-red-800",
  warning: "bg-amber-100 text-amber-900",
  info: "bg-sky-100 text-sky-900",
};

const STAT_STYLES: Record<keyof LogStats, string> = {
  total: "border-slate-200",
  errors: "border-red-300",
  warnings: "border-amber-300",
  info: "border-sky-300",
  today: "border-emerald-300",
};

function TypeChip({ type }: { type: LogType }) {
  return (
    <span class={`rounded-full px-2 py-0.5 text-xs font-medium ${TYPE_STYLES[type]}`}>
      {LOG_TYPE_LABELS[type]}
    </span>
  );
}

export function StatCards({ stats }: { stats: LogStats }) {
  return (
    <div class="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      {(Object.keys(LOG_STAT_LABELS) as (keyof LogStats)[]).map((key) => (
        <div
          key={key}
          class={`rounded-xl border-2 bg-white p-4 ${STAT_STYLES[key]}`}
          data-testid={`stat-${key}`}
        >
          <p class="text-sm text-slate-600">{LOG_STAT_LABELS[key]}</p>
          <p class="text-2xl font-bold tabular-nums">{stats[key].toLocaleString("fr-FR")}</p>
        </div>
      ))}
    </div>
  );
}

export function Filters({ filters, services, onChange, disabled }: {
  filters: LogFilters;
  services: string[];
  onChange: (next: Partial<LogFilters>) => void;
  disabled: boolean;
}) {
  const select = "rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm";
  return (
    <div class="flex flex-wrap gap-3">
      <label class="flex flex-col text-sm">
        <span class="mb-1 text-slate-600">Service</span>
        <select
          name="service"
          class={select}
          value={filters.service}
          disabled={disabled}
          onChange={(e) => onChange({ service: (e.target as HTMLSelectElement).value })}
        >
          <option value="">{LOG_MESSAGES.allServices}</option>
          {services.map((s) => <option key={s} value={s}>{serviceLabel(s)}</option>)}
        </select>
      </label>
      <label class="flex flex-col text-sm">
        <span class="mb-1 text-slate-600">Type</span>
        <select
          name="type"
          class={select}
          value={filters.type}
          disabled={disabled}
          onChange={(e) => onChange({ type: (e.target as HTMLSelectElement).value as LogType | "" })}
        >
          <option value="">{LOG_MESSAGES.allTypes}</option>
          {LOG_TYPES.map((t) => <option key={t} value={t}>{LOG_TYPE_LABELS[t]}</option>)}
        </select>
      </label>
    </div>
  );
}

export function LogTable({ logs, onDelete, busyId, filtered = false }: {
  logs: LogEntry[];
  /** A service or type filter is set: an empty list says the filters match nothing. */
  filtered?: boolean;
  onDelete: (log: LogEntry) => void;
  busyId: number | null;
}) {
  if (logs.length === 0) {
    return (
      <p class="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-500">
        {filtered ? LOG_MESSAGES.noMatch : LOG_MESSAGES.empty}
      </p>
    );
  }
  return (
    <div class="overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table class="w-full text-left text-sm">
        <thead class="bg-slate-50 text-slate-600">
          <tr>
            <th class="px-3 py-3 sm:px-4">Date</th>
            <th class="hidden px-4 py-3 sm:table-cell">Service</th>
            <th class="hidden px-4 py-3 sm:table-cell">Type</th>
            <th class="px-3 py-3 sm:px-4">Message</th>
            <th class="px-2 py-3 text-right sm:px-4">Actions</th>
          </tr>
        </thead>
        <tbody>
          {logs.map((log) => (
            <tr key={log.id} class="border-t border-slate-100 align-top" data-log-id={log.id}>
              <td class="px-3 py-3 tabular-nums sm:whitespace-nowrap sm:px-4">
                {dateTime.format(log.createdAt * 1000)}
                {/* On a phone, service and type go under the date: three columns fit 390 px. */}
                <span class="mt-1 flex flex-wrap items-center gap-1 sm:hidden">
                  <span class="text-xs" title={log.service}>{serviceLabel(log.service)}</span>
                  <TypeChip type={log.type} />
                </span>
              </td>
              <td class="hidden px-4 py-3 text-xs sm:table-cell" title={log.service}>
                {serviceLabel(log.service)}
              </td>
              <td class="hidden px-4 py-3 sm:table-cell">
                <TypeChip type={log.type} />
              </td>
              <td class="px-3 py-3 sm:min-w-64 sm:px-4">
                <span class="break-words">{log.message}</span>
                {Object.keys(log.context).length > 0 && (
                  <details class="mt-1 text-xs text-slate-500">
                    <summary class="cursor-pointer">Détails</summary>
                    <pre class="mt-1 max-w-xl overflow-x-auto whitespace-pre-wrap break-all">{JSON.stringify(log.context, null, 2)}</pre>
                  </details>
                )}
              </td>
              <td class="px-2 py-3 text-right sm:px-4">
                <button
                  type="button"
                  aria-label="Supprimer le log"
                  title="Supprimer"
                  disabled={busyId === log.id}
                  class="rounded-lg p-2 text-red-700 hover:bg-red-50 disabled:opacity-50"
                  onClick={() =>
                    onDelete(log)}
                >
                  <Icon name="trash" />
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Pages({ page, pages, total, pageSize, onPage, disabled }: {
  page: number;
  pages: number;
  total: number;
  pageSize: number;
  onPage: (page: number) => void;
  disabled: boolean;
}) {
  if (total === 0) return null;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, total);
  const button = "rounded-lg border border-slate-300 px-3 py-1.5 text-sm disabled:opacity-40";
  return (
    <div class="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
      <span data-testid="logs-range">{first}–{last} sur {total.toLocaleString("fr-FR")}</span>
      <div class="flex items-center gap-2">
        <button
          type="button"
          class={button}
          disabled={disabled || page <= 1}
          onClick={() => onPage(page - 1)}
        >
          Précédent
        </button>
        <span>Page {page} / {pages}</span>
        <button
          type="button"
          class={button}
          disabled={disabled || page >= pages}
          onClick={() => onPage(page + 1)}
        >
          Suivant
        </button>
      </div>
    </div>
  );
}
