// The customer's reads of their deals: one deal by its token (GET /api/customer/deal/get/{token}),
// 'Mes devis' (GET /api/customer/deal/index) and 'Vos règlements de devis' (GET
// /api/customer/quotes-orders). RLS: their own only.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { centsToEuros } from "../../money.ts";
import { DEAL_MESSAGES, VISIBLE_STATUSES } from "../rules.ts";
import { customerCompanyPayload, type DealPayload } from "../payload.ts";
import { customerPaymentRows, dealIdByToken, listVisibleDeals, paidKindsByDeal } from "../store.ts";
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

/** GET /api/customer/deal/index ('Mes devis' of a customer). */
export async function customerDeals(deps: Deps, actor: Actor) {
  const customer = requireRole(actor, "Customer");
  const { rows, paid } = await transactionAs(deps.db, customer, async (tx) => ({
    rows: await listVisibleDeals(tx),
    // The kinds of payment each deal received: its invoices menu (one invoice per kind).
    paid: await paidKindsByDeal(tx),
  }));
  const kindsOf = new Map(paid.map((p) => [Number(p.dealId), p.kinds]));
  return rows.map((d) => ({
    id: d.id,
    token: d.token,
    name: d.name,
    status: d.status,
    visible: VISIBLE_STATUSES.includes(d.status),
    createdAt: Math.floor(d.createdAt.getTime() / 1000),
    serviceDate: d.serviceDate,
    companyName: d.companyName,
    amountHT: centsToEuros(d.totalHt),
    paidKinds: kindsOf.get(d.id) ?? [],
    // The quote page's proforma rule (lib/billing/links.ts proformaStages) needs these two.
    showProforma: d.showProforma,
    depositOffered: d.depositOffered,
  }));
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
