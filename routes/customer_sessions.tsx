// A customer's workshop registrations: GET /api/customer/registrations (spec 000 §7) and the page 'Vos
// sessions' (/dashboard/client/sessions). Guard: a customer; the use case checks again, RLS a third time.
import { Hono } from "hono";
import { type AppEnv, success } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { renderDashboardPage } from "../components/layout/render.tsx";
import { CustomerSessionsPage } from "../components/sessions/CustomerSessionsPage.tsx";
import {
  customerRegistrations,
  registrationPayload,
} from "../lib/sessions/use_cases/customer_registrations.ts";

export const customerRegistrationApiRoutes = new Hono<AppEnv>()
  .use("/registrations", requireUser("api", ["Customer"]))
  .get("/registrations", async (c) => {
    const registrations = await customerRegistrations(c.var.deps, c.var.actor);
    return success(c, registrations.map(registrationPayload));
  });

export const customerSessionPageRoutes = new Hono<AppEnv>()
  .use(requireUser("page", ["Customer"]))
  .get("/", async (c) => {
    const registrations = await customerRegistrations(c.var.deps, c.var.actor);
    const { appUrl, supportEmail } = c.var.deps.config;
    return renderDashboardPage(
      c,
      "Vos sessions",
      <CustomerSessionsPage registrations={registrations} origin={appUrl} supportEmail={supportEmail} />,
    );
  });
