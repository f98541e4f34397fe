// The customer's reads of their deals: one deal by its token (GET /api/customer/deal/get/{token}),
// 'Mes devis' (GET /api/customer/deal/index) and 'Vos règlements de devis' (GET
// /api/customer/quotes-orders). RLS: their own only.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { centsToEuros } from "../../money.ts";
import { DEAL_MESSAGES, VISIBLE_STATUSES } from "../rules.ts";
import { customerCompanyPayload, type DealPayload } from "../payload.ts";
import { customerPaymentRows, dealIdByToken, type DealListItem } from "../store.ts";
import { ownDealsPage, ownListPage } from "./list_deals.ts";
import type { DealStatus } from "../rules.ts";
import { readPayload } from "./read_payload.ts";
import { checkToken, PUBLIC_PAGE } from "./customer_access.ts";
import { companyBlock } from "./public_deal.ts";

/** GET /api/customer/deal/get/{token}: the deal as its customer sees it (RLS: their own only). */
export async function customerDeal(deps: Deps, actor: Actor, token: string): Promise<DealPayload> {
  const customer = requireRole(actor, "Customer");
  checkToken(token);
  const payload = await transactionAs(deps.db, customer, async (tx) => {
    const id = await dealIdByToken(tx, token);
    if (id === null) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
    return await readPayload(deps, tx, "Customer", id);
  });
  // The partner's block (spec 000 §3): its catalogue is not the customer's to read under RLS, so the
  // system reads it once RLS has shown the deal is theirs.
  if (payload.company) {
    const companyId = payload.company.id;
    const block = await transactionAs(deps.db, PUBLIC_PAGE, (tx) => companyBlock(tx, companyId));
    payload.company = block ? customerCompanyPayload(block, payload, block.cocktails) : null;
  }
  return payload;
}

function customerRow(d: DealListItem) {
  return {
    id: d.id,
    token: d.token,
    name: d.name,
    status: d.status,
    visible: VISIBLE_STATUSES.includes(d.status),
    createdAt: Math.floor(d.createdAt.getTime() / 1000),
    serviceDate: d.serviceDate,
    companyName: d.companyName,
    amountHT: centsToEuros(d.totalHt),
    // The kinds of payment each deal received: its invoices menu (one invoice per kind).
    paidKinds: d.paidKinds,
  };
}

/** GET /api/customer/deal/index and the page 'Mes devis' of a customer: one page (`?page=`, 25 deals,
 * newest first), the total beside it. `statuses`: only those (the landing page's requests in progress). */
export async function customerDeals(
  deps: Deps,
  actor: Actor,
  query: Record<string, string | undefined> = {},
  statuses?: readonly DealStatus[],
) {
  const customer = requireRole(actor, "Customer");
  const page = ownListPage(query);
  const result = await ownDealsPage(
    deps,
    customer,
    { column: "customer_id", id: customer.user.id },
    page,
    statuses,
  );
  return { ...result, items: result.items.map(customerRow) };
}

/** GET /api/customer/quotes-orders ('Vos règlements de devis'): one row per payment. The quote's slug
 * is its token (/devis/{token}). */
export async function customerPayments(deps: Deps, actor: Actor) {
  const customer = requireRole(actor, "Customer");
  const rows = await transactionAs(deps.db, customer, (tx) => customerPaymentRows(tx));
  return rows.map((p) => ({
    id: p.id,
    quote: { slug: p.token, title: p.name },
    amount: centsToEuros(p.amount),
    type: p.kind,
    createdAt: Math.floor(p.paidAt.getTime() / 1000),
    invoiceId: p.invoiceId,
    // What was refunded, and the credit notes that say so (amounts in euros, as the rest of the row).
    refunded: centsToEuros(Number(p.refunded)),
    creditNotes: p.creditNotes.map((n) => ({ id: n.id, amount: centsToEuros(Math.abs(Number(n.amount))) })),
  }));
}
