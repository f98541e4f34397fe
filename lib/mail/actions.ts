// Use cases of the email outbox as seen by admins (RLS: admins only, never the emails whose links
// would open an account).
import { type Actor, requireRole, transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import { listOutbox, type OutboxEntry } from "./outbox.ts";

export async function readOutbox(deps: Deps, actor: Actor): Promise<OutboxEntry[]> {
  const admin = requireRole(actor, "Admin");
  return await transactionAs(deps.db, admin, (tx) => listOutbox(tx));
}
