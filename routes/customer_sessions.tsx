// A customer's workshop registrations: GET /api/customer/registrations (spec 000 §7) and the page 'Vos
// sessions' (/dashboard/client/sessions); releasing the places of a checkout left unpaid (POST
// /api/customer/registration/{id}/release, and the page's form POST /dashboard/client/sessions/{id}/liberer).
// Guard: a customer; the use case checks again, RLS a third time.
import { Hono } from "hono";
import { type AppEnv, success } from "../lib/http/context.ts";
import { addFlash } from "../lib/http/cookies.ts";
import { AppError } from "../lib/errors.ts";
import { releaseRegistration } from "../lib/orders/use_cases/release_registration.ts";
import { CHECKOUT_MESSAGES } from "../lib/orders/rules.ts";
import { requireUser } from "../lib/http/guards.ts";
import { renderDashboardPage } from "../components/layout/render.tsx";
import { CustomerSessionsPage } from "../components/sessions/CustomerSessionsPage.tsx";
import {
  customerRegistrations,
  registrationPayload,
} from "../lib/sessions/use_cases/customer_registrations.ts";

export const customerRegistrationApiRoutes = new Hono<AppEnv>()
  .use("/registrations", requireUser("api", ["Customer"]))
  .use("/registration/:id/release", requireUser("api", ["Customer"]))
  .get("/registrations", async (c) => {
    const registrations = await customerRegistrations(c.var.deps, c.var.actor);
    return success(c, registrations.map(registrationPayload));
  })
  .post("/registration/:id/release", async (c) => {
    await releaseRegistration(c.var.deps, c.var.actor, c.req.param("id"));
    return success(c, null, CHECKOUT_MESSAGES.released);
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
  })
  // The row's 'Libérer les places' (a form: works without JavaScript), back to the list with a message.
  .post("/:id/liberer", async (c) => {
    try {
      await releaseRegistration(c.var.deps, c.var.actor, c.req.param("id"));
      await addFlash(c, "success", CHECKOUT_MESSAGES.released);
    } catch (error) {
      if (!(error instanceof AppError) || !["not_found", "conflict"].includes(error.code)) throw error;
      await addFlash(c, "error", error.message);
    }
    return c.redirect("/dashboard/client/sessions", 303);
  });
