// Use cases of the email outbox as seen by admins (RLS: admins only, never the emails whose links
// would open an account).
import type { Actor } from "../actor.ts";
import { transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { listOutbox, type OutboxEntry } from "./outbox.ts";

export async function readOutbox(deps: Deps, actor: Actor): Promise<OutboxEntry[]> {
  if (actor.kind !== "user" || actor.user.type !== "Admin") throw new AppError("forbidden");
  return await transactionAs(deps.db, actor, (tx) => listOutbox(tx));
}
