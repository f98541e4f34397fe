// The back office's reads (admins only): every session with its upcoming dates' fill, and one session
// with all its dates.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { SESSION_MESSAGES } from "../rules.ts";
import {
  type AdminSessionRow,
  type DateRow,
  findSessionById,
  listAllDates,
  listSessionsForAdmin,
  type SessionRow,
} from "../store.ts";

export const ADMIN_ONLY = "Seuls les administrateurs gèrent les ateliers.";

export function listSessionsAsAdmin(deps: Deps, actor: Actor): Promise<AdminSessionRow[]> {
  const admin = requireRole(actor, "Admin", { message: ADMIN_ONLY });
  return transactionAs(deps.db, admin, (tx) => listSessionsForAdmin(tx));
}

export async function sessionAsAdmin(
  deps: Deps,
  actor: Actor,
  id: number,
): Promise<{ session: SessionRow; dates: DateRow[] }> {
  const admin = requireRole(actor, "Admin", { message: ADMIN_ONLY });
  const found = await transactionAs(deps.db, admin, async (tx) => {
    const session = await findSessionById(tx, id);
    return session ? { session, dates: await listAllDates(tx, id) } : null;
  });
  if (!found) throw new AppError("not_found", SESSION_MESSAGES.sessionNotFound);
  return found;
}
