// Enqueueing a job: inside the caller's transaction, whoever the actor is (a signed-in user or the
// system), so that the job exists if and only if the action commits. The handler of the queue runs it
// later, in the worker (lib/outbox/worker.ts), outside any transaction.
//
//   await transactionAs(deps.db, actor, async (tx) => {
//     … the action's own writes …
//     await enqueue(tx, "crm-push", { dealId }, { key: `deal-${dealId}` });
//   });
//
// The payload is a JSON object of references (ids), never secrets: admins read payloads. A key
// coalesces repeats: while a job of the same queue and key is pending, enqueueing again updates that
// job (new payload, the earlier of the two run-at times) rather than adding one.
import type { Tx } from "../db/database.ts";
import { insertJob } from "./store.ts";
import { isQueueName, MAX_KEY_LENGTH } from "./rules.ts";

export interface EnqueueOptions {
  /** Coalescing key: one pending job per queue and key. */
  key?: string;
  /** Not before this time (default: now). */
  runAt?: Date;
  /** Attempts before the job fails for good (default 8, at most 50). */
  maxAttempts?: number;
}

/** Returns the job's id (the pending job it was merged into, when its key matched one). */
export function enqueue(
  tx: Tx,
  queue: string,
  payload: Record<string, unknown>,
  options: EnqueueOptions = {},
): Promise<number> {
  // Programming errors, not user input: every queue name and key is chosen by the code.
  if (!isQueueName(queue)) throw new Error(`Nom de file invalide : ${queue}`);
  if (options.key !== undefined && (options.key.length === 0 || options.key.length > MAX_KEY_LENGTH)) {
    throw new Error(`Clé de tâche invalide : ${options.key}`);
  }
  if (options.runAt && Number.isNaN(options.runAt.getTime())) throw new Error("Date d'exécution invalide");
  const maxAttempts = options.maxAttempts;
  if (
    maxAttempts !== undefined && !(Number.isInteger(maxAttempts) && maxAttempts >= 1 && maxAttempts <= 50)
  ) {
    throw new Error(`Nombre de tentatives invalide : ${maxAttempts}`);
  }
  return insertJob(tx, queue, payload, options.key ?? null, options.runAt ?? null, maxAttempts ?? null);
}
