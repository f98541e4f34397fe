// The idempotency key of the running request, as the creation's transaction sees it. The HTTP
// middleware (lib/http/idempotency.ts) runs the handler inside `withReservation`; a use case that creates
// something calls `recordCreation(tx)` inside the transaction that creates it, so that the creation and
// the key's mark commit together (or not at all). Without a reservation (no header, a job, the CLI)
// recordCreation does nothing.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Tx } from "../db/database.ts";
import { AppError } from "../errors.ts";
import { IDEMPOTENCY_MESSAGES } from "./rules.ts";
import { type KeyRef, recordCreationSql } from "./store.ts";

export interface Reservation extends KeyRef {
  token: string;
  /** Set once the handler has answered: work it left running in the background marks nothing. */
  finished: boolean;
}

const current = new AsyncLocalStorage<Reservation>();

export function withReservation<T>(reservation: Reservation, fn: () => Promise<T>): Promise<T> {
  return current.run(reservation, fn);
}

/** Marks the request's idempotency key as used by this transaction's creation. Throws a 409 (the
 * database refused the mark with SQLSTATE IK409) when a retry took the key over since: the creation
 * then rolls back with the transaction. */
export async function recordCreation(tx: Tx): Promise<void> {
  const reservation = current.getStore();
  if (!reservation || reservation.finished) return;
  try {
    await recordCreationSql(tx, reservation, reservation.token);
  } catch (error) {
    if (isKeySuperseded(error)) throw new AppError("conflict", IDEMPOTENCY_MESSAGES.inProgress);
    throw error;
  }
}

/** The database's refusal of a mark whose key is no longer the request's. */
export function isKeySuperseded(error: unknown): boolean {
  return (error as { code?: unknown })?.code === "IK409";
}
