// 'Gestion des Logs' (spec 001 §2.13, §8, §9): stat cards, service and type filters, refresh (and every
// 5 minutes by itself), 50 rows a page newest first, delete per row and 'Nettoyer les anciens', each
// after a confirmation; snackbars of 3000 ms. Above them, the alerts (dead letters, a stalled worker). The server renders the first view; the filters and
// page follow in the URL so that a reload shows the same rows.
import { useEffect, useRef, useState } from "react";
import { api, ApiError } from "../components/ui/api.ts";
import { Dialog } from "../components/ui/Dialog.tsx";
import { Notice, type NoticeState } from "../components/ui/Notice.tsx";
import { Filters, LogTable, Pages, StatCards } from "../components/ops/LogParts.tsx";
import { LogAlerts } from "../components/ops/LogAlerts.tsx";
import {
  filtersQuery,
  LOG_MESSAGES,
  LOG_NOTICE_MS,
  LOG_REFRESH_MS,
  type LogEntry,
  type LogFilters,
  type LogsData,
  pageCountOf,
} from "../lib/ops/rules.ts";

export interface LogsManagerProps {
  initial: LogsData;
  /** The filters of the first view (the page's query string). */
  filters: LogFilters;
}

const reason = (error: unknown) =>
  error instanceof ApiError || error instanceof Error ? error.message : String(error);

export default function LogsManager({ initial, filters: initialFilters }: LogsManagerProps) {
  const [data, setData] = useState(initial);
  const [filters, setFilters] = useState<LogFilters>(initialFilters);
  const [loading, setLoading] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [toDelete, setToDelete] = useState<LogEntry | null>(null);
  const [confirmCleanup, setConfirmCleanup] = useState(false);
  const [busyId, setBusyId] = useState<number | null>(null);
  const seq = useRef(0);
  const filtersRef = useRef(filters);
  filtersRef.current = filters;

  const say = (type: NoticeState["type"], text: string) => setNotice({ type, text, key: Date.now() });

  const load = async (next: LogFilters) => {
    const mine = ++seq.current;
    setFilters(next);
    setLoading(true);
    try {
      const body = await api<{ success: boolean; data: LogsData }>("GET", `/api/logs${filtersQuery(next)}`);
      if (mine !== seq.current) return;
      setData(body.data);
      // A page that no longer exists (rows deleted meanwhile) shows the last one.
      const pages = pageCountOf(body.data.total, body.data.pageSize);
      if (next.page > pages) return void load({ ...next, page: pages });
      history.replaceState(null, "", `${location.pathname}${filtersQuery(next)}`);
    } catch (error) {
      if (mine === seq.current) say("error", LOG_MESSAGES.loadError(reason(error)));
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  };

  useEffect(() => {
    const timer = setInterval(() => load(filtersRef.current), LOG_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  const remove = async () => {
    const log = toDelete;
    if (!log) return;
    setToDelete(null);
    setBusyId(log.id);
    try {
      const body = await api<{ message?: string }>("DELETE", `/api/logs/${log.id}`);
      say("success", body.message ?? LOG_MESSAGES.deleted);
      await load(filtersRef.current);
    } catch (error) {
      say("error", LOG_MESSAGES.deleteError(reason(error)));
    } finally {
      setBusyId(null);
    }
  };

  const cleanup = async () => {
    setConfirmCleanup(false);
    setLoading(true);
    try {
      const body = await api<{ message: string }>("POST", "/api/logs/cleanup");
      say("success", body.message);
      await load({ ...filtersRef.current, page: 1 });
    } catch (error) {
      say("error", LOG_MESSAGES.cleanupError(reason(error)));
      setLoading(false);
    }
  };

  const button =
    "inline-flex items-center gap-2 rounded-lg px-4 py-2 text-sm font-medium disabled:opacity-50";
  return (
    <div data-testid="logs-manager" aria-busy={loading}>
      <p
        class={`mb-4 rounded-lg px-4 py-3 text-sm ${
          data.hubspot.enabled ? "bg-emerald-50 text-emerald-900" : "bg-amber-50 text-amber-900"
        }`}
        data-testid="hubspot-sync"
      >
        {data.hubspot.message}
      </p>
      <LogAlerts alerts={data.alerts ?? []} />
      <StatCards stats={data.stats} />
      <div class="mb-4 flex flex-wrap items-end justify-between gap-3">
        <Filters
          filters={filters}
          services={data.services}
          disabled={false}
          onChange={(change) => load({ ...filters, ...change, page: 1 })}
        />
        <div class="flex flex-wrap gap-2">
          <button
            type="button"
            class={`${button} border border-slate-300 bg-white hover:border-slate-500`}
            disabled={loading}
            onClick={() => load(filters)}
          >
            {LOG_MESSAGES.refresh}
          </button>
          <button
            type="button"
            class={`${button} bg-red-700 text-white hover:bg-red-800`}
            disabled={loading}
            onClick={() => setConfirmCleanup(true)}
          >
            {LOG_MESSAGES.cleanup}
          </button>
        </div>
      </div>
      <LogTable
        logs={data.logs}
        busyId={busyId}
        onDelete={setToDelete}
        filtered={Boolean(filters.service || filters.type)}
      />
      <Pages
        page={data.page}
        pages={pageCountOf(data.total, data.pageSize)}
        total={data.total}
        pageSize={data.pageSize}
        disabled={loading}
        onPage={(page) => load({ ...filters, page })}
      />
      <Dialog open={toDelete !== null} onClose={() => setToDelete(null)} title="Supprimer le log" width={500}>
        <p class="mb-6 text-sm">{LOG_MESSAGES.confirmDelete}</p>
        <div class="flex justify-end gap-2">
          <button type="button" class={`${button} border border-slate-300`} onClick={() => setToDelete(null)}>
            Annuler
          </button>
          <button type="button" class={`${button} bg-red-700 text-white`} onClick={remove}>
            Supprimer
          </button>
        </div>
      </Dialog>
      <Dialog
        open={confirmCleanup}
        onClose={() => setConfirmCleanup(false)}
        title={LOG_MESSAGES.cleanup}
        width={500}
      >
        <p class="mb-6 text-sm">{LOG_MESSAGES.confirmCleanup}</p>
        <div class="flex justify-end gap-2">
          <button
            type="button"
            class={`${button} border border-slate-300`}
            onClick={() => setConfirmCleanup(false)}
          >
            Annuler
          </button>
          <button type="button" class={`${button} bg-red-700 text-white`} onClick={cleanup}>
            Nettoyer
          </button>
        </div>
      </Dialog>
      <Notice notice={notice} durationMs={LOG_NOTICE_MS} onDone={() => setNotice(null)} />
    </div>
  );
}
