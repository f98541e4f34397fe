// Direct database access for test set-up and checks, as the system (RLS bypassed on purpose).
import { statementAs, systemActor, transactionAs } from "../../lib/actor.ts";
import type { Database } from "../../lib/db/database.ts";

export function systemQuery<T = Record<string, unknown>>(
  db: Database,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  return statementAs<T>(db, systemActor("seed"), text, params);
}

/** The actor tests use to set up and check data directly. */
export const TEST_SYSTEM = systemActor("seed");
export { transactionAs };
