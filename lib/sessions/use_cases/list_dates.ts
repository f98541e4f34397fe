// The dates of a session (spec 000 §7 'Sessions'): `POST /session/{slug}/dates` with optional start and
// end (unix seconds), and the session page, which renders the same offers on the server.
import { type Actor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import type { DateOffer } from "../rules.ts";
import { SESSION_MESSAGES } from "../rules.ts";
import { findSessionBySlug, listPublicDates, type SessionRow } from "../store.ts";
import { toOffer } from "../offers.ts";

const PERIOD_INVALID = "La période choisie est invalide.";
const MAX_UNIX = 253402300799; // 9999-12-31

/** A unix-seconds field (or a day, YYYY-MM-DD, from the period form of a page without JavaScript:
 * its first second, or its last with `endOfDay`): absent → null; anything else → 422. */
export function unixField(value: unknown, name: string, endOfDay = false): number | null {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = Date.parse(`${value}T00:00:00Z`);
    if (Number.isNaN(day)) throw new AppError("validation", PERIOD_INVALID, { [name]: PERIOD_INVALID });
    return day / 1000 + (endOfDay ? 86399 : 0);
  }
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value.trim()) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > MAX_UNIX) {
    throw new AppError("validation", PERIOD_INVALID, { [name]: PERIOD_INVALID });
  }
  return n;
}

export interface DatesQuery {
  start?: unknown;
  end?: unknown;
  date?: unknown;
  popup?: unknown;
}

export interface SessionDates {
  session: SessionRow;
  offers: DateOffer[];
}

export async function listDates(
  deps: Deps,
  actor: Actor,
  slug: string,
  query: DatesQuery,
): Promise<SessionDates> {
  const start = unixField(query.start, "start");
  const end = unixField(query.end, "end", true);
  if (start !== null && end !== null && end < start) {
    throw new AppError("validation", PERIOD_INVALID, { end: PERIOD_INVALID });
  }
  const selected = unixField(query.date, "date");
  const popup = query.popup === "1" || query.popup === true || query.popup === "true";
  const { session, rows } = await transactionAs(deps.db, actor, async (tx) => {
    const session = await findSessionBySlug(tx, slug);
    if (!session) return { session: null, rows: [] };
    const from = new Date((start ?? 0) * 1000);
    const to = end === null ? null : new Date(end * 1000);
    return { session, rows: await listPublicDates(tx, session.id, from, to) };
  });
  if (!session) throw new AppError("not_found", SESSION_MESSAGES.sessionNotFound);
  const context = { origin: deps.config.appUrl, selected, popup };
  return { session, offers: rows.map((row) => toOffer(session, row, context)) };
}
