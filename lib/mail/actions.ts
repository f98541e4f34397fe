// Use cases of the email outbox as seen by admins (RLS: admins only, never the emails whose links
// would open an account).
import { type Actor, requireRole, transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { listOutbox, type OutboxEntry } from "./outbox.ts";
import { MAIL_MESSAGES } from "./rules.ts";
import { type OutboxEmail, outboxEmail } from "./store.ts";

export async function readOutbox(deps: Deps, actor: Actor): Promise<OutboxEntry[]> {
  const admin = requireRole(actor, "Admin");
  return await transactionAs(deps.db, admin, (tx) => listOutbox(tx));
}

/** One email of 'Emails envoyés', to show as rendered HTML (404 when absent or hidden). */
export async function readOutboxEmail(deps: Deps, actor: Actor, id: string): Promise<OutboxEmail> {
  const admin = requireRole(actor, "Admin");
  const email = await transactionAs(deps.db, admin, (tx) => outboxEmail(tx, id));
  if (!email) throw new AppError("not_found", MAIL_MESSAGES.notFound);
  return email;
}
