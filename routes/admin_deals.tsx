// The admin deals screen and its tabs, mounted at /dashboard/admin/devis. Guard: an admin.
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";

export const adminDealRoutes = new Hono<AppEnv>()
  .use(requireUser("page", ["Admin"]));
