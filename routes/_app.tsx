// The app assembly (Fresh keeps it in routes/_app and _middleware): middleware in order, the route
// modules mounted as sub-apps, and the one place where errors become responses.
import { Hono } from "hono";
import { serveStatic } from "hono/deno";
import type { Deps } from "../lib/deps.ts";
import { AppError } from "../lib/errors.ts";
import { type AppEnv, type Ctx, wantsJson } from "../lib/http/context.ts";
import { readSessionCookie } from "../lib/http/cookies.ts";
import {
  csrfProtection,
  noStoreForPersonalData,
  rejectNulBytes,
  requestSizeLimit,
  securityHeaders,
} from "../lib/http/security.ts";
import { resolveSession } from "../lib/auth/actions.ts";
import { createLogBudget } from "../lib/log/logger.ts";
import { ANONYMOUS } from "../lib/actor.ts";
import { renderErrorPage } from "../components/layout/ErrorPage.tsx";
import { loadIslands } from "../components/Island.tsx";
import { siteRoutes } from "./site.tsx";
import { authRoutes } from "./auth.tsx";
import { accountRoutes } from "./account.ts";
import { dashboardRoutes } from "./dashboard.tsx";
import { adminRoutes } from "./admin.tsx";
import { impersonationRoutes } from "./impersonation.tsx";
import { partnerApplicationRoutes } from "./partner_applications.tsx";
import { dealsApiRoutes } from "./deals_api.ts";
import { dealPhotoApiRoutes } from "./deal_photos_api.ts";
import { settingsApiRoutes } from "./settings_api.ts";
import { dealPageRoutes } from "./deal_pages.tsx";
import { partnerPageRoutes } from "./partner_pages.tsx";
import { adminDealRoutes } from "./admin_deals.tsx";
import { dealRequestRoutes } from "./deal_request.tsx";
import { mediaRoutes } from "./media.ts";
import { customerApiRoutes } from "./customer_api.ts";
import { paymentRoutes } from "./payments_api.ts";
import { stripeWebhookRoutes } from "./webhooks.ts";
import { billingDownloadRoutes } from "./billing_downloads.ts";
import { dealShowRoutes } from "./deal_show.tsx";
import { partnerPublicRoutes } from "./partner_public.tsx";
import { customerPageRoutes } from "./customer_pages.tsx";
import { quotePaymentRoutes } from "./quote_payment.tsx";
import { outboxApiRoutes } from "./outbox_api.ts";
import { sessionRoutes } from "./sessions.tsx";
import { cartRoutes } from "./cart.tsx";
import { adminSessionApiRoutes, adminSessionPageRoutes } from "./admin_sessions.tsx";
import { customerRegistrationApiRoutes, customerSessionPageRoutes } from "./customer_sessions.tsx";
import { checkoutRoutes } from "./checkout.ts";
import { voucherRoutes } from "./vouchers.tsx";
import { dealEmailApiRoutes } from "./deal_emails_api.ts";
import { cronApiRoutes } from "./cron_api.ts";
import { adminCronRoutes } from "./admin_cron.tsx";
import { logsApiRoutes } from "./logs_api.ts";
import { adminLogsRoutes } from "./admin_logs.tsx";
import { chatApiRoutes } from "./chat_api.ts";
import { observeRequests } from "../lib/http/observe.ts";
import { metricsRoutes } from "./metrics.ts";
import { healthRoutes } from "./health.ts";
import { isDatabaseUnavailable } from "../lib/db/unavailable.ts";

export const UNEXPECTED_ERROR = "Une erreur inattendue s'est produite, veuillez réessayer";

/** PostgreSQL refusals that are the client's fault (bad value, RLS/privilege), never a crash. */
function databaseRefusal(error: unknown): AppError | null {
  // The database cannot be reached (lost connection, deadline passed): 503 with Retry-After.
  if (isDatabaseUnavailable(error)) return new AppError("unavailable");
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== "string") return null;
  if (code === "42501") return new AppError("forbidden");
  if (code.startsWith("22")) return new AppError("bad_request");
  return null;
}

export async function createApp(deps: Deps): Promise<Hono<AppEnv>> {
  await loadIslands();
  // Unexpected errors caused by anonymous requests: at most this many log rows a minute.
  const anonymousErrors = createLogBudget(30);
  const app = new Hono<AppEnv>();
  // First: the request id, the request metrics and the JSON request line (lib/http/observe.ts).
  if (deps.config.observeRequests) app.use("*", observeRequests());

  // Liveness and readiness first: no session, no middleware.
  app.route("/", healthRoutes(deps));
  app.use("/build/*", async (c, next) => {
    await next();
    if (c.res.status === 200) c.header("Cache-Control", "public, max-age=31536000, immutable");
  });
  app.use("/build/*", serveStatic({ root: "./static" }));
  app.use("/favicon.svg", serveStatic({ path: "./static/favicon.svg" }));

  app.use("*", async (c, next) => {
    c.set("deps", deps);
    c.set("actor", ANONYMOUS);
    await next();
  });
  app.use(
    "*",
    securityHeaders({ secure: deps.config.secureCookies, stripe: !!deps.config.stripePublishableKey }),
  );
  app.use("*", rejectNulBytes());
  app.use("*", requestSizeLimit());
  // The cookie's session becomes the request's actor: one statement, no transaction of its own.
  app.use("*", async (c, next) => {
    c.set("actor", await resolveSession(deps, readSessionCookie(c)));
    await next();
  });
  app.use("*", noStoreForPersonalData());
  app.use("*", csrfProtection(deps.config.appUrl));
  // Every action taken while impersonating is logged with the real admin's id.
  app.use("*", async (c, next) => {
    const actor = c.var.actor;
    await next();
    if (actor.kind === "user" && actor.impersonatorId && !["GET", "HEAD", "OPTIONS"].includes(c.req.method)) {
      await deps.logger.info("impersonation", "Action effectuée en mode administrateur", {
        adminId: actor.impersonatorId,
        userId: actor.user.id,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
      });
    }
  });

  app.route("/", siteRoutes);
  app.route("/", authRoutes);
  app.route("/api/user", accountRoutes);
  app.route("/dashboard", dashboardRoutes);
  app.route("/dashboard/admin", adminRoutes);
  app.route("/admin", impersonationRoutes);
  app.route("/devenir-partenaire", partnerApplicationRoutes);
  app.route("/api/deal", dealsApiRoutes);
  app.route("/api/deal", dealPhotoApiRoutes);
  app.route("/api", settingsApiRoutes);
  app.route("/dashboard/espace-partenaire", dealPageRoutes);
  app.route("/dashboard/partenaire", partnerPageRoutes);
  app.route("/dashboard/admin/devis", adminDealRoutes);
  app.route("/demande-de-devis", dealRequestRoutes);
  app.route("/media", mediaRoutes);
  app.route("/api/customer", customerApiRoutes);
  app.route("/", paymentRoutes);
  app.route("/api/webhooks", stripeWebhookRoutes);
  app.route("/", billingDownloadRoutes);
  app.route("/deal", dealShowRoutes);
  app.route("/bar", partnerPublicRoutes);
  app.route("/dashboard/client", customerPageRoutes);
  app.route("/devis", quotePaymentRoutes);
  app.route("/api/admin/outbox", outboxApiRoutes);
  app.route("/", sessionRoutes);
  app.route("/", cartRoutes);
  app.route("/api/admin", adminSessionApiRoutes);
  app.route("/dashboard/admin/ateliers", adminSessionPageRoutes);
  app.route("/api/customer", customerRegistrationApiRoutes);
  app.route("/dashboard/client/sessions", customerSessionPageRoutes);
  app.route("/", checkoutRoutes);
  app.route("/", voucherRoutes);
  app.route("/api/deal", dealEmailApiRoutes);
  app.route("/api/cron", cronApiRoutes);
  app.route("/dashboard/admin/cron", adminCronRoutes);
  app.route("/api/logs", logsApiRoutes);
  app.route("/dashboard/admin/logs", adminLogsRoutes);
  app.route("/api/chat", chatApiRoutes);
  app.route("/metrics", metricsRoutes);

  const respond = (c: Ctx, error: AppError, status = error.status) => {
    if (status === 503) c.header("Retry-After", "5");
    if (wantsJson(c)) {
      return c.json(
        {
          status: "error",
          message: error.message,
          error: error.message,
          errors: error.fields,
          requestId: c.var.requestId,
        },
        status as 400,
      );
    }
    return renderErrorPage(c, error, status);
  };

  app.notFound((c) => respond(c, new AppError("not_found")));

  app.onError(async (err, c) => {
    const known = err instanceof AppError ? err : databaseRefusal(err);
    if (known) return respond(c, known);
    // Only unexpected errors are logged with their stack; anonymous ones within a budget.
    if (c.var.actor?.kind !== "anonymous" || anonymousErrors.take()) {
      await deps.logger.error("http", err.message || "Erreur inattendue", {
        path: c.req.path,
        method: c.req.method,
        stack: err.stack?.split("\n").slice(0, 8).join("\n"),
      });
    } else {
      console.error(`[error] http (non journalisé) ${c.req.method} ${c.req.path}: ${err.message}`);
    }
    return respond(c, new AppError("bad_request", UNEXPECTED_ERROR), 500);
  });

  return app;
}
