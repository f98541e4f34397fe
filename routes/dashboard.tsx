// The signed-in area, mounted at /dashboard. Guard: a signed-in user (anonymous visitors are sent to
// /login and brought back afterwards).
import { Hono } from "hono";
import { type AppEnv, currentUser } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { getProfile } from "../lib/accounts/actions.ts";
import { birthYearChoices } from "../lib/accounts/rules.ts";
import { renderDashboardPage } from "../components/layout/render.tsx";
import { PageTitle } from "../components/dashboard/parts.tsx";
import { customerDeals } from "../lib/deals/use_cases/customer_deals.ts";
import { OPEN_STATUSES, OpenRequestsPage } from "../components/customer/pages.tsx";
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
  // A customer's landing page: their requests still in progress (components/customer/pages.tsx).
  .get("/demandes-en-cours", async (c) => {
    const actor = currentUser(c);
    const list = actor.user.type === "Customer"
      ? await customerDeals(c.var.deps, actor, c.req.query(), OPEN_STATUSES)
      : { items: [], total: 0, page: 1, perPage: 25 };
    return renderDashboardPage(c, "Mes demandes de devis en cours", <OpenRequestsPage list={list} />);
  })
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
