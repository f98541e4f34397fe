// 'Gestion des emails programmés (Cron)', mounted at /dashboard/admin/cron. Guard: an admin; the use
// case checks again and RLS a third time.
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { cronStatus } from "../lib/mail/use_cases/cron.ts";
import { CRON_MESSAGES } from "../lib/mail/rules.ts";
import { renderDashboardPage } from "../components/layout/render.tsx";
import { CronPage } from "../components/mail/pages.tsx";

export const adminCronRoutes = new Hono<AppEnv>()
  .use(requireUser("page", ["Admin"]))
  .get("/", async (c) => {
    const data = await cronStatus(c.var.deps, c.var.actor);
    return renderDashboardPage(c, CRON_MESSAGES.title, <CronPage {...data} />);
  });
