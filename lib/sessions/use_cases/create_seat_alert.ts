// POST /date/mail/alert with date (the offer's uuid), email, optin (spec 000 §5, §8): 'M'alerter si une
// place se libère'. One alert per date and email (the second is the same alert, no second email). The
// confirmation email is written in the same transaction. Anyone may ask, so it runs as the system after
// these checks (the public writes no table itself).
import { type Actor, systemActor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { isEmailShape, normalizeEmail } from "../../accounts/rules.ts";
import { enqueueEmail } from "../../mail/outbox.ts";
import { SESSION_MESSAGES, shareUrl } from "../rules.ts";
import { findDateByUuid, findSessionById, insertSeatAlert } from "../store.ts";
import { seatAlertEmail } from "../emails.ts";
import { toUnix } from "../offers.ts";
import { enforceLimit } from "../../limits/limiter.ts";

/** Each alert may send a confirmation email to any address: a few an hour per client address. */
export const ALERTS_PER_CLIENT = { max: 10, windowSeconds: 3600 };
export const TOO_MANY_ALERTS = "Trop d'alertes demandées. Veuillez réessayer plus tard.";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TRUE = new Set(["1", "true", "on", "yes"]);

export async function createSeatAlert(
  deps: Deps,
  actor: Actor,
  body: Record<string, unknown>,
  ip: string,
): Promise<{ message: string; note: string }> {
  const email = typeof body.email === "string" ? normalizeEmail(body.email) : "";
  const optin = body.optin === true || (typeof body.optin === "string" && TRUE.has(body.optin.toLowerCase()));
  const errors: Record<string, string> = {};
  if (!email) errors.email = SESSION_MESSAGES.alertEmailRequired;
  else if (email.length > 254 || !isEmailShape(email)) errors.email = SESSION_MESSAGES.alertEmailInvalid;
  if (!optin) errors.optin = SESSION_MESSAGES.alertOptinRequired;
  if (Object.keys(errors).length) {
    throw new AppError("validation", errors.email ?? errors.optin, errors);
  }
  const uuid = typeof body.date === "string" ? body.date.trim() : "";
  if (!UUID.test(uuid)) throw new AppError("not_found", SESSION_MESSAGES.notFound);
  await enforceLimit(deps.db, `seat-alert:${ip}`, ALERTS_PER_CLIENT, TOO_MANY_ALERTS);
  const userId = actor.kind === "user" ? actor.user.id : null;
  const created = await transactionAs(deps.db, systemActor("intake"), async (tx) => {
    // Under the date's row lock: a place freed at this very moment either was offered to the waiting
    // list before this alert, or finds it there (the migration's trigger runs under the same lock).
    const date = await findDateByUuid(tx, uuid, true);
    const session = date ? await findSessionById(tx, date.sessionId) : null;
    if (!date || !session?.published || date.state === "canceled") {
      throw new AppError("not_found", SESSION_MESSAGES.notFound);
    }
    if (date.state === "closed") throw new AppError("conflict", SESSION_MESSAGES.closed);
    if (date.dtstart.getTime() <= Date.now()) throw new AppError("conflict", SESSION_MESSAGES.past);
    if (!date.soon && date.placesLeft > 0) throw new AppError("conflict", SESSION_MESSAGES.alertOnlyWhenFull);
    const created = await insertSeatAlert(tx, date.id, email, userId);
    if (created) {
      const dtstart = toUnix(date.dtstart);
      const link = shareUrl(deps.config.appUrl, session.slug, dtstart);
      await enqueueEmail(tx, seatAlertEmail(email, session.title, dtstart, link));
    }
    return created;
  });
  if (created) await deps.logger.info("sessions", "Alerte de place enregistrée", { date: uuid });
  return { message: SESSION_MESSAGES.alertSaved, note: SESSION_MESSAGES.alertNote };
}
