// The alerts at the top of 'Gestion des Logs': what needs an admin even when no log row says so — dead
// letters (jobs of a queue failed for good) and a stalled worker — shown as errors. Pure: shared by the
// server and the island.

export type AlertKind = "worker-stalled" | "dead-letters";

/** A job failed for good, as the page lists it (unix seconds). */
export interface DeadJob {
  id: number;
  queue: string;
  attempts: number;
  lastError: string | null;
  failedAt: number;
}

export interface OpsAlert {
  kind: AlertKind;
  /** The queue, for dead letters. */
  queue?: string;
  message: string;
  /** The latest jobs failed for good, for an outbox queue. */
  jobs?: DeadJob[];
}

/** Outbox dead letters listed on the page, newest first (the rest: 'GET /api/admin/outbox'). */
export const DEAD_JOBS_SHOWN = 5;

export const ALERT_MESSAGES = {
  title: "Alertes",
  jobLine: (job: DeadJob) => `Tâche n° ${job.id} : ${job.attempts} tentative${job.attempts > 1 ? "s" : ""}`,
} as const;

/** "45 s", "12 min", "3 h 05", "2 j 4 h". */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}`;
  return `${Math.floor(s / 86_400)} j ${Math.floor((s % 86_400) / 3600)} h`;
}

/** The worker's alert, or null when it is not stalled. */
export function workerAlert(
  stall: { stalled: boolean; silentSeconds: number; never: boolean },
  thresholdSeconds: number,
): OpsAlert | null {
  if (!stall.stalled) return null;
  const since = durationText(stall.silentSeconds);
  const limit = durationText(thresholdSeconds);
  return {
    kind: "worker-stalled",
    message: stall.never
      ? `Le worker n'a traité aucune file depuis le démarrage, il y a ${since} (seuil : ${limit}).`
      : `Le worker ne traite plus les files : dernier passage il y a ${since} (seuil : ${limit}).`,
  };
}

/** One alert per queue holding jobs failed for good. */
export function deadLetterAlerts(
  queues: { store: string; queue: string; failed: number }[],
  recent: DeadJob[],
): OpsAlert[] {
  return queues.filter((q) => q.failed > 0).map((q) => {
    const jobs = q.store === "outbox" ? recent.filter((job) => job.queue === q.queue) : [];
    return {
      kind: "dead-letters",
      queue: q.queue,
      message: `${q.failed} tâche${q.failed > 1 ? "s" : ""} en échec définitif dans la file « ${q.queue} »` +
        (q.store === "outbox" ? " (à relancer depuis la file de tâches)." : "."),
      ...(jobs.length ? { jobs } : {}),
    };
  });
}
