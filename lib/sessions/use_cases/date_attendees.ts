// A date's attendees for its organiser (admins): the registrations with each customer's name, email,
// phone, places, status and amount paid — as JSON, CSV and the sign-in sheet.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { SESSION_MESSAGES } from "../rules.ts";
import { type DateRow, findDateByUuid, findSessionById, type SessionRow } from "../store.ts";
import { attendeesOfDate } from "../ops_store.ts";
import type { Attendee } from "../attendees.ts";
import { ADMIN_ONLY } from "./admin_sessions.ts";

export interface DateAttendees {
  session: SessionRow;
  date: DateRow;
  attendees: Attendee[];
}

export async function dateAttendees(deps: Deps, actor: Actor, uuid: string): Promise<DateAttendees> {
  const admin = requireRole(actor, "Admin", { message: ADMIN_ONLY });
  const found = await transactionAs(deps.db, admin, async (tx) => {
    const date = await findDateByUuid(tx, uuid);
    const session = date ? await findSessionById(tx, date.sessionId) : null;
    if (!date || !session) return null;
    return { session, date, attendees: await attendeesOfDate(tx, date.id) };
  });
  if (!found) throw new AppError("not_found", SESSION_MESSAGES.notFound);
  return found;
}
