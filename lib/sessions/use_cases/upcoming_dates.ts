// The organiser's first screen (admins): the coming dates of every workshop, soonest first, each with
// its fill (sold, held, left) and how many subscribers wait for a place.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { fillOf } from "../rules.ts";
import { type UpcomingDateRow, upcomingDates } from "../ops_store.ts";
import { ADMIN_ONLY } from "./admin_sessions.ts";

export interface UpcomingDate extends UpcomingDateRow {
  fill: ReturnType<typeof fillOf>;
}

/** At most this many dates (about three months of twenty workshops a month). */
export const UPCOMING_LIMIT = 80;

export async function listUpcomingDates(deps: Deps, actor: Actor): Promise<UpcomingDate[]> {
  const admin = requireRole(actor, "Admin", { message: ADMIN_ONLY });
  const rows = await transactionAs(deps.db, admin, (tx) => upcomingDates(tx, UPCOMING_LIMIT));
  return rows.map((row) => ({ ...row, fill: fillOf(row.places, row.sold, row.placesLeft) }));
}
