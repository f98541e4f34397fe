// Use cases of the accounts capability, as the requesting user (RLS applies): read and change one's
// own profile, request or cancel the deletion of one's account; the admin list of users.
import { type Actor, requireRole, requireSignedIn, statementAs, transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { parseInput } from "../validation.ts";
import { hashPassword } from "../auth/crypto.ts";
import { changeOwnPassword } from "../auth/store.ts";
import {
  cancelDeletion,
  FIND_USER_SQL,
  findUser,
  listUsers,
  PROFILE_COLUMNS,
  requestDeletion,
  updateUserFields,
  type UserListItem,
  type UserPayload,
  userPayloadOf,
} from "./store.ts";
import { PROFILE_INVALID, profileSchema } from "./rules.ts";
import { normalizePhone } from "./phone.ts";

const PASSWORD_LOCKED_WHILE_IMPERSONATING =
  "Le mot de passe d'un utilisateur ne peut pas être modifié en mode administrateur.";

/** One statement under the user's claims (a single round trip on PostgreSQL). */
export async function getProfile(deps: Deps, actor: Actor): Promise<UserPayload> {
  const user = requireSignedIn(actor);
  const rows = await statementAs<Omit<UserPayload, "isPreviousAdmin">>(deps.db, user, FIND_USER_SQL, [
    user.user.id,
  ]);
  return userPayloadOf(rows, user.impersonatorId !== null);
}

/** The profile as the form sends it, from the stored user: the base a partial update is checked on. */
function profileInput(user: UserPayload): Record<string, unknown> {
  return {
    firstname: user.firstname,
    lastname: user.lastname,
    address1: user.address1 ?? "",
    address2: user.address2 ?? "",
    zipcode: user.zipcode ?? "",
    city: user.city ?? "",
    phone: user.phone ?? "",
    birthdate: user.birthdate,
    name: user.name ?? "",
    siren: user.siren ?? "",
    vatNumber: user.vatNumber ?? "",
    vatExemption: user.vatExemption,
    emails: user.emails,
  };
}

/** PATCH semantics: fields absent from the request keep their stored value; the whole resulting
 * profile is checked with the rules of spec 001 §5 before anything is written, in one transaction. */
export async function updateProfile(
  deps: Deps,
  actor: Actor,
  body: Record<string, unknown>,
): Promise<UserPayload> {
  const user = requireSignedIn(actor);
  const password = typeof body.password === "string" ? body.password : "";
  if (password && user.impersonatorId) throw new AppError("forbidden", PASSWORD_LOCKED_WHILE_IMPERSONATING);
  // Hashed before the transaction (argon2 must not hold a connection); unused if the form is invalid.
  const passwordHash = password ? await hashPassword(password) : null;
  const today = new Date().toISOString().slice(0, 10);
  const updated = await transactionAs(deps.db, user, async (tx) => {
    const current = await findUser(tx, user.user.id);
    const merged: Record<string, unknown> = {
      ...profileInput(current),
      password: "",
      passwordConfirmation: "",
    };
    for (const field of [...Object.keys(PROFILE_COLUMNS), "password", "passwordConfirmation"]) {
      if (field in body) merged[field] = body[field];
    }
    const update = parseInput(profileSchema(user.user.type, today), merged, PROFILE_INVALID);
    await updateUserFields(tx, user.user.id, {
      firstname: update.firstname,
      lastname: update.lastname,
      address1: update.address1,
      address2: update.address2 || null,
      zipcode: update.zipcode,
      city: update.city,
      phone: normalizePhone(update.phone),
      birthdate: update.birthdate,
      name: update.name || null,
      siren: update.siren || null,
      vatNumber: update.vatNumber || null,
      vatExemption: update.vatExemption,
      emails: update.emails,
    });
    if (passwordHash && update.password) await changeOwnPassword(tx, passwordHash, user.sessionHash);
    return await findUser(tx, user.user.id, user.impersonatorId !== null);
  }).catch(vatStatusConflict);
  // The sessions carry the names (the header) and a password change ends the other sessions.
  deps.sessions?.dropUser(user.user.id);
  return updated;
}

/** The database refuses a partner's VAT status change under open quotes priced the other way
 * (guard_vat_status_change, SQLSTATE VT409): a 409 naming them, in French. */
export function vatStatusConflict(error: unknown): never {
  const e = error as { code?: string; detail?: string; message?: string };
  if (e?.code !== "VT409") throw error;
  const ids = (e.detail ?? "").split(",").filter(Boolean).map((id) => `n° ${id}`).join(", ");
  if (/need the VAT number/.test(e.message ?? "")) {
    throw new AppError(
      "conflict",
      `Vous ne pouvez pas retirer votre numéro de TVA tant que des devis chiffrés avec TVA sont en cours (devis ${ids}) : leurs factures doivent le porter.`,
    );
  }
  const withVat = / with VAT/.test(e.message ?? "");
  throw new AppError(
    "conflict",
    withVat
      ? `Vous ne pouvez pas passer en franchise de TVA tant que des devis chiffrés avec TVA sont en cours (devis ${ids}) : faites-les aboutir ou annuler d'abord.`
      : `Vous ne pouvez pas renoncer à la franchise de TVA tant que des devis chiffrés sans TVA sont en cours (devis ${ids}) : faites-les aboutir ou annuler d'abord.`,
  );
}

export async function requestAccountDeletion(deps: Deps, actor: Actor): Promise<UserPayload> {
  const user = requireSignedIn(actor);
  const result = await transactionAs(deps.db, user, async (tx) => {
    await requestDeletion(tx, user.user.id);
    return await findUser(tx, user.user.id, user.impersonatorId !== null);
  });
  deps.sessions?.dropUser(user.user.id);
  await deps.logger.info("accounts", "Suppression de compte demandée", { userId: user.user.id });
  return result;
}

export async function cancelAccountDeletion(deps: Deps, actor: Actor): Promise<UserPayload> {
  const user = requireSignedIn(actor);
  const result = await transactionAs(deps.db, user, async (tx) => {
    await cancelDeletion(tx, user.user.id);
    return await findUser(tx, user.user.id, user.impersonatorId !== null);
  });
  deps.sessions?.dropUser(user.user.id);
  return result;
}

/** Admin list of accounts; RLS shows others' accounts to admins only, and the role is checked here. */
export async function listAccounts(deps: Deps, actor: Actor, search: string): Promise<UserListItem[]> {
  const user = requireRole(actor, "Admin", { notImpersonating: true });
  return await transactionAs(deps.db, user, (tx) => listUsers(tx, search.slice(0, 100)));
}
