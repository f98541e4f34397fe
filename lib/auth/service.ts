// The auth service: registration, login, logout, impersonation and password reset. It works on the
// identity schema as service_role, like Supabase's auth server; everything else the app does runs
// as anon/authenticated under RLS.
import { type Database, SERVICE, type Tx } from "../db/database.ts";
import { AppError } from "../errors.ts";
import type { Logger } from "../log/logger.ts";
import { enqueueEmail } from "../mail/outbox.ts";
import { passwordResetEmail } from "../mail/templates.ts";
import { isUniqueViolation } from "../accounts/users.ts";
import {
  normalizeEmail,
  normalizePhone,
  type Registration,
  REGISTRATION_INVALID,
} from "../accounts/rules.ts";
import { decoyPasswordHash, hashPassword, randomToken, sha256Hex, verifyPassword } from "./crypto.ts";
import { createSession, deleteSession, deleteUserSessions, type Session } from "./sessions.ts";
import { isLoginLocked, LOGIN_WINDOW_MS, RESET_TOKEN_TTL_MS, TOO_MANY_LOGINS_MESSAGE } from "./policy.ts";

export const EMAIL_TAKEN = "Cet email existe déjà chez nous.";
export const PHONE_TAKEN = "Ce téléphone existe déjà chez nous.";
export const BAD_CREDENTIALS = "Email ou mot de passe incorrect";

export interface AuthDeps {
  db: Database;
  logger: Logger;
  config: { appUrl: string; appEnv: string };
}

export async function emailExists(db: Database, email: string): Promise<boolean> {
  const normalized = normalizeEmail(email);
  if (!normalized) return false;
  const rows = await db.transaction(
    SERVICE,
    (tx) => tx`select 1 from public.users where email = ${normalized}`,
  );
  return rows.length > 0;
}

export async function phoneExists(db: Database, phone: string): Promise<boolean> {
  const normalized = normalizePhone(phone);
  if (!normalized) return false;
  const rows = await db.transaction(
    SERVICE,
    (tx) => tx`select 1 from public.users where phone = ${normalized} and anonymized_at is null`,
  );
  return rows.length > 0;
}

/** Creates a customer account and its first session (automatic login after registration). */
export async function register(
  deps: AuthDeps,
  input: Registration,
  userAgent?: string | null,
): Promise<{ userId: string; token: string }> {
  const passwordHash = await hashPassword(input.password);
  const phone = normalizePhone(input.phone);
  const professional = input.professional || input.name !== "" || input.siren !== "";
  try {
    return await deps.db.transaction(SERVICE, async (tx) => {
      const taken: Record<string, string> = {};
      if ((await tx`select 1 from public.users where email = ${input.email}`).length) {
        taken.email = EMAIL_TAKEN;
      }
      if ((await tx`select 1 from public.users where phone = ${phone} and anonymized_at is null`).length) {
        taken.phone = PHONE_TAKEN;
      }
      if (Object.keys(taken).length) throw new AppError("validation", REGISTRATION_INVALID, taken);
      const [user] = await tx<{ id: string }>`
        insert into public.users (type, email, firstname, lastname, name, siren, address1, zipcode, city, phone,
                                  birthdate, optin, terms_accepted_at)
        values ('Customer', ${input.email}, ${input.firstname}, ${input.lastname},
                ${professional ? input.name : null}, ${professional ? input.siren : null},
                ${input.address}, ${input.zipcode}, ${input.city}, ${phone}, ${input.birthdate}::date,
                ${input.optin}, now())
        returning id`;
      await tx`insert into identity.credentials (user_id, password_hash) values (${user.id}, ${passwordHash})`;
      const token = await createSession(tx, user.id, { userAgent });
      return { userId: user.id, token };
    });
  } catch (error) {
    // Two registrations racing for the same email or phone: the unique index decides.
    if (isUniqueViolation(error, "users_email_key")) {
      throw new AppError("validation", REGISTRATION_INVALID, { email: EMAIL_TAKEN });
    }
    if (isUniqueViolation(error, "users_phone_key")) {
      throw new AppError("validation", REGISTRATION_INVALID, { phone: PHONE_TAKEN });
    }
    throw error;
  }
}

export interface LoginResult {
  userId: string;
  token: string;
  /** The account had asked to be deleted and logging in cancelled that. */
  reactivated: boolean;
}

export async function login(
  deps: AuthDeps,
  username: string,
  password: string,
  userAgent?: string | null,
): Promise<LoginResult> {
  const email = normalizeEmail(username);
  if (!email || !password) {
    throw new AppError("validation", "Veuillez renseigner votre email et votre mot de passe.", {
      ...(email ? {} : { username: REQUIRED_FIELD }),
      ...(password ? {} : { password: REQUIRED_FIELD }),
    });
  }
  const account = await deps.db.transaction(SERVICE, async (tx) => {
    const [{ failed }] = await tx<{ failed: number }>`
      select count(*)::int as failed from identity.login_attempts
      where email = ${email} and not succeeded
        and attempted_at > now() - ${`${LOGIN_WINDOW_MS} milliseconds`}::interval`;
    if (isLoginLocked(failed)) return "locked" as const;
    const [row] = await tx<{ id: string; hash: string; deletedAt: Date | null }>`
      select u.id, c.password_hash as hash, u.deleted_at as "deletedAt"
      from public.users u join identity.credentials c on c.user_id = u.id
      where u.email = ${email} and u.anonymized_at is null`;
    return row ?? null;
  });
  if (account === "locked") {
    await deps.logger.warning("auth", "Connexion bloquée après 10 échecs", { email });
    throw new AppError("too_many_requests", TOO_MANY_LOGINS_MESSAGE);
  }
  // Hash outside any transaction: argon2 takes tens of milliseconds and must not hold a connection.
  const valid = await verifyPassword(account?.hash ?? await decoyPasswordHash(), password) &&
    account !== null;
  return await deps.db.transaction(SERVICE, async (tx) => {
    await tx`insert into identity.login_attempts (email, succeeded) values (${email}, ${valid})`;
    if (!valid || !account) return null;
    const reactivated = account.deletedAt !== null;
    if (reactivated) await tx`update public.users set deleted_at = null where id = ${account.id}`;
    const token = await createSession(tx, account.id, { userAgent });
    return { userId: account.id, token, reactivated };
  }).then((result) => {
    if (!result) throw new AppError("unauthenticated", BAD_CREDENTIALS);
    return result;
  });
}

const REQUIRED_FIELD = "Ce champ est requis";

export async function logout(db: Database, session: Session): Promise<void> {
  await db.transaction(SERVICE, (tx) => deleteSession(tx, session.idHash));
}

/** An admin takes the identity of another user; the new session remembers the admin. */
export async function impersonate(deps: AuthDeps, session: Session, targetId: string): Promise<string> {
  if (session.user.type !== "Admin" || session.impersonatorId) {
    throw new AppError(
      "forbidden",
      "Seul un administrateur peut se connecter en tant qu'un autre utilisateur.",
    );
  }
  if (targetId === session.user.id) {
    throw new AppError("bad_request", "Vous êtes déjà connecté avec ce compte.");
  }
  const token = await deps.db.transaction(SERVICE, async (tx) => {
    // The admin's right is checked again in the database, not only from the session payload.
    const [admin] = await tx`select 1 from public.users where id = ${session.user.id} and type = 'Admin'
                               and anonymized_at is null`;
    if (!admin) throw new AppError("forbidden");
    const [target] = await tx`select 1 from public.users where id = ${targetId} and anonymized_at is null`;
    if (!target) throw new AppError("not_found", "Utilisateur introuvable.");
    await deleteSession(tx, session.idHash);
    return await createSession(tx, targetId, { impersonatorId: session.user.id });
  });
  await deps.logger.info("auth", "Connexion en tant qu'un autre utilisateur", {
    adminId: session.user.id,
    userId: targetId,
  });
  return token;
}

export async function switchBack(deps: AuthDeps, session: Session): Promise<string> {
  const adminId = session.impersonatorId;
  if (!adminId) throw new AppError("bad_request", "Vous n'êtes pas en mode administrateur.");
  const token = await deps.db.transaction(SERVICE, async (tx) => {
    await deleteSession(tx, session.idHash);
    return await createSession(tx, adminId);
  });
  await deps.logger.info("auth", "Retour au compte administrateur", { adminId, userId: session.user.id });
  return token;
}

/** Always succeeds from the caller's view, so that it does not reveal which emails have accounts. */
export async function requestPasswordReset(deps: AuthDeps, rawEmail: string): Promise<void> {
  const email = normalizeEmail(rawEmail);
  const token = randomToken();
  const link = `${deps.config.appUrl}/reset-password/${token}`;
  const sent = await deps.db.transaction(SERVICE, async (tx) => {
    const [user] = await tx<{ id: string; firstname: string }>`
      select id, firstname from public.users where email = ${email} and anonymized_at is null`;
    if (!user) return false;
    await tx`update identity.password_reset_tokens set used_at = now() where user_id = ${user.id} and used_at is null`;
    await tx`insert into identity.password_reset_tokens (token_hash, user_id, expires_at)
             values (${await sha256Hex(token)}, ${user.id},
                     now() + ${`${RESET_TOKEN_TTL_MS} milliseconds`}::interval)`;
    await enqueueEmail(tx, passwordResetEmail(email, user.firstname, link));
    return true;
  });
  // Admins cannot read reset emails (their links open the account); on a developer's machine, where
  // no SMTP delivers the outbox yet, the link is printed on the console instead.
  if (sent && deps.config.appEnv === "development") {
    console.log(`Lien de réinitialisation pour ${email} : ${link}`);
  }
}

async function findResetToken(tx: Tx, token: string): Promise<{ userId: string; tokenHash: string } | null> {
  if (!token || token.length > 100) return null;
  const tokenHash = await sha256Hex(token);
  const [row] = await tx<{ userId: string }>`
    select user_id as "userId" from identity.password_reset_tokens
    where token_hash = ${tokenHash} and used_at is null and expires_at > now()`;
  return row ? { userId: row.userId, tokenHash } : null;
}

export const RESET_LINK_INVALID = "Ce lien de réinitialisation est invalide ou a expiré.";

export async function isResetTokenValid(db: Database, token: string): Promise<boolean> {
  return (await db.transaction(SERVICE, (tx) => findResetToken(tx, token))) !== null;
}

/** Sets the new password, uses up the token and ends every session of the account. */
export async function resetPassword(deps: AuthDeps, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  const userId = await deps.db.transaction(SERVICE, async (tx) => {
    const found = await findResetToken(tx, token);
    if (!found) throw new AppError("bad_request", RESET_LINK_INVALID);
    await tx`update identity.password_reset_tokens set used_at = now() where token_hash = ${found.tokenHash}`;
    await tx`update identity.credentials set password_hash = ${passwordHash}, updated_at = now()
             where user_id = ${found.userId}`;
    await deleteUserSessions(tx, found.userId);
    return found.userId;
  });
  await deps.logger.info("auth", "Mot de passe réinitialisé", { userId });
}

/** Creates an account of any type with a password (demo data, the create-admin task). */
export async function createAccount(
  tx: Tx,
  account: {
    type: "Admin" | "Company" | "Customer";
    email: string;
    password: string;
    firstname: string;
    lastname: string;
    name?: string | null;
    phone?: string | null;
    siren?: string | null;
  },
): Promise<string> {
  const [user] = await tx<{ id: string }>`
    insert into public.users (type, email, firstname, lastname, name, phone, siren, terms_accepted_at)
    values (${account.type}, ${normalizeEmail(account.email)}, ${account.firstname}, ${account.lastname},
            ${account.name ?? null}, ${account.phone ? normalizePhone(account.phone) : null}, ${
    account.siren ?? null
  },
            now())
    returning id`;
  await tx`insert into identity.credentials (user_id, password_hash)
           values (${user.id}, ${await hashPassword(account.password)})`;
  return user.id;
}
