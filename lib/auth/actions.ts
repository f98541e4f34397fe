// Use cases of the auth capability: the app is its own auth server (like Supabase's GoTrue), so these
// act as the system (reason "auth") on the identity schema; everything a user does afterwards runs
// under the user's claims. Each use case owns its transaction and logs after commit.
import {
  type Actor,
  ANONYMOUS,
  type SessionUser,
  statementAs,
  systemActor,
  transactionAs,
  type UserActor,
  userActor,
} from "../actor.ts";
import { recordCreation } from "../idempotency/context.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { enqueueEmail } from "../mail/outbox.ts";
import { passwordResetEmail, registrationEmail } from "../mail/templates.ts";
import { sealSecrets } from "../mail/secrets.ts";
import {
  emailTaken,
  findUser,
  insertUser,
  isActiveAdmin,
  isUniqueViolation,
  phoneTaken,
  userExists,
  type UserPayload,
} from "../accounts/store.ts";
import {
  BAD_CREDENTIALS,
  EMAIL_INVALID,
  EMAIL_TAKEN,
  normalizeEmail,
  PHONE_INVALID,
  PHONE_TAKEN,
  type Registration,
  REGISTRATION_INVALID,
  REQUIRED,
} from "../accounts/rules.ts";
import { normalizePhone } from "../accounts/phone.ts";
import { decoyPasswordHash, hashPassword, sha256Hex, verifyPassword } from "./crypto.ts";
import {
  consumeResetToken,
  createSession,
  deleteSession,
  findLoginAccount,
  findResetToken,
  insertCredentials,
  issueResetToken,
  loginFailures,
  recordLoginAttempt,
  resetIssuedWithin,
  RESOLVE_SESSION_SQL,
  type ResolvedSession,
  setPasswordAfterReset,
} from "./store.ts";
import {
  ACCOUNT_UNDER_ATTACK_MESSAGE,
  EXISTENCE_CHECKS_PER_CLIENT,
  loginRefusal,
  RESET_REQUESTS_PER_CLIENT,
  TOO_MANY_LOGIN_ATTEMPTS_MESSAGE,
  TOO_MANY_LOGINS_MESSAGE,
  TOO_MANY_REGISTRATIONS_MESSAGE,
  TOO_MANY_REQUESTS_MESSAGE,
  TOO_MANY_RESETS_MESSAGE,
} from "./policy.ts";
import { enforceLimit } from "../limits/limiter.ts";
import { countRefusal } from "../metrics/registry.ts";

const AUTH = systemActor("auth");

/** Where a request comes from: its client address (for limits) and user agent (for sessions). */
export interface Client {
  ip: string;
  userAgent?: string | null;
}

export const RESET_LINK_INVALID = "Ce lien de réinitialisation est invalide ou a expiré.";

/** The actor of a request carrying a session cookie: the session's user, or anonymous. One statement,
 * or none when this instance resolved the session a moment ago (lib/auth/session_cache.ts). */
export async function resolveSession(
  deps: Pick<Deps, "db" | "sessions">,
  token: string | undefined,
): Promise<Actor> {
  if (!token || token.length > 100) return ANONYMOUS;
  const cached = deps.sessions?.get(token);
  if (cached) return cached;
  const epoch = deps.sessions?.epoch() ?? 0;
  const idHash = await sha256Hex(token);
  const [row] = await statementAs<ResolvedSession>(deps.db, AUTH, RESOLVE_SESSION_SQL, [idHash]);
  if (!row) return ANONYMOUS;
  const { impersonatorId, ...user } = row;
  const actor = userActor(user as SessionUser, idHash, impersonatorId);
  deps.sessions?.set(token, actor, epoch);
  return actor;
}

export async function emailExists(deps: Deps, client: Client, email: unknown): Promise<boolean> {
  await enforceLimit(deps.db, `exists:${client.ip}`, EXISTENCE_CHECKS_PER_CLIENT, TOO_MANY_REQUESTS_MESSAGE);
  if (email !== undefined && typeof email !== "string") {
    throw new AppError("validation", EMAIL_INVALID, { email: EMAIL_INVALID });
  }
  const normalized = normalizeEmail(String(email ?? ""));
  if (!normalized || normalized.length > 254) return false;
  return await transactionAs(deps.db, AUTH, (tx) => emailTaken(tx, normalized));
}

export async function phoneExists(deps: Deps, client: Client, phone: unknown): Promise<boolean> {
  await enforceLimit(deps.db, `exists:${client.ip}`, EXISTENCE_CHECKS_PER_CLIENT, TOO_MANY_REQUESTS_MESSAGE);
  if (phone !== undefined && typeof phone !== "string") {
    throw new AppError("validation", PHONE_INVALID, { phone: PHONE_INVALID });
  }
  const normalized = normalizePhone(String(phone ?? ""));
  if (!normalized) return false;
  return await transactionAs(deps.db, AUTH, (tx) => phoneTaken(tx, normalized));
}

export interface SignedIn {
  user: UserPayload;
  /** The session token to put in the cookie. */
  token: string;
  /** The account had asked to be deleted and logging in cancelled that. */
  reactivated: boolean;
}

/** Creates a customer account and its first session (automatic login after registration). Accounts
 * per client address are limited (REGISTRATIONS_PER_HOUR), before the password is hashed. */
export async function register(deps: Deps, client: Client, input: Registration): Promise<SignedIn> {
  await enforceLimit(
    deps.db,
    `register:${client.ip}`,
    { max: deps.config.registrationsPerHour, windowSeconds: 3600 },
    TOO_MANY_REGISTRATIONS_MESSAGE,
  );
  const passwordHash = await hashPassword(input.password);
  const phone = normalizePhone(input.phone)!;
  const professional = input.professional || input.name !== "" || input.siren !== "";
  try {
    const result = await transactionAs(deps.db, AUTH, async (tx) => {
      const taken: Record<string, string> = {};
      if (await emailTaken(tx, input.email)) taken.email = EMAIL_TAKEN;
      if (await phoneTaken(tx, phone)) taken.phone = PHONE_TAKEN;
      if (Object.keys(taken).length) throw new AppError("validation", REGISTRATION_INVALID, taken);
      const id = await insertUser(tx, {
        type: "Customer",
        email: input.email,
        firstname: input.firstname,
        lastname: input.lastname,
        name: professional ? input.name : null,
        siren: professional ? input.siren : null,
        address1: input.address,
        zipcode: input.zipcode,
        city: input.city,
        phone,
        birthdate: input.birthdate,
        optin: input.optin,
      });
      await recordCreation(tx);
      await insertCredentials(tx, id, passwordHash);
      // The address that created the account is known to it (lib/auth/policy.ts).
      await recordLoginAttempt(tx, input.email, client.ip, true);
      const token = await createSession(tx, id, { userAgent: client.userAgent });
      // The confirmation of the new account, in the registration's own transaction.
      await enqueueEmail(
        tx,
        registrationEmail(input.email, input.firstname, `${deps.config.appUrl}/dashboard`),
      );
      return { user: await findUser(tx, id), token, reactivated: false };
    });
    await deps.logger.info("auth", "Compte client créé", { userId: result.user.id });
    return result;
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

export async function login(
  deps: Deps,
  client: Client,
  input: { username: unknown; password: unknown },
): Promise<SignedIn> {
  const email = typeof input.username === "string" ? normalizeEmail(input.username) : "";
  const password = typeof input.password === "string" ? input.password : "";
  if (!email || !password || email.length > 254 || password.length > 1000) {
    throw new AppError("validation", "Veuillez renseigner votre email et votre mot de passe.", {
      ...(email ? {} : { username: REQUIRED }),
      ...(password ? {} : { password: REQUIRED }),
    });
  }
  // Every limit is checked before the password hash, which is the expensive part; each is the client
  // address's or the account's own (lib/auth/policy.ts): no budget shared by every visitor.
  await enforceLimit(
    deps.db,
    `login:${client.ip}`,
    { max: deps.config.loginAttemptsPerMinute, windowSeconds: 60 },
    TOO_MANY_LOGIN_ATTEMPTS_MESSAGE,
  );
  const { refusal, account } = await transactionAs(deps.db, AUTH, async (tx) => {
    const refusal = loginRefusal(await loginFailures(tx, email, client.ip));
    return { refusal, account: refusal ? null : await findLoginAccount(tx, email) };
  });
  if (refusal) {
    await deps.logger.warning("auth", "Connexion refusée après trop d'échecs", {
      email,
      ip: client.ip,
      counter: refusal,
    });
    countRefusal(refusal === "account" ? "login-account" : "login-lock");
    throw new AppError(
      "too_many_requests",
      refusal === "account" ? ACCOUNT_UNDER_ATTACK_MESSAGE : TOO_MANY_LOGINS_MESSAGE,
    );
  }
  // Hash outside any transaction: argon2 takes tens of milliseconds and must not hold a connection.
  // Unknown accounts verify a decoy hash, so timing does not tell which emails are registered.
  const valid = await verifyPassword(account?.hash ?? await decoyPasswordHash(), password) &&
    account !== null;
  const result = await transactionAs(deps.db, AUTH, async (tx) => {
    await recordLoginAttempt(tx, email, client.ip, valid);
    if (!valid || !account) return null;
    const reactivated = account.deletedAt !== null;
    if (reactivated) await tx`update public.users set deleted_at = null where id = ${account.id}`;
    const token = await createSession(tx, account.id, { userAgent: client.userAgent });
    return { user: await findUser(tx, account.id), token, reactivated };
  });
  if (!result) throw new AppError("unauthenticated", BAD_CREDENTIALS);
  return result;
}

export async function logout(deps: Deps, actor: Actor): Promise<void> {
  if (actor.kind !== "user") return;
  await transactionAs(deps.db, AUTH, (tx) => deleteSession(tx, actor.sessionHash));
  deps.sessions?.dropSession(actor.sessionHash);
}

/** An admin takes the identity of another user; the new session remembers the admin. */
export async function impersonate(deps: Deps, actor: Actor, targetId: string): Promise<string> {
  if (actor.kind !== "user" || actor.user.type !== "Admin" || actor.impersonatorId) {
    throw new AppError(
      "forbidden",
      "Seul un administrateur peut se connecter en tant qu'un autre utilisateur.",
    );
  }
  if (targetId === actor.user.id) {
    throw new AppError("bad_request", "Vous êtes déjà connecté avec ce compte.");
  }
  const token = await transactionAs(deps.db, AUTH, async (tx) => {
    // The admin's right is checked again in the database, not only from the session.
    if (!(await isActiveAdmin(tx, actor.user.id))) throw new AppError("forbidden");
    if (!(await userExists(tx, targetId))) throw new AppError("not_found", "Utilisateur introuvable.");
    await deleteSession(tx, actor.sessionHash);
    return await createSession(tx, targetId, { impersonatorId: actor.user.id });
  });
  deps.sessions?.dropSession(actor.sessionHash);
  await deps.logger.info("auth", "Connexion en tant qu'un autre utilisateur", {
    adminId: actor.user.id,
    userId: targetId,
  });
  return token;
}

/** The admin behind an impersonation, or a refusal when `actor` is not impersonating anyone. */
export function impersonatingAdmin(actor: Actor): { actor: UserActor; adminId: string } {
  if (actor.kind !== "user" || !actor.impersonatorId) {
    throw new AppError("bad_request", "Vous n'êtes pas en mode administrateur.");
  }
  return { actor, adminId: actor.impersonatorId };
}

export async function switchBack(deps: Deps, caller: Actor): Promise<string> {
  const { actor, adminId } = impersonatingAdmin(caller);
  const token = await transactionAs(deps.db, AUTH, async (tx) => {
    await deleteSession(tx, actor.sessionHash);
    return await createSession(tx, adminId);
  });
  deps.sessions?.dropSession(actor.sessionHash);
  await deps.logger.info("auth", "Retour au compte administrateur", { adminId, userId: actor.user.id });
  return token;
}

/** Answers the same way, after the same work, whatever the address: the requester's limit is checked
 * (per client address: asking for someone else's reset never blocks theirs), then the caller gets its
 * answer, and only then is the account looked up and the email written — at most one every
 * RESET_EMAIL_INTERVAL_MINUTES per account, without voiding a link already sent. */
export async function requestPasswordReset(deps: Deps, client: Client, rawEmail: string): Promise<void> {
  const email = normalizeEmail(rawEmail);
  await enforceLimit(deps.db, `reset:ip:${client.ip}`, RESET_REQUESTS_PER_CLIENT, TOO_MANY_RESETS_MESSAGE);
  deps.background.run("password-reset", async () => {
    const link = await transactionAs(deps.db, AUTH, async (tx) => {
      // The account's row is locked: two requests at once send one email.
      const [user] = await tx<{ id: string; firstname: string }>`
        select id, firstname from public.users where email = ${email} and anonymized_at is null for update`;
      if (!user) return null;
      if (await resetIssuedWithin(tx, user.id, deps.config.resetEmailIntervalMinutes)) return null;
      const token = await issueResetToken(tx, user.id, undefined, { voidEarlier: false });
      const link = `${deps.config.appUrl}/reset-password/${token}`;
      // The link opens the account: sealed in the outbox, masked for its readers.
      await enqueueEmail(
        tx,
        await sealSecrets(passwordResetEmail(email, user.firstname, link), [link], deps.config.appSecret),
      );
      return link;
    });
    // Admins cannot read reset emails (their links open the account); on a developer's machine,
    // where no SMTP server is configured, the link is printed on the console instead.
    if (link && deps.config.appEnv === "development" && !deps.config.smtpUrl) {
      console.log(`Lien de réinitialisation pour ${email} : ${link}`);
    }
  });
}

export async function isResetTokenValid(deps: Deps, token: string): Promise<boolean> {
  return (await transactionAs(deps.db, AUTH, (tx) => findResetToken(tx, token))) !== null;
}

/** Sets the new password, uses up the token (and the account's other links) and ends every session of
 * the account. The address that completed the reset becomes known to the account (lib/auth/policy.ts):
 * its owner logs in from there even while the account is under attack. */
export async function resetPassword(
  deps: Deps,
  token: string,
  password: string,
  client?: Client,
): Promise<void> {
  const passwordHash = await hashPassword(password);
  const userId = await transactionAs(deps.db, AUTH, async (tx) => {
    const userId = await consumeResetToken(tx, token);
    if (!userId) throw new AppError("bad_request", RESET_LINK_INVALID);
    await setPasswordAfterReset(tx, userId, passwordHash);
    if (client) {
      const [user] = await tx<{ email: string }>`select email from public.users where id = ${userId}`;
      if (user) await recordLoginAttempt(tx, user.email, client.ip, true);
    }
    return userId;
  });
  deps.sessions?.dropUser(userId); // the reset ended every session of the account
  await deps.logger.info("auth", "Mot de passe réinitialisé", { userId });
}

export interface AccountWithPassword {
  type: "Admin" | "Company" | "Customer";
  email: string;
  password: string;
  firstname: string;
  lastname: string;
  name?: string | null;
  phone?: string | null;
  siren?: string | null;
  vatNumber?: string | null;
  address1?: string | null;
  zipcode?: string | null;
  city?: string | null;
  birthdate?: string | null;
}

/** Creates an account of any type with a password: demo data and the create-admin task only. */
export async function createAccount(
  deps: Pick<Deps, "db">,
  actor: ReturnType<typeof systemActor>,
  account: AccountWithPassword,
): Promise<string> {
  if (actor.reason !== "seed" && actor.reason !== "cli") throw new AppError("forbidden");
  const passwordHash = await hashPassword(account.password);
  return await transactionAs(deps.db, actor, async (tx) => {
    const id = await insertUser(tx, account);
    await insertCredentials(tx, id, passwordHash);
    return id;
  });
}
