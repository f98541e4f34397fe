// The one logger: writes to the `logs` table in its own transaction (so a failed action still leaves
// its log), and to the console for operators. Errors caused by anonymous requests go through a budget
// (`anonymousBudget`) so that nobody can flood the table from outside. A log written while serving a
// request or a job run carries its id (`requestId` in the row's context and on the console line: see
// request_context.ts), so that an admin can find every line a customer's "référence" names.
import { statementAs, systemActor } from "../actor.ts";
import type { Database } from "../db/database.ts";
import { currentRequestId } from "./request_context.ts";

export type LogType = "error" | "warning" | "info";

export interface Logger {
  log(service: string, type: LogType, message: string, context?: Record<string, unknown>): Promise<void>;
  error(service: string, message: string, context?: Record<string, unknown>): Promise<void>;
  warning(service: string, message: string, context?: Record<string, unknown>): Promise<void>;
  info(service: string, message: string, context?: Record<string, unknown>): Promise<void>;
}

const LOG_ACTOR = systemActor("log");

export function createLogger(db: Database, options: { quiet?: boolean } = {}): Logger {
  const log = async (
    service: string,
    type: LogType,
    message: string,
    context: Record<string, unknown> = {},
  ) => {
    const requestId = currentRequestId();
    if (requestId && context.requestId === undefined) context = { ...context, requestId };
    if (!options.quiet) {
      const line = `[${type}] ${service}: ${message}${requestId ? ` (requête ${requestId})` : ""}`;
      if (type === "error") console.error(line, context);
      else console.log(line);
    }
    try {
      // The object itself: both drivers serialise jsonb parameters (a string would be stored as a JSON
      // string).
      await statementAs(
        db,
        LOG_ACTOR,
        "insert into public.logs (service, type, message, context) values ($1, $2, $3, $4::jsonb)",
        [service, type, message.slice(0, 2000), context],
      );
    } catch (error) {
      // Logging must never break the action that logs.
      console.error("Impossible d'écrire le log", error);
    }
  };
  return {
    log,
    error: (s, m, c) => log(s, "error", m, c),
    warning: (s, m, c) => log(s, "warning", m, c),
    info: (s, m, c) => log(s, "info", m, c),
  };
}

/** At most `perMinute` rows a minute (per instance); beyond, the caller logs to the console only. */
export function createLogBudget(perMinute: number, now = () => Date.now()) {
  let windowStart = 0;
  let used = 0;
  return {
    take(): boolean {
      const t = now();
      if (t - windowStart >= 60_000) {
        windowStart = t;
        used = 0;
      }
      return used++ < perMinute;
    },
  };
}
