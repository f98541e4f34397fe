// The quote payment page GET /devis/{slug} (spec 000 §2 'Quote payment page'), mounted at /devis; the
// slug is the deal's token. Public like the deal page: a signed-in customer opening it is linked to the
// deal first (routes/deal_show.tsx openDeal); visitors get the login/register dialog. Never cached nor
// indexed.
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { renderSitePage } from "../components/layout/render.tsx";
import { QUOTE_PAYMENT_TITLE, QuotePaymentPage } from "../components/customer/QuotePaymentPage.tsx";
import { dealShowView } from "../components/deals/show/view.ts";
import { openDeal, renderNotAvailable } from "./deal_show.tsx";

export const quotePaymentRoutes = new Hono<AppEnv>()
  .use(async (c, next) => {
    c.header("Cache-Control", "no-store");
    c.header("X-Robots-Tag", "noindex, nofollow");
    await next();
  })
  .get("/:slug", async (c) => {
    const page = await openDeal(c, c.req.param("slug"));
    if (!page) return renderNotAvailable(c);
    return renderSitePage(c, QUOTE_PAYMENT_TITLE, <QuotePaymentPage page={page} view={dealShowView(page)} />);
  });
