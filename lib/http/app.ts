// Builds the Hono app: middleware in order (headers, size limit, session, CSRF, impersonation audit),
// static files, the route modules, and the one place where errors become responses.
import { Hono } from "hono";
import { serveStatic } from "hono/deno";
import { AppError } from "../errors.ts";
import { findSession } from "../auth/sessions.ts";
import { type AppEnv, type Deps, wantsJson } from "./context.ts";
import { readSessionCookie } from "./cookies.ts";
import { csrfProtection, requestSizeLimit, securityHeaders } from "./security.ts";
import { renderErrorPage } from "../../routes/errors.tsx";
import { siteRoutes } from "../../routes/site.tsx";
import { authRoutes } from "../../routes/auth.tsx";
import { accountRoutes } from "../../routes/account.ts";
import { dashboardRoutes } from "../../routes/dashboard.tsx";
import { adminRoutes } from "../../routes/admin.tsx";

export const UNEXPECTED_ERROR = "Une erreur inattendue s'est produite, veuillez réessayer";

export function createApp(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use("/build/*", async (c, next) => {
    await next();
    if (c.res.status === 200) c.header("Cache-Control", "public, max-age=31536000, immutable");
  });
  app.use("/build/*", serveStatic({ root: "./static" }));
  app.use("/favicon.svg", serveStatic({ path: "./static/favicon.svg" }));

  app.use("*", async (c, next) => {
    c.set("deps", deps);
    c.set("session", null);
    await next();
  });
  app.use("*", securityHeaders(deps.config.secureCookies));
  app.use("*", requestSizeLimit());
  app.use("*", async (c, next) => {
    const token = readSessionCookie(c);
    if (token) c.set("session", await findSession(deps.db, token));
    await next();
  });
  app.use("*", csrfProtection(deps.config.appUrl));
  // Every action taken while impersonating is logged with the real admin's id.
  app.use("*", async (c, next) => {
    const session = c.var.session;
    await next();
    if (session?.impersonatorId && !["GET", "HEAD", "OPTIONS"].includes(c.req.method)) {
      await deps.logger.info("impersonation", "Action effectuée en mode administrateur", {
        adminId: session.impersonatorId,
        userId: session.user.id,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
      });
    }
  });

  siteRoutes(app);
  authRoutes(app);
  accountRoutes(app);
  dashboardRoutes(app);
  adminRoutes(app);

  app.notFound((c) => {
    const error = new AppError("not_found");
    return wantsJson(c)
      ? c.json({ status: "error", message: error.message, error: error.message }, 404)
      : renderErrorPage(c, error);
  });

  app.onError(async (err, c) => {
    // A refusal from row-level security or a privilege check is a 403, not a crash.
    const error = err instanceof AppError
      ? err
      : (err as { code?: string }).code === "42501"
      ? new AppError("forbidden")
      : null;
    if (!error) {
      await deps.logger.error("http", err.message || "Erreur inattendue", {
        path: c.req.path,
        method: c.req.method,
        stack: err.stack?.split("\n").slice(0, 8).join("\n"),
      });
    }
    const status = error?.status ?? 500;
    const message = error?.message ?? UNEXPECTED_ERROR;
    if (wantsJson(c)) {
      return c.json({ status: "error", message, error: message, errors: error?.fields ?? {} }, status as 400);
    }
    if (error?.code === "unauthenticated") {
      return c.redirect(`/login?redirect=${encodeURIComponent(c.req.path)}`, 303);
    }
    return renderErrorPage(c, error ?? new AppError("bad_request", UNEXPECTED_ERROR), status);
  });

  return app;
}
