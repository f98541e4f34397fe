// The scheduled-email page's API (spec 001 §7), mounted at /api/cron: `success` and `data` as the spec
// answers. Admins only (the guard, the use cases, RLS).
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { cronCleanup, cronStatus } from "../lib/mail/use_cases/cron.ts";

export const cronApiRoutes = new Hono<AppEnv>()
  .use(requireUser("api", ["Admin"]))
  .get("/status", async (c) => c.json({ success: true, data: await cronStatus(c.var.deps, c.var.actor) }))
  .post("/cleanup", async (c) => {
    const { deleted, message } = await cronCleanup(c.var.deps, c.var.actor);
    return c.json({ success: true, message, data: { deleted } });
  });
