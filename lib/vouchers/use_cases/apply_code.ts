// POST /api/cart/code with `code`: applies a gift voucher to the customer's cart (issue 12). The code is
// checked by its hash in apply_cart_voucher(); its amount is taken at checkout, under the voucher's lock.
// Guessing is rate-limited (lib/vouchers/guesses.ts): failed attempts (unknown codes) count per customer
// and per client address, shared by every instance; over its own limit a customer's every attempt is
// refused, right or wrong, so that a guess cannot slip through, but other customers' guesses from the
// same address never refuse a customer who made no wrong guess. DELETE /api/cart/code takes it off.
import { type Actor, cartActor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { takeGuess } from "../guesses.ts";
import { formatEuros } from "../../money.ts";
import { codeHash } from "../codes.ts";
import { appliedMessage, expiredMessage, normalizeCode, VOUCHER_MESSAGES } from "../rules.ts";
import { type ApplyAnswer, applyCartVoucher, removeCartVoucher } from "../store.ts";

export interface AppliedVoucher {
  voucherId: string;
  /** Cents the voucher has left. */
  remaining: number;
  remainingFormatted: string;
  /** Unix seconds. */
  validUntil: number;
}

export async function applyCode(
  deps: Deps,
  actor: Actor,
  body: Record<string, unknown>,
  ip: string,
): Promise<{ voucher: AppliedVoucher; message: string }> {
  const customer = requireRole(actor, "Customer", {
    message: VOUCHER_MESSAGES.customersOnly,
    loginMessage: VOUCHER_MESSAGES.loginToRedeem,
  });
  const typed = typeof body.code === "string" ? body.code.trim() : "";
  if (!typed) {
    throw new AppError("validation", VOUCHER_MESSAGES.codeRequired, { code: VOUCHER_MESSAGES.codeRequired });
  }
  const guess = await takeGuess(deps.db, `voucher-code:user:${customer.user.id}`, ip);
  const code = normalizeCode(typed.slice(0, 64));
  let answer: ApplyAnswer;
  try {
    answer = code
      ? await transactionAs(
        deps.db,
        cartActor(customer),
        async (tx) => applyCartVoucher(tx, await codeHash(code)),
      )
      : { ok: false, reason: "unknown" };
  } catch (error) {
    // Not an answer about the code: the try is not a failed guess.
    await guess.giveBack();
    throw error;
  }
  // A known code (applied, or refused as expired, used up…) is not a guess: its try is given back.
  if (answer.ok || answer.reason !== "unknown") await guess.giveBack();
  if (!answer.ok && answer.reason === "unknown" && guess.last) {
    await deps.logger.warning("vouchers", "Trop de codes de bon cadeau inconnus essayés", {
      userId: customer.user.id,
      ip,
    });
  }
  if (!answer.ok) throw refusal(answer.reason ?? "unknown", answer.valid_until ?? 0);
  const voucher = {
    voucherId: answer.voucher_id!,
    remaining: answer.remaining!,
    remainingFormatted: formatEuros(answer.remaining!),
    validUntil: answer.valid_until!,
  };
  return { voucher, message: appliedMessage(voucher.remaining) };
}

function refusal(reason: string, validUntil: number): AppError {
  switch (reason) {
    case "expired":
      return new AppError("conflict", expiredMessage(validUntil), { code: expiredMessage(validUntil) });
    case "empty":
      return new AppError("conflict", VOUCHER_MESSAGES.codeEmpty, { code: VOUCHER_MESSAGES.codeEmpty });
    case "pending":
      return new AppError("conflict", VOUCHER_MESSAGES.codeNotActive, {
        code: VOUCHER_MESSAGES.codeNotActive,
      });
    case "canceled":
      return new AppError("conflict", VOUCHER_MESSAGES.codeCanceled, { code: VOUCHER_MESSAGES.codeCanceled });
    default:
      return new AppError("not_found", VOUCHER_MESSAGES.codeUnknown, { code: VOUCHER_MESSAGES.codeUnknown });
  }
}

export async function removeCode(deps: Deps, actor: Actor): Promise<string> {
  const customer = requireRole(actor, "Customer", {
    message: VOUCHER_MESSAGES.customersOnly,
    loginMessage: VOUCHER_MESSAGES.loginToRedeem,
  });
  const removed = await transactionAs(deps.db, cartActor(customer), (tx) => removeCartVoucher(tx));
  if (!removed) throw new AppError("not_found", VOUCHER_MESSAGES.noCode);
  return VOUCHER_MESSAGES.codeRemoved;
}
