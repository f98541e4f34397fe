// The admin page 'Gestion des Logs', mounted at /dashboard/admin/logs: the first view rendered by the
// server with the same use case as GET /api/logs, then an island (filters, refresh, deletes). Guard:
// an admin.
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { LOG_MESSAGES, parseFilters } from "../lib/ops/rules.ts";
import { listLogsPage } from "../lib/ops/use_cases/list_logs.ts";
import { renderDashboardPage } from "../components/layout/render.tsx";
import { LogsPage } from "../components/ops/LogsPage.tsx";

export const adminLogsRoutes = new Hono<AppEnv>()
  .use(requireUser("page", ["Admin"]))
  .get("/", async (c) => {
    // A filter typed by hand that makes no sense shows the unfiltered page rather than an error.
    const parsed = parseFilters(c.req.query());
    const filters = parsed.ok ? parsed.filters : { service: "", type: "" as const, page: 1 };
    const data = await listLogsPage(c.var.deps, c.var.actor, {
      service: filters.service,
      type: filters.type,
      page: String(filters.page),
    });
    return renderDashboardPage(
      c,
      LOG_MESSAGES.title,
      <LogsPage data={data} filters={{ ...filters, page: data.page }} />,
    );
  });
