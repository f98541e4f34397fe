// The waiting list's link (`/date/alert/offre/{token}`): GET shows the place set aside for the
// subscriber (a page, no change); POST puts it in the visitor's cart (an anonymous cart by cookie, or the
// customer's), held for CART_HOLD_MINUTES, without the place going back on sale in between. The token
// is signed (offer_token.ts); the offer's status makes it single use.
import { type Actor, cartActor, systemActor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { OPS_MESSAGES } from "../rules.ts";
import { claimOffer, findOffer } from "../ops_store.ts";
import { verifyOfferToken } from "../offer_token.ts";
import { holdRefusal, requireShopper } from "../holds.ts";
import { toUnix } from "../offers.ts";
import type { Hold } from "./add_to_cart.ts";

export interface SeatOfferView {
  token: string;
  /** offered: the link works; anything else: what the page says instead. */
  state: "offered" | "used" | "expired" | "canceled" | "closed" | "past";
  sessionTitle: string;
  sessionSlug: string;
  dtstart: number;
  /** Unix seconds. */
  expiresAt: number;
}

async function offerIdOf(deps: Deps, token: string): Promise<string> {
  const id = await verifyOfferToken(deps.config.appSecret, token);
  if (!id) throw new AppError("not_found", OPS_MESSAGES.offerInvalid);
  return id;
}

export async function seatOfferView(deps: Deps, token: string): Promise<SeatOfferView> {
  const id = await offerIdOf(deps, token);
  // The signed token is the visitor's right to read its offer: a system read.
  const offer = await transactionAs(deps.db, systemActor("intake"), (tx) => findOffer(tx, id));
  if (!offer) throw new AppError("not_found", OPS_MESSAGES.offerInvalid);
  const expired = offer.status === "expired" || offer.status === "withdrawn" ||
    (offer.status === "offered" && offer.expiresAt.getTime() <= Date.now());
  const state = offer.dateState === "canceled"
    ? "canceled"
    : offer.status === "claimed"
    ? "used"
    : expired
    ? "expired"
    : offer.dateState === "closed"
    ? "closed"
    : offer.dtstart.getTime() <= Date.now()
    ? "past"
    : "offered";
  return {
    token,
    state,
    sessionTitle: offer.sessionTitle,
    sessionSlug: offer.sessionSlug,
    dtstart: toUnix(offer.dtstart),
    expiresAt: toUnix(offer.expiresAt),
  };
}

export async function claimSeatOffer(
  deps: Deps,
  actor: Actor,
  input: { token: string; cartToken: string | null },
): Promise<Hold> {
  requireShopper(actor);
  const id = await offerIdOf(deps, input.token);
  const result = await transactionAs(
    deps.db,
    cartActor(actor),
    (tx) =>
      claimOffer(tx, actor.kind === "anonymous" ? input.cartToken : null, id, deps.config.cartHoldMinutes),
  );
  if (!result.ok) {
    if (result.reason === "used") throw new AppError("conflict", OPS_MESSAGES.offerUsed);
    if (result.reason === "expired") throw new AppError("conflict", OPS_MESSAGES.offerExpired);
    if (result.reason === "not_found") throw new AppError("not_found", OPS_MESSAGES.offerInvalid);
    throw holdRefusal({ ...result, reason: result.reason });
  }
  await deps.logger.info("sessions", "Place de liste d'attente ajoutée au panier", { offer: id });
  return {
    lineId: result.line_id!,
    quantity: result.quantity!,
    expiresAt: result.expires_at!,
    placesLeft: result.places_left!,
  };
}
