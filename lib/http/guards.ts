// The guards route modules put on their sub-app (one form per module): a signed-in user, or a user of
// given types. Pages send anonymous visitors to /login and back; APIs answer 401/403 in JSON.
// Use cases check their own rule again, and RLS a third time.
import type { MiddlewareHandler } from "hono";
import type { UserType } from "../accounts/rules.ts";
import { AppError } from "../errors.ts";
import type { AppEnv } from "./context.ts";

export type GuardKind = "page" | "api";

function loginRedirect(path: string, query: string): string {
  return `/login?redirect=${encodeURIComponent(path + query)}`;
}

/** `message`: what a signed-in user of another type is told (the default 403 sentence otherwise). */
export function requireUser(
  kind: GuardKind,
  types?: UserType[],
  message?: string,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const actor = c.var.actor;
    if (actor.kind !== "user") {
      if (kind === "page" && (c.req.method === "GET" || c.req.method === "HEAD")) {
        const url = new URL(c.req.url);
        return c.redirect(loginRedirect(url.pathname, url.search), 303);
      }
      throw new AppError("unauthenticated");
    }
    if (types && !types.includes(actor.user.type)) throw new AppError("forbidden", message);
    await next();
  };
}
