// Whether the worker loop is stalled: no finished pass for longer than the threshold
// (WORKER_STALL_SECONDS). Before its first pass the wait counts from the process's start. Pure (the
// clock is a parameter): shared by /metrics (worker_stalled) and the logs page's alerts.
import type { Health } from "./state.ts";

export interface WorkerStall {
  stalled: boolean;
  /** Seconds since the last pass (or since the process started, before any pass). */
  silentSeconds: number;
  /** No pass since the process started. */
  never: boolean;
}

export function workerStall(
  health: Pick<Health, "lastWorkerBeat">,
  thresholdSeconds: number,
  now = Date.now(),
  startedAt = performance.timeOrigin,
): WorkerStall {
  const last = health.lastWorkerBeat;
  const silentSeconds = Math.max(0, Math.floor((now - (last ?? startedAt)) / 1000));
  return { stalled: silentSeconds > thresholdSeconds, silentSeconds, never: last === null };
}
