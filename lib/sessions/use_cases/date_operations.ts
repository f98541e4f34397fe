// The organiser's actions on a date (admins): close it (no new bookings; reopenable) and cancel it
// (final: every booker told by email and each paid registration canceled and refunded through the
// checkout's cancel_registration, every hold released, the waiting list stopped) — each in one
// transaction under the date's row lock; canceling twice is one cancellation.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { enqueue } from "../../outbox/enqueue.ts";
import { OPS_MESSAGES, SESSION_MESSAGES } from "../rules.ts";
import { findDateByUuid, findSessionById } from "../store.ts";
import { cancelDate, liveRegistrationsOfDate, setDateClosed } from "../ops_store.ts";
import { toUnix } from "../offers.ts";
import { ADMIN_ONLY } from "./admin_sessions.ts";
import { cancelPaidRegistration } from "../refunds.ts";

export async function closeDate(deps: Deps, actor: Actor, uuid: string, closed: boolean): Promise<string> {
  const admin = requireRole(actor, "Admin", { message: ADMIN_ONLY, notImpersonating: true });
  const result = await transactionAs(deps.db, admin, (tx) => setDateClosed(tx, uuid, closed));
  if (!result.ok) {
    if (result.reason === "canceled") throw new AppError("conflict", OPS_MESSAGES.cannotReopenCanceled);
    throw new AppError("not_found", SESSION_MESSAGES.notFound);
  }
  await deps.logger.info("sessions", closed ? "Date fermée" : "Date rouverte", {
    date: uuid,
    adminId: admin.user.id,
  });
  return closed ? OPS_MESSAGES.closed : OPS_MESSAGES.reopened;
}

export interface CancelOutcome {
  already: boolean;
  /** Registrations canceled (pending and paid) and told by email. */
  registrations: number;
  /** Cents refunded in all. */
  refunded: number;
  released: number;
}

export async function cancelSessionDate(deps: Deps, actor: Actor, uuid: string): Promise<CancelOutcome> {
  const admin = requireRole(actor, "Admin", { message: ADMIN_ONLY, notImpersonating: true });
  const outcome = await transactionAs(deps.db, admin, async (tx) => {
    const date = await findDateByUuid(tx, uuid);
    const session = date ? await findSessionById(tx, date.sessionId) : null;
    if (!date || !session) throw new AppError("not_found", SESSION_MESSAGES.notFound);
    // Who is concerned, and how much each paid, before the cancellation changes their status.
    const bookers = await liveRegistrationsOfDate(tx, date.id);
    const result = await cancelDate(tx, uuid);
    if (!result.ok) throw new AppError("not_found", SESSION_MESSAGES.notFound);
    if (result.already) return { already: true, registrations: 0, refunded: 0, released: 0 };
    const told: Record<string, number> = {};
    let refunded = 0;
    for (const booker of bookers) {
      if (booker.status === "invoiced") {
        const cents = await cancelPaidRegistration(tx, booker.registrationId);
        told[booker.registrationId] = cents;
        refunded += cents;
      } else {
        told[booker.registrationId] = 0;
      }
    }
    if (bookers.length > 0) {
      await enqueue(tx, "session-date-canceled-mail", {
        title: session.title,
        dtstart: toUnix(date.dtstart),
        registrations: told,
      });
    }
    return { already: false, registrations: bookers.length, refunded, released: result.released ?? 0 };
  });
  if (!outcome.already) {
    await deps.logger.info("sessions", "Date annulée", { date: uuid, adminId: admin.user.id, ...outcome });
  }
  return outcome;
}
