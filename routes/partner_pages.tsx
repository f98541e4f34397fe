// A partner's pages ('Mes devis', 'Ma grille tarifaire', 'Mes cocktails'), mounted at
// /dashboard/partenaire. Guard: a partner. The use cases check the role again and RLS a third time.
import { Hono } from "hono";
import { type AppEnv, currentUser } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { listOwnDeals } from "../lib/deals/use_cases/list_deals.ts";
import { ownCatalogue, partnerPricingForEdit } from "../lib/deals/use_cases/own_settings.ts";
import { renderDashboardPage } from "../components/layout/render.tsx";
import { PartnerDealsPage } from "../components/deals/list/pages.tsx";
import { rowFromItem } from "../components/deals/list/rows.ts";
import { PartnerCocktailsPage, PartnerPricingPage } from "../components/deals/settings/pages.tsx";

export const partnerPageRoutes = new Hono<AppEnv>()
  .use(requireUser("page", ["Company"]))
  .get("/devis", async (c) => {
    const list = await listOwnDeals(c.var.deps, c.var.actor, c.req.query());
    return renderDashboardPage(
      c,
      "Mes devis",
      <PartnerDealsPage
        rows={list.items.map(rowFromItem)}
        total={list.total}
        page={list.page}
        perPage={list.perPage}
        status={list.statusFilter ?? null}
      />,
    );
  })
  .get("/grille-tarifaire", async (c) => {
    const { config, own } = await partnerPricingForEdit(c.var.deps, c.var.actor);
    return renderDashboardPage(
      c,
      "Ma grille tarifaire",
      <PartnerPricingPage config={config} userId={currentUser(c).user.id} own={own} />,
    );
  })
  .get("/cocktails", async (c) => {
    const catalogue = await ownCatalogue(c.var.deps, c.var.actor);
    return renderDashboardPage(
      c,
      "Mes cocktails",
      <PartnerCocktailsPage userId={currentUser(c).user.id} catalogue={catalogue} />,
    );
  });
