// What POST /api/customer/discounts accepts (server only): the purchase form, every field checked with
// its French message; the price is not a field (spec §2: fixed at 50).
import { AppError } from "../errors.ts";
import { unsafeTextErrors } from "../validation.ts";
import { isEmailShape, normalizeEmail } from "../accounts/rules.ts";
import { parisToday, sendDateError, VOUCHER_MESSAGES } from "./rules.ts";

export interface PurchaseInput {
  recipientName: string;
  recipientEmail: string;
  /** YYYY-MM-DD */
  sendOn: string;
  message: string;
  senderName: string;
}

const text = (value: unknown) => (typeof value === "string" ? value.trim().replace(/\s+/g, " ") : "");

export function parsePurchase(body: Record<string, unknown>, defaultSender: string): PurchaseInput {
  const errors: Record<string, string> = {};
  const recipientName = text(body.recipientName);
  const recipientEmail = typeof body.recipientEmail === "string" ? normalizeEmail(body.recipientEmail) : "";
  const sendOn = text(body.sendOn) || parisToday();
  const message = typeof body.message === "string" ? body.message.trim().replace(/\r\n/g, "\n") : "";
  const senderName = text(body.senderName) || defaultSender;
  if (!recipientName) errors.recipientName = VOUCHER_MESSAGES.required;
  else if (recipientName.length > 100) errors.recipientName = VOUCHER_MESSAGES.nameTooLong;
  if (!recipientEmail) errors.recipientEmail = VOUCHER_MESSAGES.required;
  else if (recipientEmail.length > 254 || !isEmailShape(recipientEmail)) {
    errors.recipientEmail = VOUCHER_MESSAGES.emailInvalid;
  }
  const dateError = sendDateError(sendOn, parisToday());
  if (dateError) errors.sendOn = dateError;
  if (message.length > 500) errors.message = VOUCHER_MESSAGES.messageTooLong;
  if (!senderName) errors.senderName = VOUCHER_MESSAGES.required;
  else if (senderName.length > 100) errors.senderName = VOUCHER_MESSAGES.nameTooLong;
  // No control character nor lone surrogate in any field (lib/validation.ts).
  const unsafe = unsafeTextErrors({ recipientName, recipientEmail, sendOn, message, senderName }, [
    "message",
  ]);
  for (const [field, error] of Object.entries(unsafe)) errors[field] ??= error;
  const fields = Object.keys(errors);
  if (fields.length) {
    const only = fields.length === 1 ? errors[fields[0]] : VOUCHER_MESSAGES.invalidForm;
    throw new AppError(
      "validation",
      only === VOUCHER_MESSAGES.required ? VOUCHER_MESSAGES.invalidForm : only,
      errors,
    );
  }
  return { recipientName, recipientEmail, sendOn, message, senderName };
}
