// The signed-in area. Anonymous visitors are sent to /login and brought back afterwards.
import type { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { requireSession, withTx } from "../lib/http/context.ts";
import { renderDashboardPage } from "../lib/http/render.tsx";
import { Island } from "../components/Island.tsx";
import DashboardHashLink from "../islands/DashboardHashLink.tsx";
import ProfileForm from "../islands/ProfileForm.tsx";
import { getUser } from "../lib/accounts/users.ts";
import { birthYearChoices } from "../lib/accounts/rules.ts";

function PageTitle({ children }: { children: string }) {
  return <h1 class="mb-6 text-2xl font-bold">{children}</h1>;
}

export function dashboardRoutes(app: Hono<AppEnv>) {
  app.use("/dashboard/*", async (c, next) => {
    if (!c.var.session) return c.redirect(`/login?redirect=${encodeURIComponent(c.req.path)}`, 303);
    await next();
  });
  app.use("/dashboard", async (c, next) => {
    if (!c.var.session) return c.redirect("/login?redirect=%2Fdashboard", 303);
    await next();
  });

  app.get("/dashboard", (c) =>
    renderDashboardPage(
      c,
      "Mon tableau de bord",
      <>
        {/* Spec links of the form /dashboard#/x open the matching page /dashboard/x. */}
        <Island component={DashboardHashLink} props={{}} />
        <PageTitle>Mon tableau de bord</PageTitle>
      </>,
    ));

  app.get("/dashboard/demandes-en-cours", (c) =>
    renderDashboardPage(
      c,
      "Mes demandes de devis en cours",
      <>
        <PageTitle>Mes demandes de devis en cours</PageTitle>
        <p class="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-500">
          Aucune demande de devis en cours pour l'instant.
        </p>
      </>,
    ));

  app.get("/dashboard/profil", async (c) => {
    const session = requireSession(c);
    const user = await withTx(c, (tx) => getUser(tx, session.user.id, session.impersonatorId !== null));
    return renderDashboardPage(
      c,
      "Mon profil",
      <>
        <PageTitle>Mon profil</PageTitle>
        <Island
          component={ProfileForm}
          props={{ user, birthYears: birthYearChoices(new Date().getFullYear()) }}
        />
      </>,
    );
  });
}
