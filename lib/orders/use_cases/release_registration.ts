// A customer releases the places of a checkout they left unpaid ('Vos sessions', the row's 'Libérer les
// places'; POST /api/customer/registration/{id}/release): public.cancel_registration() cancels the
// unpaid order as a whole — its holds go back on sale, its open intents are superseded (a payment that
// still arrives is refunded), its pending registrations canceled. Only the customer's own registration,
// only while it is pending and its order unpaid: the order is locked first, so a payment being recorded
// and a release never both win.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { PAYMENTS } from "../../payments/use_cases/record_card_payment.ts";
import { CHECKOUT_MESSAGES } from "../rules.ts";
import { lockOwnRegistrationOrder } from "../store.ts";
import { cancelRegistrationInTx } from "./cancel_registration.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function releaseRegistration(deps: Deps, actor: Actor, registrationId: string): Promise<void> {
  const customer = requireRole(actor, "Customer");
  if (!UUID.test(registrationId)) throw new AppError("not_found", CHECKOUT_MESSAGES.registrationNotFound);
  const id = registrationId.toLowerCase();
  // As the system (cancel_registration is the service role's), with the owner checked in the query.
  await transactionAs(deps.db, PAYMENTS, async (tx) => {
    const row = await lockOwnRegistrationOrder(tx, id, customer.user.id);
    if (!row) throw new AppError("not_found", CHECKOUT_MESSAGES.registrationNotFound);
    if (row.status !== "pending" || row.orderStatus !== "pending") {
      throw new AppError("conflict", CHECKOUT_MESSAGES.notReleasable);
    }
    await cancelRegistrationInTx(tx, deps, id, "Places libérées par le client", customer.user.id);
  });
}
