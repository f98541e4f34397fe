// A paid registration of a canceled date: canceled and refunded in the caller's transaction through the
// checkout's cancel_registration (places given back, refund queued, credit note). Returns the cents
// refunded. Without that function (a deployment before the checkout), a date with paid registrations
// cannot be canceled: the whole cancellation is refused, nothing half-done.
import type { Tx } from "../db/database.ts";
import { AppError } from "../errors.ts";
import { OPS_MESSAGES } from "./rules.ts";

export function cancelPaidRegistration(_tx: Tx, _registrationId: string): Promise<number> {
  return Promise.reject(new AppError("conflict", OPS_MESSAGES.refundsUnavailable));
}
