// Creating and editing a session's dates (admins). The capacity moves the places left by the same
// amount, under the date's row lock (trigger); a capacity below what customers already hold or booked
// is refused by the table's check, reported here in French.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { OPS_MESSAGES, SESSION_MESSAGES } from "../rules.ts";
import { findDateByUuid, findSessionById, insertDate, updateDate } from "../store.ts";
import { FORM_INVALID, parseDate } from "../input.ts";
import { ADMIN_ONLY } from "./admin_sessions.ts";

const CAPACITY_TOO_LOW =
  "La capacité ne peut pas descendre sous les places déjà réservées ou gardées en panier.";
const DATE_TAKEN = "Cette session a déjà une date à cette heure.";

function refusal(error: unknown): AppError | null {
  const code = (error as { code?: string })?.code;
  if (code === "23514") return new AppError("validation", FORM_INVALID, { places: CAPACITY_TOO_LOW });
  if (code === "23505") return new AppError("validation", FORM_INVALID, { dtstart: DATE_TAKEN });
  return null;
}

export async function createDate(
  deps: Deps,
  actor: Actor,
  sessionId: number,
  body: Record<string, unknown>,
): Promise<string> {
  const admin = requireRole(actor, "Admin", { message: ADMIN_ONLY });
  const fields = parseDate(body);
  if (fields.state === "canceled") {
    throw new AppError("validation", FORM_INVALID, { state: OPS_MESSAGES.cancelByAction });
  }
  try {
    const uuid = await transactionAs(deps.db, admin, async (tx) => {
      if (!await findSessionById(tx, sessionId)) {
        throw new AppError("not_found", SESSION_MESSAGES.sessionNotFound);
      }
      return await insertDate(tx, sessionId, fields);
    });
    await deps.logger.info("sessions", "Date ajoutée", { sessionId, date: uuid, adminId: admin.user.id });
    return uuid;
  } catch (error) {
    throw refusal(error) ?? error;
  }
}

export async function editDate(deps: Deps, actor: Actor, uuid: string, body: Record<string, unknown>) {
  const admin = requireRole(actor, "Admin", { message: ADMIN_ONLY });
  const fields = parseDate(body);
  let found: boolean;
  try {
    found = await transactionAs(deps.db, admin, async (tx) => {
      const current = await findDateByUuid(tx, uuid, true);
      if (!current) return false;
      // Canceling tells and refunds the bookers (the 'Annuler' action); a canceled date stays so. A form
      // that does not send the state keeps the date's.
      if (current.state === "canceled") {
        throw new AppError("validation", FORM_INVALID, { state: OPS_MESSAGES.cannotReopenCanceled });
      }
      if (fields.state === "canceled") {
        throw new AppError("validation", FORM_INVALID, { state: OPS_MESSAGES.cancelByAction });
      }
      if (body.state === undefined && body.sale === undefined) fields.state = current.state;
      return await updateDate(tx, uuid, fields);
    });
  } catch (error) {
    throw refusal(error) ?? error;
  }
  if (!found) throw new AppError("not_found", SESSION_MESSAGES.notFound);
  await deps.logger.info("sessions", "Date modifiée", { date: uuid, adminId: admin.user.id });
}
