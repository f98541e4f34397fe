// A partner's pages ('Mes devis', 'Ma grille tarifaire', 'Mes cocktails'), mounted at
// /dashboard/partenaire. Guard: a partner. The use cases check the role again and RLS a third time.
import { Hono } from "hono";
import { type AppEnv, currentUser } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { listOwnDeals } from "../lib/deals/actions.ts";
import { getCompanySetting, getSetting } from "../lib/deals/settings_actions.ts";
import type { Catalogue } from "../lib/deals/settings_actions.ts";
import type { PricingConfig } from "../lib/deals/pricing.ts";
import { renderDashboardPage } from "../components/layout/render.tsx";
import { PartnerDealsPage } from "../components/deals/list/pages.tsx";
import { listRow } from "../components/deals/list/rows.ts";
import { PartnerCocktailsPage, PartnerPricingPage } from "../components/deals/settings/pages.tsx";
import { PRICING_KEY } from "../components/deals/settings/keys.ts";

const EMPTY_CATALOGUE: Catalogue = { signature: [], classic: [], mocktail: [] };

export const partnerPageRoutes = new Hono<AppEnv>()
  .use(requireUser("page", ["Company"]))
  .get("/devis", async (c) => {
    const deals = await listOwnDeals(c.var.deps, c.var.actor);
    return renderDashboardPage(c, "Mes devis", <PartnerDealsPage rows={deals.map(listRow)} />);
  })
  .get("/grille-tarifaire", async (c) => {
    const { deps, actor } = c.var;
    const userId = currentUser(c).user.id;
    // The partner's own grid, or the default grid it starts from.
    const own = await getCompanySetting(deps, actor, PRICING_KEY, userId);
    const config = (own ?? await getSetting(deps, actor, PRICING_KEY)).value as PricingConfig;
    return renderDashboardPage(
      c,
      "Ma grille tarifaire",
      <PartnerPricingPage config={config} userId={userId} own={own !== null} />,
    );
  })
  .get("/cocktails", async (c) => {
    const userId = currentUser(c).user.id;
    const stored = await getCompanySetting(c.var.deps, c.var.actor, "cocktails", userId);
    const catalogue = { ...EMPTY_CATALOGUE, ...(stored?.value as Partial<Catalogue> | undefined) };
    return renderDashboardPage(c, "Mes cocktails", <PartnerCocktailsPage userId={userId} catalogue={catalogue} />);
  });
