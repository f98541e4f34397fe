// GET /metrics: the Prometheus text format (lib/metrics/), behind `Authorization: Bearer <METRICS_TOKEN>`.
// Without METRICS_TOKEN the route does not exist (404, the usual page); a missing or wrong token is a
// 401 that says nothing more.
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { AppError } from "../lib/errors.ts";
import { bearerMatches } from "../lib/metrics/token.ts";
import { METRICS_CONTENT_TYPE, renderMetrics } from "../lib/metrics/app.ts";

export const METRICS_REFUSED = "Accès aux métriques refusé : jeton manquant ou invalide.";

export const metricsRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const { deps } = c.var;
    if (!deps.config.metricsToken) throw new AppError("not_found");
    if (!bearerMatches(c.req.header("authorization"), deps.config.metricsToken)) {
      c.header("WWW-Authenticate", 'Bearer realm="metrics"');
      c.header("Cache-Control", "no-store");
      return c.text(METRICS_REFUSED, 401);
    }
    c.header("Cache-Control", "no-store");
    return c.body(await renderMetrics(deps), 200, { "Content-Type": METRICS_CONTENT_TYPE });
  });
