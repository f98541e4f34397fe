// A date's bookings for its organiser (admins): the carts holding places now (who, how many, until
// when), the registrations with their status, and how many visitors wait for a place.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { SESSION_MESSAGES } from "../rules.ts";
import {
  alertsOfDate,
  type DateRow,
  findDateByUuid,
  findSessionById,
  type HoldRow,
  holdsOfDate,
  type RegistrationRow,
  registrationsOfDate,
  type SessionRow,
} from "../store.ts";
import { ADMIN_ONLY } from "./admin_sessions.ts";
import { attendeesOfDate } from "../ops_store.ts";
import type { Attendee } from "../attendees.ts";
import { type DateOrderLedger, orderLedgerOfDate } from "../../orders/store.ts";

export interface DateBookings {
  session: SessionRow;
  date: DateRow;
  holds: HoldRow[];
  registrations: RegistrationRow[];
  alerts: number;
  /** The registrations with their customers' names and contacts (the attendees list). */
  attendees: Attendee[];
  /** The date's paid orders: payments, refunds, documents (lib/orders). */
  orders: DateOrderLedger[];
}

export async function dateBookings(deps: Deps, actor: Actor, uuid: string): Promise<DateBookings> {
  const admin = requireRole(actor, "Admin", { message: ADMIN_ONLY });
  const found = await transactionAs(deps.db, admin, async (tx) => {
    const date = await findDateByUuid(tx, uuid);
    const session = date ? await findSessionById(tx, date.sessionId) : null;
    if (!date || !session) return null;
    return {
      session,
      date,
      holds: await holdsOfDate(tx, date.id),
      registrations: await registrationsOfDate(tx, date.id),
      alerts: await alertsOfDate(tx, date.id),
      attendees: await attendeesOfDate(tx, date.id),
      orders: await orderLedgerOfDate(tx, date.id),
    };
  });
  if (!found) throw new AppError("not_found", SESSION_MESSAGES.notFound);
  return found;
}
