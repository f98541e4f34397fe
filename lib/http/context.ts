// What every request handler can reach: the app's dependencies, the current session, and a way to
// run one transaction as the current user (RLS applies).
import type { Context } from "hono";
import type { Config } from "../config.ts";
import { ANON, type Claims, type Database, type Tx, userClaims } from "../db/database.ts";
import { AppError } from "../errors.ts";
import type { Logger } from "../log/logger.ts";
import type { Session } from "../auth/sessions.ts";
import type { UserType } from "../accounts/rules.ts";

export interface Deps {
  config: Config;
  db: Database;
  logger: Logger;
}

export type AppEnv = { Variables: { deps: Deps; session: Session | null } };
export type Ctx = Context<AppEnv>;

export function claimsOf(session: Session | null): Claims {
  return session ? userClaims(session.user.id, session.impersonatorId) : ANON;
}

/** One transaction for the request's action, as the requesting user. */
export function withTx<T>(c: Ctx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return c.var.deps.db.transaction(claimsOf(c.var.session), fn);
}

/** The session of a signed-in user, optionally of one of the given types; throws otherwise. */
export function requireSession(c: Ctx, types?: UserType[]): Session {
  const session = c.var.session;
  if (!session) throw new AppError("unauthenticated");
  if (types && !types.includes(session.user.type)) throw new AppError("forbidden");
  return session;
}

/** API paths answer JSON; everything else answers HTML pages. */
export function wantsJson(c: Ctx): boolean {
  const path = c.req.path;
  if (path.startsWith("/api/") || path === "/email/exists" || path === "/phone/exists") return true;
  const accept = c.req.header("accept") ?? "";
  return accept.includes("application/json") && !accept.includes("text/html");
}

/** Reads a JSON or form body as a plain object; a malformed body is a 400, not a 500. */
export async function readBody(c: Ctx): Promise<Record<string, unknown>> {
  const type = c.req.header("content-type") ?? "";
  try {
    if (type.includes("application/json")) {
      const body = await c.req.json();
      if (body === null || typeof body !== "object" || Array.isArray(body)) throw new Error("not an object");
      return body as Record<string, unknown>;
    }
    if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
      const form = await c.req.parseBody({ all: true });
      return form as Record<string, unknown>;
    }
    const text = await c.req.text();
    return text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("bad_request", "Le contenu de la requête est invalide.");
  }
}
