// The public partner page GET /bar/{slug}, mounted at /bar: a partner's public card (name, city,
// cocktail catalogue). Public, no JavaScript, cached like the other public pages; an unknown slug is a
// 404 with a French message.
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { cachePublicPage } from "../lib/http/page_cache.ts";
import { partnerProfile } from "../lib/partners/profile_actions.ts";
import { renderSitePage } from "../components/layout/render.tsx";
import { PartnerPublicPage } from "../components/deals/show/PartnerPublicPage.tsx";

export const partnerPublicRoutes = new Hono<AppEnv>()
  .use("/:slug", cachePublicPage())
  .get("/:slug", async (c) => {
    const profile = await partnerProfile(c.var.deps, c.req.param("slug"));
    return renderSitePage(c, profile.name, <PartnerPublicPage profile={profile} />);
  });
