// The organiser's actions on a date (admins): close it (no new bookings; reopenable) and cancel it
// (final: every booker told by email and each registration canceled — and refunded when paid — through
// the checkout's cancel_registration, every hold released, the waiting list stopped) — each in one
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
import { cancelRegistrationInTx } from "../../orders/use_cases/cancel_registration.ts";
import { PAYMENTS } from "../../payments/use_cases/record_card_payment.ts";
import { isActiveAdminUser } from "../../payments/store.ts";

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
  /** Registrations canceled (pending and paid), each told by email. */
  registrations: number;
  /** Cents queued for refund in all. */
  refunded: number;
  /** Places of cart holds released. */
  released: number;
}

/** Why a registration is canceled (the refund's reason, in the customer's email and the credit note). */
export const DATE_CANCELED_REASON = "Date de l'atelier annulée par l'organisateur";

export async function cancelSessionDate(deps: Deps, actor: Actor, uuid: string): Promise<CancelOutcome> {
  const admin = requireRole(actor, "Admin", { message: ADMIN_ONLY, notImpersonating: true });
  // As the payments system (the refunds and credit notes are its own), after checking the admin is one
  // in the same transaction, as the checkout's cancel_registration use case does.
  const outcome = await transactionAs(deps.db, PAYMENTS, async (tx) => {
    if (!(await isActiveAdminUser(tx, admin.user.id))) throw new AppError("forbidden", ADMIN_ONLY);
    const date = await findDateByUuid(tx, uuid);
    const session = date ? await findSessionById(tx, date.sessionId) : null;
    if (!date || !session) throw new AppError("not_found", SESSION_MESSAGES.notFound);
    const result = await cancelDate(tx, uuid);
    if (!result.ok) throw new AppError("not_found", SESSION_MESSAGES.notFound);
    if (result.already) return { already: true, registrations: 0, refunded: 0, released: 0 };
    // Every registration left: canceled, its places back, what was paid refunded (the refunds queue,
    // then the credit note), and the paid ones told by the checkout's own email.
    const bookers = await liveRegistrationsOfDate(tx, date.id);
    const unpaid: Record<string, number> = {};
    let refunded = 0;
    for (const booker of bookers) {
      let done;
      try {
        done = await cancelRegistrationInTx(
          tx,
          deps,
          booker.registrationId,
          DATE_CANCELED_REASON,
          admin.user.id,
        );
      } catch (error) {
        // Canceled meanwhile with its whole unpaid order (another line of the order): nothing more to do.
        if (error instanceof AppError && error.code === "conflict") continue;
        throw error;
      }
      refunded += done.refunded;
      if (booker.status !== "invoiced") unpaid[booker.registrationId] = 0;
    }
    // The bookers who had not paid yet are told too (the checkout emails only the paid ones).
    if (Object.keys(unpaid).length > 0) {
      await enqueue(tx, "session-date-canceled-mail", {
        title: session.title,
        dtstart: toUnix(date.dtstart),
        registrations: unpaid,
      });
    }
    return { already: false, registrations: bookers.length, refunded, released: result.released ?? 0 };
  });
  if (!outcome.already) {
    await deps.logger.info("sessions", "Date annulée", { date: uuid, adminId: admin.user.id, ...outcome });
  }
  return outcome;
}
