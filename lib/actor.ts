// Who acts: every request, job and webhook has an actor, and `claimsFor` is the only place where an
// actor becomes database claims. The service role (RLS bypassed) is reachable only through a system
// actor, named with its reason, so that every use of it can be found by searching `systemActor(`.
import { type Claims, type Database, makeTx, type QueryOptions, type Row, type Tx } from "./db/database.ts";
import type { UserType } from "./accounts/rules.ts";
import { AppError } from "./errors.ts";

export interface SessionUser {
  id: string;
  type: UserType;
  firstname: string;
  lastname: string;
  name: string | null;
  email: string;
}

export interface AnonymousActor {
  kind: "anonymous";
}

export interface UserActor {
  kind: "user";
  user: SessionUser;
  /** The admin who is impersonating `user`, if any. */
  impersonatorId: string | null;
  /** SHA-256 of the session token the request came with. */
  sessionHash: string;
}

/** Why the system acts with every right: the auth server's own tables, scheduled jobs, webhooks from
 * providers, demo data and command-line tasks, the logger, rate limits, and public quote requests
 * (after the use case's checks: the public writes no deal table itself), payments (recorded only
 * through record_payment, after the use case's checks, and the simulated provider's own tables). */
export type SystemReason =
  | "auth"
  | "job"
  | "webhook"
  | "seed"
  | "cli"
  | "log"
  | "limits"
  | "intake"
  | "payments"
  // Gift vouchers: created, activated and read by their code after the use case's checks.
  | "vouchers"
  // Idempotency keys: reserved, answered and released around a creating POST (lib/idempotency).
  | "idempotency"
  // A shopper's cart (holds, lines, codes): the cart functions are closed to the API roles (a visitor
  // with the public anon key would skip the app's limits), so the use case calls them as the system
  // on behalf of the shopper, after its own checks (see `cartActor`).
  | "cart"
  // The work queues' figures, read for /metrics and the logs page's alerts (lib/metrics/queue_store.ts).
  | "metrics"
  // GET /readyz: whether the database answers and has this code's last migration.
  | "health"
  // A user's export of their personal data (GDPR art. 15, 20): the emails sent to their address, which
  // RLS shows to admins only; read after the use case has identified the signed-in user.
  | "export";

export interface SystemActor {
  kind: "system";
  reason: SystemReason;
  /** The user the system acts for (becomes the claims' `sub`, read by auth.uid()), if any. */
  onBehalfOf?: string;
}

export type Actor = AnonymousActor | UserActor | SystemActor;

export const ANONYMOUS: AnonymousActor = { kind: "anonymous" };

export function systemActor(reason: SystemReason): SystemActor {
  return { kind: "system", reason };
}

/** The system acting on a shopper's cart: an anonymous visitor (its cart is found by its cookie
 * token) or a signed-in user, whose id the cart functions read through auth.uid(). */
export function cartActor(actor: Actor): SystemActor {
  return actor.kind === "user"
    ? { kind: "system", reason: "cart", onBehalfOf: actor.user.id }
    : { kind: "system", reason: "cart" };
}

export function userActor(
  user: SessionUser,
  sessionHash: string,
  impersonatorId: string | null = null,
): UserActor {
  return { kind: "user", user, sessionHash, impersonatorId };
}

/** A signed-in user whose type is one of `R`. */
export type RoleActor<R extends UserType> = UserActor & { user: SessionUser & { type: R } };

export interface RoleOptions {
  /** The French message of the 403 (the default one otherwise). */
  message?: string;
  /** The French message of the 401 (the default one otherwise). */
  loginMessage?: string;
  /** Refused (403) while an admin impersonates the user: what only the admin in person may do. */
  notImpersonating?: boolean;
}

/** The one check of who may run a use case: anonymous visitors and the system get 401, a signed-in
 * user of another type (or impersonated, with `notImpersonating`) 403. Returns the actor narrowed. */
export function requireRole<R extends UserType>(
  actor: Actor,
  roles: R | readonly R[],
  options: RoleOptions = {},
): RoleActor<R> {
  if (actor.kind !== "user") throw new AppError("unauthenticated", options.loginMessage);
  const allowed: readonly UserType[] = typeof roles === "string" ? [roles] : roles;
  if (!allowed.includes(actor.user.type) || (options.notImpersonating && actor.impersonatorId)) {
    throw new AppError("forbidden", options.message);
  }
  return actor as RoleActor<R>;
}

/** Any signed-in user (anonymous visitors and the system get 401). */
export function requireSignedIn(actor: Actor, options: Pick<RoleOptions, "loginMessage"> = {}): UserActor {
  if (actor.kind !== "user") throw new AppError("unauthenticated", options.loginMessage);
  return actor;
}

/** A transaction-like runner whose every statement is its own transaction as `actor` (one round trip
 * on PostgreSQL): for store functions a use case runs as a single statement. */
export function statementTx(db: Database, actor: Actor): Tx {
  return makeTx((text, params, options) => statementAs(db, actor, text, params, options));
}

/** The only place where claims are built. */
function claimsFor(actor: Actor): Claims {
  switch (actor.kind) {
    case "anonymous":
      return { role: "anon" };
    case "user":
      return actor.impersonatorId
        ? { role: "authenticated", sub: actor.user.id, act: { sub: actor.impersonatorId } }
        : { role: "authenticated", sub: actor.user.id };
    case "system":
      return actor.onBehalfOf
        ? { role: "service_role", reason: actor.reason, sub: actor.onBehalfOf }
        : { role: "service_role", reason: actor.reason };
  }
}

/** One transaction as `actor`. */
export function transactionAs<T>(db: Database, actor: Actor, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(claimsFor(actor), fn);
}

/** One statement in its own transaction as `actor` (a single round trip on PostgreSQL). */
export function statementAs<T = Row>(
  db: Database,
  actor: Actor,
  text: string,
  params: unknown[] = [],
  options: QueryOptions = {},
): Promise<T[]> {
  return db.statement<T>(claimsFor(actor), text, params, options);
}
