// The admin deals screen and its tabs, mounted at /dashboard/admin/devis. Guard: an admin. The use
// cases check the role again and RLS a third time.
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { listDealsForAdmin } from "../lib/deals/use_cases/list_deals.ts";
import { deviseurScreen, getSetting } from "../lib/deals/use_cases/get_setting.ts";
import type { PricingConfig } from "../lib/deals/pricing.ts";
import { renderDashboardPage } from "../components/layout/render.tsx";
import { AdminDealsListPage } from "../components/deals/list/pages.tsx";
import { listQueryOf, nonEmptyParams, rowFromItem } from "../components/deals/list/rows.ts";
import { AdminPricingPage, AdminSettingsPage } from "../components/deals/settings/pages.tsx";
import { DEVISEUR_KEYS, PRICING_KEY } from "../components/deals/settings/keys.ts";

export const adminDealRoutes = new Hono<AppEnv>()
  .use(requireUser("page", ["Admin"]))
  .get("/", async (c) => {
    // The same use case as GET /api/deal/index: the page is complete without JavaScript.
    const params = nonEmptyParams(c.req.query());
    const result = await listDealsForAdmin(c.var.deps, c.var.actor, params);
    return renderDashboardPage(
      c,
      "Devis",
      <AdminDealsListPage
        rows={result.items.map(rowFromItem)}
        total={result.total}
        query={listQueryOf(params, result)}
      />,
    );
  })
  .get("/parametres", async (c) => {
    const values = await deviseurScreen(c.var.deps, c.var.actor, DEVISEUR_KEYS);
    return renderDashboardPage(c, "Paramètres des devis", <AdminSettingsPage values={values} />);
  })
  .get("/grille-tarifaire", async (c) => {
    const { value } = await getSetting(c.var.deps, c.var.actor, PRICING_KEY);
    return renderDashboardPage(c, "Grille tarifaire", <AdminPricingPage config={value as PricingConfig} />);
  });
