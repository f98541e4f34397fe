// POST /api/cart/code with `code`: applies a gift voucher to the customer's cart (issue 12). The code is
// checked by its hash in apply_cart_voucher(); its amount is taken at checkout, under the voucher's lock.
// Guessing is rate-limited: failed attempts (unknown codes) count per customer and per client address,
// shared by every instance (identity.rate_limits); over the limit every attempt is refused, right or
// wrong, so that a guess cannot slip through. Each attempt takes its try atomically before the code is
// looked up (concurrent guesses cannot all pass a check made first) and gives it back unless the code
// was unknown. DELETE /api/cart/code takes it off.
import { type Actor, cartActor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { giveBack, takeTry } from "../../limits/limiter.ts";
import { formatEuros } from "../../money.ts";
import { codeHash } from "../codes.ts";
import { appliedMessage, expiredMessage, normalizeCode, VOUCHER_MESSAGES } from "../rules.ts";
import { type ApplyAnswer, applyCartVoucher, removeCartVoucher } from "../store.ts";

/** Unknown codes a customer may try in an hour, and a client address (several customers behind it). */
export const FAILED_CODES_PER_USER = { max: 10, windowSeconds: 3600 };
export const FAILED_CODES_PER_CLIENT = { max: 30, windowSeconds: 3600 };

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
  const userBucket = `voucher-code:user:${customer.user.id}`;
  const clientBucket = `voucher-code:ip:${ip}`;
  const userTry = await takeTry(deps.db, userBucket, FAILED_CODES_PER_USER);
  if (!userTry.taken) throw new AppError("too_many_requests", VOUCHER_MESSAGES.tooManyCodes);
  const clientTry = await takeTry(deps.db, clientBucket, FAILED_CODES_PER_CLIENT);
  if (!clientTry.taken) {
    await giveBack(deps.db, userBucket, FAILED_CODES_PER_USER);
    throw new AppError("too_many_requests", VOUCHER_MESSAGES.tooManyCodes);
  }
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
    await giveBack(deps.db, userBucket, FAILED_CODES_PER_USER);
    await giveBack(deps.db, clientBucket, FAILED_CODES_PER_CLIENT);
    throw error;
  }
  // A known code (applied, or refused as expired, used up…) is not a guess: its try is given back.
  if (answer.ok || answer.reason !== "unknown") {
    await giveBack(deps.db, userBucket, FAILED_CODES_PER_USER);
    await giveBack(deps.db, clientBucket, FAILED_CODES_PER_CLIENT);
  }
  if (!answer.ok && answer.reason === "unknown" && (userTry.last || clientTry.last)) {
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
