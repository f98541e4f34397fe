// The deal detail page (spec 001 §2.1-2.5), mounted at /dashboard/espace-partenaire. Guard: an admin or
// a partner. The use cases check again who may read the deal (RLS: a partner only its own deals, once
// sent to it) and what of the customer a partner may see (partner_deal_contact).
import { Hono } from "hono";
import { type AppEnv, currentUser, idParam } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { dealPage } from "../lib/payments/use_cases/deal_page.ts";
import { DEAL_MESSAGES } from "../lib/deals/rules.ts";
import { renderDashboardPage } from "../components/layout/render.tsx";
import { DealPage } from "../components/deals/detail/DealPage.tsx";
import { type DealViewer, historyEntries } from "../components/deals/detail/types.ts";
import { pageChat } from "../lib/chat/use_cases/page_chat.ts";

const BACK_LINKS: Record<DealViewer, string> = {
  Admin: "/dashboard/admin/devis",
  Company: "/dashboard/partenaire/devis",
};

export const dealPageRoutes = new Hono<AppEnv>()
  .use(requireUser("page", ["Admin", "Company"]))
  .get("/deal/:id", async (c) => {
    const { deps, actor } = c.var;
    const id = idParam(c, "id", DEAL_MESSAGES.notFound);
    const role = currentUser(c).user.type as DealViewer;
    const { deal, history, catalogue, ledger } = await dealPage(deps, actor, id);
    const chat = await pageChat(deps, actor, id, { partnerFlag: deal.adminSettings.showChatForPartner });
    return renderDashboardPage(
      c,
      deal.name || `Devis n°${deal.id}`,
      <DealPage
        deal={deal}
        role={role}
        history={historyEntries(history)}
        catalogue={catalogue}
        backHref={BACK_LINKS[role]}
        ledger={ledger}
        chat={chat}
      />,
    );
  });
