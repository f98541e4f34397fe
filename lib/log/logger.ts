// The one logger: writes to the `logs` table in its own transaction (so a failed action still leaves
// its log), and to the console for operators.
import { type Database, SERVICE } from "../db/database.ts";

export type LogType = "error" | "warning" | "info";

export interface Logger {
  log(service: string, type: LogType, message: string, context?: Record<string, unknown>): Promise<void>;
  error(service: string, message: string, context?: Record<string, unknown>): Promise<void>;
  warning(service: string, message: string, context?: Record<string, unknown>): Promise<void>;
  info(service: string, message: string, context?: Record<string, unknown>): Promise<void>;
}

export function createLogger(db: Database, options: { quiet?: boolean } = {}): Logger {
  const log = async (
    service: string,
    type: LogType,
    message: string,
    context: Record<string, unknown> = {},
  ) => {
    if (!options.quiet) {
      const line = `[${type}] ${service}: ${message}`;
      if (type === "error") console.error(line, context);
      else console.log(line);
    }
    try {
      await db.transaction(
        SERVICE,
        (tx) =>
          // The object itself: postgres.js serialises jsonb parameters (a string would be stored as
          // a JSON string).
          tx`insert into public.logs (service, type, message, context)
             values (${service}, ${type}, ${message}, ${context}::jsonb)`,
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
