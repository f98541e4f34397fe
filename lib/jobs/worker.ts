// The app's own worker loop for outbox-type work, whatever runs the schedule: each queue's `drain`
// claims a batch of due rows (`for update skip locked`, so several instances share the work), handles
// them, and says how many it handled; the loop drains again at once while there was work, and
// otherwise waits `idleMs`. Retries with backoff are the queue's business (next_attempt_at).
//
// The loop never dies: a failing queue is logged (and a failing log written to the console), and
// each finished pass beats `deps.health` (GET /readyz). A watchdog starts a new loop when a pass has
// not ended within `passTimeoutMs` (a call that hangs): the stuck pass is left to finish or fail on
// its own, and the rows it claimed to their lease.
import type { Deps } from "../deps.ts";
import { observeJobRun } from "../metrics/jobs.ts";

export interface Queue {
  name: string;
  /** Handles one batch of due work; returns how many items it handled. */
  drain(deps: Deps): Promise<number>;
}

export interface Worker {
  /** Runs every queue once until none has work (tests, shutdown). */
  flush(): Promise<void>;
  /** Stops the loop and waits for the pass in hand, at most `waitMs` (default: as long as it takes). */
  stop(waitMs?: number): Promise<void>;
  /** Loops the watchdog started again. */
  readonly restarts: number;
}

export interface WorkerOptions {
  /** A pass still running after this long is given up for a new loop (default 60 s). */
  passTimeoutMs?: number;
}

export const DEFAULT_PASS_TIMEOUT_MS = 60_000;

export function startWorker(deps: Deps, queues: Queue[], idleMs = 2000, options: WorkerOptions = {}): Worker {
  const passTimeoutMs = options.passTimeoutMs ?? DEFAULT_PASS_TIMEOUT_MS;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  /** The current loop: a pass of an older one (given up by the watchdog) schedules nothing. */
  let generation = 0;
  let restarts = 0;

  const pass = async (): Promise<number> => {
    let handled = 0;
    for (const queue of queues) {
      if (stopped) break;
      try {
        handled += await observeJobRun(
          "queue-batch",
          queue.name,
          () => queue.drain(deps),
          (n) => n > 0 ? { outcome: "done", fields: { handled: n } } : null,
        );
      } catch (error) {
        // The log goes to the database, which may be what failed.
        await deps.logger.error("worker", `File de travail en échec : ${queue.name}`, {
          error: String(error),
        }).catch(() => console.error(`[worker] ${queue.name}: ${error}`));
      }
    }
    return handled;
  };
  const loop = () => {
    if (stopped) return;
    const current = generation;
    const watchdog = setTimeout(() => {
      if (current !== generation || stopped) return;
      generation++;
      restarts++;
      console.error(`[worker] a pass has run for over ${passTimeoutMs} ms: starting a new loop`);
      timer = setTimeout(loop, 0);
    }, passTimeoutMs);
    running = pass().catch((error) => {
      console.error(`[worker] pass failed: ${error}`);
      return 0;
    }).then((handled) => {
      clearTimeout(watchdog);
      if (current !== generation) return;
      deps.health?.workerBeat();
      if (!stopped) timer = setTimeout(loop, handled > 0 ? 0 : idleMs);
    });
  };
  if (queues.length) timer = setTimeout(loop, 0);
  else deps.health?.workerBeat();

  return {
    async flush() {
      await running;
      while ((await pass()) > 0) { /* until every queue is empty */ }
    },
    async stop(waitMs?: number) {
      stopped = true;
      clearTimeout(timer);
      if (waitMs === undefined) return await running;
      let wait: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([running, new Promise((resolve) => wait = setTimeout(resolve, waitMs))]);
      clearTimeout(wait);
    },
    get restarts() {
      return restarts;
    },
  };
}
