// The first middleware of the app (routes/_app.tsx): gives each request an id, serves it under that id
// (AsyncLocalStorage: the logger's rows and lines caused by the request carry it), returns it in
// `X-Request-Id`, then counts the request in the metrics and writes one JSON line for it.
//   * The id: a sane incoming X-Request-Id (a proxy's: at most 64 of [A-Za-z0-9._-]) or a new uuid.
//   * The route label is the Hono route pattern that answered ('/api/deal/:id'), never the path: the
//     endpoint the router matched, or when only middleware matched (static files, a sub-app's guard)
//     that middleware's pattern, or '(unmatched)' for a 404 of an unknown path. Bounded cardinality.
//   * The line holds fixed fields only (time, request id, method, route, status, duration, user id and
//     the impersonating admin's id): no header, cookie, query string, body or raw path — a path can
//     hold a token (/deal/show/{token}).
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv, Ctx } from "./context.ts";
import { acceptRequestId, newRequestId, runWithRequestId } from "../log/request_context.ts";
import { lineTime, writeLine } from "../log/lines.ts";
import { observeRequest, UNMATCHED_ROUTE } from "../metrics/registry.ts";

const ANY = "ALL";

/** The route pattern that answered (see the header comment). */
export function routeLabel(c: Ctx, status: number): string {
  const routes = matchedRoutes(c);
  const current = routes[c.req.routeIndex];
  if (current && current.method !== ANY) return current.path;
  const endpoint = routes.find((route) => route.method !== ANY);
  if (endpoint) return endpoint.path;
  if (current && status !== 404 && current.path !== "*" && current.path !== "/*") return current.path;
  return UNMATCHED_ROUTE;
}

export function observeRequests(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = acceptRequestId(c.req.header("x-request-id")) ?? newRequestId();
    c.set("requestId", requestId);
    await runWithRequestId(requestId, next);
    // Set on the response itself: a header prepared before it exists would take Hono's c.json() off its
    // fast path. A response whose headers are immutable (a fetch()'s) is copied by c.header().
    try {
      c.res.headers.set("X-Request-Id", requestId);
    } catch {
      c.header("X-Request-Id", requestId);
    }
    const status = c.res.status;
    const route = routeLabel(c, status);
    const ms = performance.now() - started;
    observeRequest(c.req.method, route, status, ms / 1000);
    const actor = c.get("actor");
    const impersonatorId = actor?.kind === "user" ? actor.impersonatorId : null;
    writeLine({
      time: lineTime(),
      level: status >= 500 ? "error" : status >= 400 ? "warning" : "info",
      type: "request",
      requestId,
      method: c.req.method,
      route,
      status,
      durationMs: Math.round(ms * 10) / 10,
      userId: actor?.kind === "user" ? actor.user.id : null,
      // Only while an admin impersonates the user (undefined is left out of the JSON).
      impersonatorId: impersonatorId ?? undefined,
    });
  };
}
