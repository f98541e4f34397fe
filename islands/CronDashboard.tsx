// 'Gestion des emails programmés (Cron)' (spec 001 §2.14, §8, §9): stat cards, refresh, a reload every
// 5 minutes, the cleanup of sent emails older than 30 days after the spec's confirmation, and the
// table of scheduled emails. The first data comes rendered by the server; GET /api/cron/status and
// POST /api/cron/cleanup afterwards.
import { useEffect, useState } from "react";
import { api, ApiError } from "../components/ui/api.ts";
import { Dialog } from "../components/ui/Dialog.tsx";
import { Notice, type NoticeState } from "../components/ui/Notice.tsx";
import { CronStatCards, CronTable } from "../components/mail/CronParts.tsx";
import {
  CRON_MESSAGES,
  CRON_NOTICE_MS,
  CRON_REFRESH_MS,
  type CronStats,
  type ScheduledEmailJson,
} from "../lib/mail/rules.ts";

export interface CronDashboardProps {
  stats: CronStats;
  nextCrons: ScheduledEmailJson[];
}

const messageOf = (error: unknown) =>
  error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);

export default function CronDashboard(props: CronDashboardProps) {
  const [data, setData] = useState(props);
  const [loading, setLoading] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [cleaning, setCleaning] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const say = (type: NoticeState["type"], text: string) => setNotice({ type, text, key: Date.now() });

  const refresh = async () => {
    setLoading(true);
    try {
      const answer = await api<{ success: boolean; data: CronDashboardProps }>("GET", "/api/cron/status");
      setData(answer.data);
    } catch (error) {
      say("error", CRON_MESSAGES.loadError(messageOf(error)));
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    const timer = setInterval(refresh, CRON_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  const cleanup = async () => {
    setCleaning(true);
    try {
      const answer = await api<{ success: boolean; message: string }>("POST", "/api/cron/cleanup");
      setConfirming(false);
      say("success", answer.message);
      await refresh();
    } catch (error) {
      setConfirming(false);
      say("error", CRON_MESSAGES.cleanupError(messageOf(error)));
    } finally {
      setCleaning(false);
    }
  };

  return (
    <div data-testid="cron-dashboard">
      <Notice notice={notice} onDone={() => setNotice(null)} durationMs={CRON_NOTICE_MS} />
      <div class="mb-4 flex flex-wrap gap-2">
        <button
          type="button"
          class="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm hover:border-brand-500 disabled:opacity-50"
          disabled={loading}
          onClick={refresh}
        >
          {loading ? "Actualisation…" : "Actualiser"}
        </button>
        <button
          type="button"
          class="rounded-lg border border-red-300 bg-white px-4 py-2 text-sm text-red-700 hover:bg-red-50"
          onClick={() => setConfirming(true)}
        >
          Nettoyer les anciens
        </button>
      </div>
      <CronStatCards stats={data.stats} />
      {data.nextCrons.length === 0
        ? (
          <p class="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-500">
            {CRON_MESSAGES.empty}
          </p>
        )
        : <CronTable rows={data.nextCrons} />}
      {confirming && (
        <Dialog
          open
          onClose={() => setConfirming(false)}
          title="Nettoyer les anciens"
          width={500}
        >
          <p class="mb-4 text-sm">{CRON_MESSAGES.cleanupConfirm}</p>
          <div class="flex justify-end gap-2">
            <button
              type="button"
              class="rounded-lg border border-slate-300 px-4 py-2 text-sm"
              onClick={() => setConfirming(false)}
            >
              Annuler
            </button>
            <button
              type="button"
              class="rounded-lg bg-red-600 px-4 py-2 text-sm font-medium text-white disabled:opacity-50"
              disabled={cleaning}
              onClick={cleanup}
            >
              {cleaning ? "Nettoyage…" : "Supprimer"}
            </button>
          </div>
        </Dialog>
      )}
    </div>
  );
}
