// POST /session/{slug}/date/{uuid} with session, timestamp, quantity (spec 000 §7): adds the places to
// the visitor's cart and holds them for CART_HOLD_MINUTES. The database counts them under the date's
// row lock (public.add_to_cart): a full date answers 409 'COMPLET', a soon one 409 'BIENTÔT DISPO', a
// quantity outside 1…places left 422, over the cart's limits (20261128004000_seat_limits.sql: places of one
// date per cart, places held across dates, the cool-down after a lapsed hold) 422/409 in French saying the
// limit. The three fields are the request: one missing (absent, null or
// empty) is a 422 naming it, before anything is held (the booking form sends all three).
import { type Actor, cartActor, transactionAs } from "../../actor.ts";
import { recordCreation } from "../../idempotency/context.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { missingFieldsMessage, SESSION_MESSAGES } from "../rules.ts";
import { findDateByUuid, findSessionBySlug, holdPlaces } from "../store.ts";
import { holdRefusal, quantityField, requireShopper } from "../holds.ts";
import { toUnix } from "../offers.ts";
import { enforceLimit, giveBack, takeTry } from "../../limits/limiter.ts";
import { MAX_PLACES_HELD } from "../rules.ts";

/** Hold requests per client address (anonymous visitors) or per account (customers): enough for any
 * person, not for a script. Refused requests count too (in the requester's own bucket only). */
export const ANONYMOUS_HOLDS = { max: 60, windowSeconds: 600 };
/** Places anonymous visitors of one client address may take in a hold time: a script dropping its cart
 * cookie gets a new cart (and new cart limits) each time, not new places. Given back when the hold is
 * refused. */
export const ANONYMOUS_PLACES_PER_CLIENT = { max: 2 * MAX_PLACES_HELD, windowSeconds: 20 * 60 };
export const TOO_MANY_HOLDS =
  "Trop de réservations demandées. Veuillez réessayer plus tard ou vous connecter.";
export const TOO_MANY_PLACES =
  `Trop de places réservées depuis cette connexion (${ANONYMOUS_PLACES_PER_CLIENT.max} au plus en 20 minutes). ` +
  "Veuillez réessayer plus tard ou vous connecter.";

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
  const requester = actor.kind === "user" ? `user:${actor.user.id}` : input.ip;
  await enforceLimit(deps.db, `cart-hold:${requester}`, ANONYMOUS_HOLDS, TOO_MANY_HOLDS);
  const placesBucket = `cart-places:${input.ip}`;
  const weight = Math.min(Math.max(quantity, 1), ANONYMOUS_PLACES_PER_CLIENT.max);
  if (actor.kind === "anonymous") {
    const places = await takeTry(deps.db, placesBucket, ANONYMOUS_PLACES_PER_CLIENT, weight);
    if (!places.taken) throw new AppError("too_many_requests", TOO_MANY_PLACES);
  }
  // The checks read as the visitor (RLS: published sessions only); the hold is made by the system on
  // the visitor's behalf (add_to_cart is closed to the API roles), and re-checks the date under its lock.
  const checksAndHold = async () => {
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
    const result = await transactionAs(deps.db, cartActor(actor), async (tx) => {
      const held = await holdPlaces(tx, token, input.dateUuid, quantity, deps.config.cartHoldMinutes);
      // Only a hold is a creation: a refusal leaves the key free for a retry.
      if (held.ok) await recordCreation(tx);
      return held;
    });
    return result;
  };
  // Places the visitor's address took for a hold that did not happen are given back.
  const result = await checksAndHold().catch(async (error) => {
    if (actor.kind === "anonymous") {
      await giveBack(deps.db, placesBucket, ANONYMOUS_PLACES_PER_CLIENT, weight);
    }
    throw error;
  });
  if (!result.ok) {
    if (actor.kind === "anonymous") {
      await giveBack(deps.db, placesBucket, ANONYMOUS_PLACES_PER_CLIENT, weight);
    }
    throw holdRefusal(result);
  }
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
