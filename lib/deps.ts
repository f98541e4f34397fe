// What every use case receives: configuration, database, logger, the background queue for work done
// after answering, and file storage.
import type { SessionCache } from "./auth/session_cache.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/database.ts";
import type { Logger } from "./log/logger.ts";
import type { Storage } from "./storage/storage.ts";
import type { PaymentProvider } from "./payments/provider.ts";
import type { Health } from "./health/state.ts";

export interface Deps {
  config: Config;
  db: Database;
  logger: Logger;
  background: Background;
  storage: Storage;
  /** The card payment provider, or null when payments cannot run (production without Stripe keys). */
  payments?: PaymentProvider | null;
  /** Sessions resolved a moment ago (lib/auth/session_cache.ts); without it every request looks its
   * session up. */
  sessions?: SessionCache;
  /** This instance's health signals (worker heartbeat, LISTEN state) for /readyz and /metrics. */
  health?: Health;
}

/** Work started after the answer has left (so that its duration reveals nothing to the caller).
 * `settle()` waits for what is under way: tests, and graceful shutdown. */
export interface Background {
  run(name: string, task: () => Promise<unknown>): void;
  settle(): Promise<void>;
}

/** `manual`: tasks wait until `settle()` (tests use it to see the state between answer and work). */
export function createBackground(logger: Logger, options: { manual?: boolean } = {}): Background {
  const running = new Set<Promise<unknown>>();
  const waiting: [string, () => Promise<unknown>][] = [];
  const start = (name: string, task: () => Promise<unknown>) => {
    const promise: Promise<unknown> = Promise.resolve()
      .then(task)
      .catch((error) =>
        logger.error("background", `Tâche en arrière-plan en échec : ${name}`, { error: String(error) })
      )
      .finally(() => running.delete(promise));
    running.add(promise);
  };
  return {
    run(name, task) {
      if (options.manual) waiting.push([name, task]);
      else start(name, task);
    },
    async settle() {
      while (waiting.length || running.size) {
        waiting.splice(0).forEach(([name, task]) => start(name, task));
        await Promise.allSettled([...running]);
      }
    },
  };
}
