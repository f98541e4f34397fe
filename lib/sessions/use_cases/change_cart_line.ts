// PATCH /api/cart/line/{id} with quantity: the line holds that many places again for CART_HOLD_MINUTES
// (more only if the date has them left); DELETE /api/cart/line/{id} gives them back.
import { type Actor, cartActor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { SESSION_MESSAGES } from "../rules.ts";
import { changeLine, removeLine } from "../store.ts";
import { holdRefusal, quantityField, requireShopper } from "../holds.ts";
import type { Hold } from "./add_to_cart.ts";

const tokenOf = (actor: Actor, token: string | null) => actor.kind === "anonymous" ? token : null;

export async function changeCartLine(
  deps: Deps,
  actor: Actor,
  token: string | null,
  lineId: string,
  body: Record<string, unknown>,
): Promise<Hold> {
  requireShopper(actor);
  const quantity = quantityField(body.quantity);
  const result = await transactionAs(
    deps.db,
    cartActor(actor),
    (tx) => changeLine(tx, tokenOf(actor, token), lineId, quantity, deps.config.cartHoldMinutes),
  );
  if (!result.ok) {
    if (result.reason === "not_found") throw new AppError("not_found", SESSION_MESSAGES.lineNotFound);
    throw holdRefusal(result);
  }
  return {
    lineId: result.line_id!,
    quantity: result.quantity!,
    expiresAt: result.expires_at!,
    placesLeft: result.places_left!,
  };
}

export async function removeCartLine(deps: Deps, actor: Actor, token: string | null, lineId: string) {
  requireShopper(actor);
  const result = await transactionAs(
    deps.db,
    cartActor(actor),
    (tx) => removeLine(tx, tokenOf(actor, token), lineId),
  );
  if (!result.ok) throw new AppError("not_found", SESSION_MESSAGES.lineNotFound);
}
