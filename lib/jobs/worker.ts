// The app's own worker loop for outbox-type work, whatever runs the schedule: each queue's `drain`
// claims a batch of due rows (`for update skip locked`, so several instances share the work), handles
// them, and says how many it handled; the loop drains again at once while there was work, and
// otherwise waits `idleMs`. Retries with backoff are the queue's business (next_attempt_at).
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
  stop(): Promise<void>;
}

export function startWorker(deps: Deps, queues: Queue[], idleMs = 2000): Worker {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();

  const pass = async (): Promise<number> => {
    let handled = 0;
    for (const queue of queues) {
      try {
        handled += await observeJobRun(
          "queue-batch",
          queue.name,
          () => queue.drain(deps),
          (n) => n > 0 ? { outcome: "done", fields: { handled: n } } : null,
        );
      } catch (error) {
        await deps.logger.error("worker", `File de travail en échec : ${queue.name}`, {
          error: String(error),
        });
      }
    }
    return handled;
  };
  const loop = () => {
    if (stopped) return;
    running = pass().then((handled) => {
      if (!stopped) timer = setTimeout(loop, handled > 0 ? 0 : idleMs);
    });
  };
  if (queues.length) timer = setTimeout(loop, 0);

  return {
    async flush() {
      await running;
      while ((await pass()) > 0) { /* until every queue is empty */ }
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
