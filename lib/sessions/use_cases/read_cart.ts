// GET /api/cart and the cart page /panier: the visitor's live holds (expired ones no longer count), each
// with its price (rules.sessionPrice) and the seconds its hold has left.
import { type Actor, cartActor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { sessionPrice, unitPrice } from "../rules.ts";
import { cartHoldExpired, cartLines } from "../store.ts";
import { requireShopper } from "../holds.ts";
import { toUnix } from "../offers.ts";

export interface CartLineView {
  id: string;
  sessionTitle: string;
  sessionSlug: string;
  city: string;
  dateUuid: string;
  dtstart: number;
  quantity: number;
  /** The most this line may hold: its places plus what the date has left. */
  maxQuantity: number;
  /** Cents. */
  unitPrice: number;
  total: number;
  /** Unix seconds. */
  expiresAt: number;
}

export interface CartView {
  lines: CartLineView[];
  /** Cents. */
  total: number;
  /** The server's clock (unix seconds), for the countdowns. */
  now: number;
  holdMinutes: number;
  /** Nothing held, and a hold of this cart expired (the cart says so instead of 'Votre panier est vide.'). */
  holdExpired: boolean;
}

export async function readCart(deps: Deps, actor: Actor, token: string | null): Promise<CartView> {
  requireShopper(actor);
  const { rows, holdExpired } = actor.kind === "anonymous" && !token
    ? { rows: [], holdExpired: false }
    : await transactionAs(deps.db, cartActor(actor), async (tx) => {
      const cartToken = actor.kind === "anonymous" ? token : null;
      const rows = await cartLines(tx, cartToken);
      return { rows, holdExpired: rows.length === 0 && await cartHoldExpired(tx, cartToken) };
    });
  const lines = rows.map((row) => ({
    id: row.lineId,
    sessionTitle: row.sessionTitle,
    sessionSlug: row.sessionSlug,
    city: row.sessionCity,
    dateUuid: row.dateUuid,
    dtstart: toUnix(row.dtstart),
    quantity: row.quantity,
    maxQuantity: row.quantity + row.placesLeft,
    unitPrice: unitPrice(row),
    total: sessionPrice(row, row.quantity),
    expiresAt: toUnix(row.expiresAt),
  }));
  return {
    lines,
    total: lines.reduce((sum, line) => sum + line.total, 0),
    now: Math.floor(Date.now() / 1000),
    holdMinutes: deps.config.cartHoldMinutes,
    holdExpired,
  };
}
