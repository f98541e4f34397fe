// The logs API (spec 001 §7), mounted at /api/logs: the page's data (GET, `success` and `data`), one
// row deleted (DELETE /{id}), rows older than 30 days deleted (POST /cleanup). Guard: an admin; the
// use cases check again, and RLS a third time.
import { Hono } from "hono";
import { type AppEnv, idParam } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { LOG_MESSAGES } from "../lib/ops/rules.ts";
import { listLogsPage } from "../lib/ops/use_cases/list_logs.ts";
import { deleteLogEntry } from "../lib/ops/use_cases/delete_log.ts";
import { cleanupLogs } from "../lib/ops/use_cases/cleanup_logs.ts";

export const logsApiRoutes = new Hono<AppEnv>()
  .use(requireUser("api", ["Admin"], LOG_MESSAGES.notAllowed))
  .get(
    "/",
    async (c) => c.json({ success: true, data: await listLogsPage(c.var.deps, c.var.actor, c.req.query()) }),
  )
  .post("/cleanup", async (c) => {
    const { deleted, message } = await cleanupLogs(c.var.deps, c.var.actor);
    return c.json({ success: true, message, data: { deleted } });
  })
  .delete("/:id", async (c) => {
    const message = await deleteLogEntry(c.var.deps, c.var.actor, idParam(c, "id", LOG_MESSAGES.notFound));
    return c.json({ success: true, message });
  });
