// A customer's pages, mounted at /dashboard/client: 'Mes devis' (/devis) and 'Vos règlements de devis'
// (/reglements). Guard: a customer. The use cases check the role again and RLS a third time (a
// customer reads only the deals linked to them and their payments).
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { customerDeals, customerPayments } from "../lib/deals/use_cases/customer_deals.ts";
import { renderDashboardPage } from "../components/layout/render.tsx";
import { CustomerDealsPage, CustomerPaymentsPage } from "../components/customer/pages.tsx";

export const customerPageRoutes = new Hono<AppEnv>()
  .use(requireUser("page", ["Customer"]))
  .get("/devis", async (c) => {
    const list = await customerDeals(c.var.deps, c.var.actor, c.req.query());
    return renderDashboardPage(c, "Mes devis", <CustomerDealsPage list={list} />);
  })
  .get("/reglements", async (c) => {
    const payments = await customerPayments(c.var.deps, c.var.actor);
    return renderDashboardPage(c, "Vos règlements de devis", <CustomerPaymentsPage payments={payments} />);
  });
