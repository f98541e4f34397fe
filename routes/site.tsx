// Public pages: home, cities, city pages, legal pages, and the city list API. No guard.
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { cachePublicPage } from "../lib/http/page_cache.ts";
import { getCityPage, listCities } from "../lib/site/actions.ts";
import { SITE_NAME } from "../lib/site/brand.ts";
import { CGU_SECTIONS } from "../lib/site/legal.ts";
import { renderSitePage } from "../components/layout/render.tsx";
import { CitiesPage, CityPage, HomePage, LegalPage } from "../components/site/pages.tsx";
import { PrivacyPage } from "../components/site/privacy.tsx";

export const siteRoutes = new Hono<AppEnv>()
  .get("/", cachePublicPage(), async (c) => {
    const cities = await listCities(c.var.deps);
    return renderSitePage(c, SITE_NAME, <HomePage cities={cities} loggedIn={c.var.actor.kind === "user"} />);
  })
  .get("/villes", cachePublicPage(), async (c) => {
    return renderSitePage(c, "Nos villes", <CitiesPage cities={await listCities(c.var.deps)} />);
  })
  .get("/ville/:slug", cachePublicPage(), async (c) => {
    const city = await getCityPage(c.var.deps, c.req.param("slug"));
    return renderSitePage(c, `Bar à cocktails à ${city.name}`, <CityPage city={city} />);
  })
  .get("/cgu-cgv", cachePublicPage(), (c) =>
    renderSitePage(
      c,
      "Conditions générales",
      <LegalPage title="Conditions générales d'utilisation et de vente" sections={CGU_SECTIONS} />,
    ))
  .get("/politique-de-confidentialite", cachePublicPage(), (c) =>
    renderSitePage(
      c,
      "Politique de confidentialité",
      <PrivacyPage contact={c.var.deps.config.supportEmail} />,
    ))
  .get("/api/city/index", async (c) => {
    c.header("Cache-Control", "public, max-age=60");
    return c.json(await listCities(c.var.deps));
  });
