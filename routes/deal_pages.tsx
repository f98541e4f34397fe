// The deal detail page (spec 001 §2.1-2.5), mounted at /dashboard/espace-partenaire. Guard: an admin or a partner.
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";

export const dealPageRoutes = new Hono<AppEnv>()
  .use(requireUser("page", ["Admin", "Company"]));
