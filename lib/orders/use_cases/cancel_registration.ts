// Cancels a registration (an admin; the sessions back office calls it for every booker of a canceled
// date): public.cancel_registration() gives its places back and queues the refund of what was paid for
// it (the refunds queue, then record_refund and the credit note, issued by 'order-settle'), in one
// transaction with the customer's email. Admins only, checked here and in the database (the function
// is the service role's).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import type { Tx } from "../../db/database.ts";
import { enqueueEmail } from "../../mail/outbox.ts";
import { registrationCanceledEmail } from "../../mail/templates/registration-canceled.ts";
import { PAYMENTS } from "../../payments/use_cases/record_card_payment.ts";
import { isActiveAdminUser } from "../../payments/store.ts";
import { toUnix } from "../../sessions/offers.ts";
import { CHECKOUT_MESSAGES } from "../rules.ts";
import { cancelRegistrationRow } from "../store.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CancelResult {
  /** Cents queued for refund (0 for an unpaid registration). */
  refunded: number;
  refundId: string | null;
  /** Cents given back to the gift voucher that paid part of it. */
  voucherReturned: number;
}

/** The use case: an admin cancels one registration. */
export async function cancelRegistration(
  deps: Deps,
  actor: Actor,
  registrationId: string,
  body: unknown,
): Promise<CancelResult> {
  const admin = requireRole(actor, "Admin", { notImpersonating: true });
  if (!UUID.test(registrationId)) throw new AppError("not_found", CHECKOUT_MESSAGES.registrationNotFound);
  const reason = typeof (body as { reason?: unknown })?.reason === "string"
    ? String((body as { reason: string }).reason).trim().slice(0, 500)
    : "";
  return await transactionAs(deps.db, PAYMENTS, async (tx) => {
    if (!(await isActiveAdminUser(tx, admin.user.id))) throw new AppError("forbidden");
    return await cancelRegistrationInTx(tx, deps, registrationId.toLowerCase(), reason, admin.user.id);
  });
}

/** For other use cases (a date canceled by an admin): cancels in the caller's transaction, as the
 * system, and writes the customer's email there. Throws 404 / 409 in French. */
export async function cancelRegistrationInTx(
  tx: Tx,
  deps: Pick<Deps, "config">,
  registrationId: string,
  reason: string,
  by: string | null,
): Promise<CancelResult> {
  const result = await cancelRegistrationRow(tx, registrationId, reason || "Inscription annulée", by);
  if (!result.ok) {
    throw result.reason === "already_canceled"
      ? new AppError("conflict", CHECKOUT_MESSAGES.alreadyCanceled)
      : new AppError("not_found", CHECKOUT_MESSAGES.registrationNotFound);
  }
  const [who] = await tx<
    { email: string; firstname: string; title: string; dtstart: Date; quantity: number }
  >`
    select u.email, u.firstname, s.title, d.dtstart, g.quantity
    from public.registrations g join public.users u on u.id = g.user_id
    join public.session_dates d on d.id = g.date_id join public.workshop_sessions s on s.id = d.session_id
    where g.id = ${registrationId}::uuid`;
  if (who && result.wasStatus === "invoiced") {
    await enqueueEmail(
      tx,
      registrationCanceledEmail({
        to: who.email,
        firstname: who.firstname,
        title: who.title,
        dtstart: toUnix(who.dtstart),
        quantity: who.quantity,
        refunded: Number(result.refunded ?? 0),
        voucherReturned: Number(result.voucherReturned ?? 0),
        voucherValidUntil: result.voucherValidUntil ? Number(result.voucherValidUntil) : null,
        reason,
        sessionsUrl: `${deps.config.appUrl}/sessions`,
      }),
    );
  }
  return {
    refunded: Number(result.refunded ?? 0),
    refundId: result.refundId ?? null,
    voucherReturned: Number(result.voucherReturned ?? 0),
  };
}
