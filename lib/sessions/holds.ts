// What the cart functions' refusals mean for the visitor: one status and one French message each.
import { AppError } from "../errors.ts";
import { type Actor, requireRole } from "../actor.ts";
import {
  cartLimitMessage,
  cooldownMessage,
  dateLimitMessage,
  quantityMessage,
  SESSION_MESSAGES,
} from "./rules.ts";
import type { HoldResult } from "./store.ts";

export function holdRefusal(result: HoldResult): AppError {
  switch (result.reason) {
    case "full":
      return new AppError("conflict", SESSION_MESSAGES.full);
    case "soon":
      return new AppError("conflict", SESSION_MESSAGES.soon);
    case "quantity": {
      const message = quantityMessage(result.places_left ?? 0);
      return new AppError("validation", message, { quantity: message });
    }
    case "canceled":
      return new AppError("conflict", SESSION_MESSAGES.canceled);
    case "closed":
      return new AppError("conflict", SESSION_MESSAGES.closed);
    case "past":
      return new AppError("conflict", SESSION_MESSAGES.past);
    case "expired":
      return new AppError("conflict", SESSION_MESSAGES.expired);
    case "date_limit": {
      const message = dateLimitMessage(result.limit ?? 0, result.held ?? 0);
      return new AppError("validation", message, { quantity: message });
    }
    case "cart_limit": {
      const message = cartLimitMessage(result.limit ?? 0, result.held ?? 0);
      return new AppError("validation", message, { quantity: message });
    }
    case "cooldown":
      return new AppError("conflict", cooldownMessage(((result.until ?? 0) * 1000 - Date.now()) / 60_000));
    case "no_cart":
      return new AppError("bad_request", SESSION_MESSAGES.lineNotFound);
    default:
      return new AppError("not_found", SESSION_MESSAGES.notFound);
  }
}

/** Anonymous visitors and customers have a cart; partners and admins none (403). */
export function requireShopper(actor: Actor): void {
  if (actor.kind === "anonymous") return;
  requireRole(actor, "Customer", { message: SESSION_MESSAGES.customersOnly });
}

/** A quantity field: an integer, or 0 (refused by the database with the places left). */
export function quantityField(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value.trim()) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= 10000 ? n : 0;
}
