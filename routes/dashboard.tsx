// The signed-in area, mounted at /dashboard. Guard: a signed-in user (anonymous visitors are sent to
// /login and brought back afterwards).
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { getProfile } from "../lib/accounts/actions.ts";
import { birthYearChoices } from "../lib/accounts/rules.ts";
import { renderDashboardPage } from "../components/layout/render.tsx";
import { EmptyState, PageTitle } from "../components/dashboard/parts.tsx";
import { Island } from "../components/Island.tsx";
import DashboardHashLink from "../islands/DashboardHashLink.tsx";
import ProfileForm from "../islands/ProfileForm.tsx";

export const dashboardRoutes = new Hono<AppEnv>()
  .use(requireUser("page"))
  .get("/", (c) =>
    renderDashboardPage(
      c,
      "Mon tableau de bord",
      <>
        {/* Spec links of the form /dashboard#/x open the matching page /dashboard/x. */}
        <Island component={DashboardHashLink} props={{}} />
        <PageTitle>Mon tableau de bord</PageTitle>
      </>,
    ))
  .get("/demandes-en-cours", (c) =>
    renderDashboardPage(
      c,
      "Mes demandes de devis en cours",
      <>
        <PageTitle>Mes demandes de devis en cours</PageTitle>
        <EmptyState>Aucune demande de devis en cours pour l'instant.</EmptyState>
      </>,
    ))
  .get("/profil", async (c) => {
    const user = await getProfile(c.var.deps, c.var.actor);
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
