// The customer deal page GET /deal/show/{token} (spec 000 §2 'Customer deal page', §6), mounted at
// /deal. Public: the token is the shared secret of the quote's email. A signed-in customer opening it
// is linked to the deal (openDealPage, one transaction); a deal already linked to another customer stays theirs and is shown
// read-only. The page is never cached nor indexed: it names the customer.
import { Hono } from "hono";
import type { AppEnv, Ctx } from "../lib/http/context.ts";
import { openDealPage, type PublicDeal } from "../lib/deals/use_cases/public_deal.ts";
import { DEAL_MESSAGES } from "../lib/deals/rules.ts";
import { renderSitePage } from "../components/layout/render.tsx";
import { DEAL_PAGE_TITLE, DealShowPage } from "../components/deals/show/DealShowPage.tsx";
import { DealBeingUpdated, DealNotAvailable } from "../components/deals/show/NotAvailable.tsx";
import { quoteBeingUpdated } from "../lib/deals/use_cases/customer_access.ts";
import { dealShowView } from "../components/deals/show/view.ts";
import { takeFlashes } from "../lib/http/cookies.ts";
import { pageChat } from "../lib/chat/use_cases/page_chat.ts";

/** The deal behind `token` as the viewer may see it (a customer linked to it first when it has none),
 * or null when no sent quote has this token. */
export function openDeal(c: Ctx, token: string): Promise<PublicDeal | null> {
  return openDealPage(c.var.deps, c.var.actor, token);
}

export function renderNotAvailable(c: Ctx): Promise<Response> {
  return renderSitePage(c, DEAL_MESSAGES.unavailable, <DealNotAvailable />, 404);
}

export const dealShowRoutes = new Hono<AppEnv>()
  .use(async (c, next) => {
    c.header("Cache-Control", "no-store");
    c.header("X-Robots-Tag", "noindex, nofollow");
    await next();
  })
  .get("/show/:token", async (c) => {
    const page = await openDeal(c, c.req.param("token"));
    if (!page) {
      if (await quoteBeingUpdated(c.var.deps, c.req.param("token"))) {
        return renderSitePage(c, DEAL_MESSAGES.beingUpdated, <DealBeingUpdated />);
      }
      return renderNotAvailable(c);
    }
    // The page shows this session's flash messages itself: a payment's success with its invoice.
    const notices = await takeFlashes(c);
    const backFromBank = !!c.req.query("payment_intent") && !!c.req.query("redirect_status");
    const chat = await pageChat(c.var.deps, c.var.actor, page.deal.id, {
      partnerFlag: page.deal.adminSettings.showChatToPartner,
    });
    return renderSitePage(
      c,
      DEAL_PAGE_TITLE,
      <DealShowPage
        page={page}
        view={dealShowView(page)}
        notices={notices}
        backFromBank={backFromBank}
        chat={chat}
      />,
    );
  });
