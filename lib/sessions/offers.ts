// Date rows → the API's date offers (spec 000 §3), shared by the session page and POST …/dates.
import { centsToEuros } from "../money.ts";
import { type DateOffer, shareUrl } from "./rules.ts";
import type { DateRow, SessionRow } from "./store.ts";

export interface OfferContext {
  origin: string;
  /** The date the visitor came for (`?date={dtstart}`), if any. */
  selected: number | null;
  /** With `popup`, the selected date is added to the cart as soon as the dates load (§4). */
  popup: boolean;
}

export const toUnix = (date: Date) => Math.floor(date.getTime() / 1000);

export function toOffer(session: SessionRow, row: DateRow, context: OfferContext): DateOffer {
  const dtstart = toUnix(row.dtstart);
  const selected = context.selected === dtstart;
  const closed = row.state === "closed";
  const places = closed ? 0 : row.placesLeft;
  return {
    id: row.id,
    uuid: row.uuid,
    dtstart,
    places,
    quantity: 1,
    soon: row.soon,
    selected,
    popup: selected && context.popup && !row.soon && places > 0,
    url: `/session/${session.slug}/date/${row.uuid}`,
    session_id: session.id,
    timestamp: dtstart,
    shareUrl: shareUrl(context.origin, session.slug, dtstart),
    priceTTC: centsToEuros(row.priceTTC),
    travelCostTTC: centsToEuros(row.travelCostTTC),
    additionalCosts: row.additionalCosts.map((cost) => ({
      title: cost.title,
      ht: centsToEuros(cost.ht),
      vat: cost.vat,
    })),
    ...(closed ? { closed: true } : {}),
  };
}

/** A date for the back office's API: unix seconds, euros, the places left and the capacity. */
export function adminDateJson(row: DateRow) {
  return {
    uuid: row.uuid,
    dtstart: toUnix(row.dtstart),
    places: row.places,
    placesLeft: row.placesLeft,
    priceTTC: centsToEuros(row.priceTTC),
    travelCostTTC: centsToEuros(row.travelCostTTC),
    additionalCosts: row.additionalCosts.map((c) => ({ title: c.title, ht: centsToEuros(c.ht), vat: c.vat })),
    soon: row.soon,
    state: row.state,
  };
}
