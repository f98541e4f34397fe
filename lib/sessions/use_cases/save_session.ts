// Creating and editing a session (admins): title, slug, description, city, photos, published.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { SESSION_MESSAGES } from "../rules.ts";
import { insertSession, updateSession } from "../store.ts";
import { FORM_INVALID, parseSession } from "../input.ts";
import { ADMIN_ONLY } from "./admin_sessions.ts";

const SLUG_TAKEN = "Cette adresse est déjà celle d'un autre atelier.";

function slugTaken(error: unknown): boolean {
  const e = error as { code?: string; constraint_name?: string; message?: string };
  return e?.code === "23505" && /slug/.test(`${e.constraint_name ?? ""} ${e.message ?? ""}`);
}

export async function createSession(deps: Deps, actor: Actor, body: unknown): Promise<number> {
  const admin = requireRole(actor, "Admin", { message: ADMIN_ONLY });
  const fields = parseSession(body);
  try {
    const id = await transactionAs(deps.db, admin, (tx) => insertSession(tx, fields));
    await deps.logger.info("sessions", "Atelier créé", { sessionId: id, adminId: admin.user.id });
    return id;
  } catch (error) {
    if (slugTaken(error)) throw new AppError("validation", FORM_INVALID, { slug: SLUG_TAKEN });
    throw error;
  }
}

export async function editSession(deps: Deps, actor: Actor, id: number, body: unknown): Promise<void> {
  const admin = requireRole(actor, "Admin", { message: ADMIN_ONLY });
  const fields = parseSession(body);
  let found: boolean;
  try {
    found = await transactionAs(deps.db, admin, (tx) => updateSession(tx, id, fields));
  } catch (error) {
    if (slugTaken(error)) throw new AppError("validation", FORM_INVALID, { slug: SLUG_TAKEN });
    throw error;
  }
  if (!found) throw new AppError("not_found", SESSION_MESSAGES.sessionNotFound);
  await deps.logger.info("sessions", "Atelier modifié", { sessionId: id, adminId: admin.user.id });
}
