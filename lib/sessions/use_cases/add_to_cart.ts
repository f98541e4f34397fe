// POST /session/{slug}/date/{uuid} with session, timestamp, quantity (spec 000 §7): adds the places to
// the visitor's cart and holds them for CART_HOLD_MINUTES. The database counts them under the date's
// row lock (public.add_to_cart): a full date answers 409 'COMPLET', a soon one 409 'BIENTÔT DISPO', a
// quantity outside 1…places left 422. The three fields are the request: one missing (absent, null or
// empty) is a 422 naming it, before anything is held (the booking form sends all three).
import { type Actor, cartActor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { missingFieldsMessage, SESSION_MESSAGES } from "../rules.ts";
import { findDateByUuid, findSessionBySlug, holdPlaces } from "../store.ts";
import { holdRefusal, quantityField, requireShopper } from "../holds.ts";
import { toUnix } from "../offers.ts";
import { enforceLimit } from "../../limits/limiter.ts";

/** An anonymous visitor's holds per client address: enough for any person, not for a script holding a
 * whole date (customers are known, and not limited). Refused requests count too. */
export const ANONYMOUS_HOLDS = { max: 60, windowSeconds: 600 };
export const TOO_MANY_HOLDS =
  "Trop de réservations demandées. Veuillez réessayer plus tard ou vous connecter.";

export interface AddToCartInput {
  slug: string;
  dateUuid: string;
  /** The anonymous visitor's cart token (the cookie); ignored for customers. */
  token: string | null;
  body: Record<string, unknown>;
  /** The client's address (rate limit of anonymous holds). */
  ip: string;
}

export interface Hold {
  lineId: string;
  quantity: number;
  /** Unix seconds. */
  expiresAt: number;
  placesLeft: number;
}

export async function addToCart(deps: Deps, actor: Actor, input: AddToCartInput): Promise<Hold> {
  requireShopper(actor);
  requireBookingFields(input.body);
  const quantity = quantityField(input.body.quantity);
  if (actor.kind === "anonymous") {
    await enforceLimit(deps.db, `cart-hold:${input.ip}`, ANONYMOUS_HOLDS, TOO_MANY_HOLDS);
  }
  // The checks read as the visitor (RLS: published sessions only); the hold is made by the system on
  // the visitor's behalf (add_to_cart is closed to the API roles), and re-checks the date under its lock.
  await transactionAs(deps.db, actor, async (tx) => {
    const session = await findSessionBySlug(tx, input.slug);
    const date = session ? await findDateByUuid(tx, input.dateUuid) : null;
    if (!session || !date || date.sessionId !== session.id) {
      throw new AppError("not_found", SESSION_MESSAGES.notFound);
    }
    // The page the visitor booked from showed this session and this start: a date moved since is
    // not booked blindly.
    if (String(input.body.session).trim() !== String(session.id)) {
      throw new AppError("conflict", SESSION_MESSAGES.changed);
    }
    if (String(input.body.timestamp).trim() !== String(toUnix(date.dtstart))) {
      throw new AppError("conflict", SESSION_MESSAGES.changed);
    }
  });
  const token = actor.kind === "anonymous" ? input.token : null;
  const result = await transactionAs(
    deps.db,
    cartActor(actor),
    (tx) => holdPlaces(tx, token, input.dateUuid, quantity, deps.config.cartHoldMinutes),
  );
  if (!result.ok) throw holdRefusal(result);
  return {
    lineId: result.line_id!,
    quantity: result.quantity!,
    expiresAt: result.expires_at!,
    placesLeft: result.places_left!,
  };
}

const BOOKING_FIELDS = ["session", "timestamp", "quantity"] as const;
const REQUIRED = "Ce champ est requis";

/** 422 naming the fields of the request that are absent, null or empty. */
function requireBookingFields(body: Record<string, unknown>): void {
  const missing = BOOKING_FIELDS.filter((field) => {
    const value = body[field];
    return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
  });
  if (missing.length) {
    throw new AppError(
      "validation",
      missingFieldsMessage([...missing]),
      Object.fromEntries(missing.map((field) => [field, REQUIRED])),
    );
  }
}
