// Use cases of the customer's side of a deal (spec 000 §2, §4, §6, §7): the public page's data by
// token, linking a signed-in customer to the deal, their list of quotes and payments, choosing
// cocktails. The token is a shared secret: it shows the quote, but only the deal's own customer may
// pay, download, choose or refuse — a forwarded link never hands the deal to its reader.
import { type Actor, systemActor, transactionAs, type UserActor } from "../actor.ts";
import type { Deps } from "../deps.ts";
import type { Tx } from "../db/database.ts";
import { AppError } from "../errors.ts";
import { parseInput } from "../validation.ts";
import { z } from "zod";
import {
  type CocktailListType,
  CUSTOMER_MESSAGES,
  DEAL_MESSAGES,
  type DealStatus,
  REFUSED_STATUSES,
} from "./rules.ts";
import { type DealPayload } from "./payload.ts";
import {
  type DealRow,
  findDeal,
  findDealByToken,
  linkCustomerIfNone,
  listVisibleDeals,
  nameAction,
  writeDeal,
} from "./store.ts";
import { readPayload, refuseDeal, type UpdateResult } from "./actions.ts";
import {
  type Catalogue,
  type CatalogueCocktail,
  EMPTY_CATALOGUE,
  loadCatalogue,
} from "./settings_actions.ts";
import { centsToEuros } from "../money.ts";

const PUBLIC_PAGE = systemActor("intake");

/** Statuses whose quote the customer's page shows: once a partner has sent it. */
export const VISIBLE_STATUSES: DealStatus[] = [
  "send",
  "edited",
  "accepted",
  "pay_partial",
  "pay_total",
  "win",
  "refused",
  "refused_client",
  "refused_partner",
];

const TOKEN = /^[a-f0-9]{32,128}$/;

function checkToken(token: string): string {
  if (!TOKEN.test(token)) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  return token;
}

/** How the viewer relates to the deal behind a token. */
export type Relation = "customer" | "other_customer" | "partner" | "admin" | "other_user" | "anonymous";

export interface CompanyBlock {
  name: string;
  slug: string;
  city: string | null;
  vatExemption: boolean;
  cocktails: Catalogue;
}

export interface PublicDeal {
  relation: Relation;
  deal: DealPayload;
  company: CompanyBlock | null;
  /** The cocktails the customer chooses from (by the deal's list type). */
  proposedCocktails: CatalogueCocktail[];
}

export function companySlug(name: string, id: string): string {
  const base = name.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `${base || "partenaire"}-${id.slice(0, 8)}`;
}

function proposed(
  listType: CocktailListType | null,
  catalogue: Catalogue,
  custom: { id: string; name: string; description: string }[],
) {
  if (listType === "creation") return custom.map((c) => ({ ...c, photo: "" }));
  return listType ? catalogue[listType] : [];
}

function relationOf(
  actor: Actor,
  deal: { customerId: string | null; companyId: string | null },
): Relation {
  if (actor.kind !== "user") return "anonymous";
  if (actor.user.type === "Admin") return "admin";
  if (actor.user.type === "Company") return deal.companyId === actor.user.id ? "partner" : "other_user";
  if (deal.customerId === actor.user.id) return "customer";
  return deal.customerId ? "other_customer" : "other_user";
}

/** The data of /deal/show/{token}: the quote as the customer sees it (the customer's own view, never a
 * partner's or an admin's details), read by the system once the token matched a sent quote. */
export async function publicDeal(deps: Deps, actor: Actor, token: string): Promise<PublicDeal> {
  checkToken(token);
  return await transactionAs(deps.db, PUBLIC_PAGE, async (tx) => {
    return await readPublicDeal(deps, tx, actor, await visibleDeal(tx, token));
  });
}

/** The deal of a token, if it is a sent quote (start, new and pending are not shown). */
async function visibleDeal(tx: Tx, token: string): Promise<DealRow> {
  const deal = await findDealByToken(tx, token);
  if (!deal || !VISIBLE_STATUSES.includes(deal.status)) {
    throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  }
  return deal;
}

async function readPublicDeal(deps: Deps, tx: Tx, actor: Actor, deal: DealRow): Promise<PublicDeal> {
  const relation = relationOf(actor, deal);
  let company: CompanyBlock | null = null;
  let catalogue: Catalogue = EMPTY_CATALOGUE;
  if (deal.companyId) {
    const [c] = await tx<{ name: string; city: string | null; vatExemption: boolean }>`
      select coalesce(name, trim(firstname || ' ' || lastname)) as name, city, vat_exemption as "vatExemption"
      from public.users where id = ${deal.companyId}`;
    catalogue = await loadCatalogue(tx, deal.companyId);
    if (c) {
      company = {
        name: c.name,
        slug: companySlug(c.name, deal.companyId),
        city: c.city,
        vatExemption: c.vatExemption,
        cocktails: catalogue,
      };
    }
  }
  // The payload's partner card (with its email) stays empty on this public page: the block above
  // carries what the page shows.
  const payload = await readPayload(deps, tx, "Customer", deal.id, { deal, company: null });
  // Only the deal's customer (and admins) read the contact and account details on this page.
  if (relation !== "customer" && relation !== "admin") {
    Object.assign(payload, { email: null, phone: null, customer: null });
    delete payload.properties.adresse_precise;
  }
  return {
    relation,
    deal: payload,
    company,
    proposedCocktails: proposed(
      payload.settings.cocktailListType,
      catalogue,
      payload.settings.customCocktails,
    ),
  };
}

/** GET /deal/show/{token} and /devis/{slug}: one transaction that links a signed-in customer to a deal
 * that has no customer yet (a deal linked to someone else stays theirs and is shown read-only), then
 * reads the page's data. Null when no sent quote has this token. Readers never lock the deal: the link
 * is a conditional update, made once. */
export async function openDealPage(deps: Deps, actor: Actor, token: string): Promise<PublicDeal | null> {
  if (!TOKEN.test(token)) return null;
  const customer = actor.kind === "user" && actor.user.type === "Customer" ? actor : null;
  let linkedNow: number | null = null;
  try {
    const page = await transactionAs(deps.db, PUBLIC_PAGE, async (tx) => {
      let deal = await visibleDeal(tx, token);
      if (customer && deal.customerId === null) {
        if (await linkCustomerIfNone(tx, deal.id, customer.user.id)) {
          linkedNow = deal.id;
          deal = { ...deal, customerId: customer.user.id };
        } else {
          deal = await findDeal(tx, deal.id); // linked by someone else meanwhile
        }
      }
      return await readPublicDeal(deps, tx, actor, deal);
    });
    if (linkedNow !== null && customer) await logLink(deps, linkedNow, customer);
    return page;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}

/** PATCH /api/customer/deal/link/{token}: a signed-in customer opening the page becomes the deal's
 * customer when it has none yet; a deal linked to someone else is never handed over. */
export async function linkDeal(deps: Deps, actor: Actor, token: string): Promise<{ linked: boolean }> {
  checkToken(token);
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  if (actor.user.type !== "Customer") {
    throw new AppError("forbidden", "Seul un compte client peut être rattaché à un devis.");
  }
  const customer: UserActor = actor;
  const result = await transactionAs(
    deps.db,
    PUBLIC_PAGE,
    (tx) => linkInTransaction(tx, customer, token),
  );
  if (result.changed) await logLink(deps, result.id, customer);
  return { linked: true };
}

/** Links the deal of `token` to `customer` when it has none; a deal of another customer is refused
 * (409). */
async function linkInTransaction(
  tx: Tx,
  customer: UserActor,
  token: string,
): Promise<{ changed: boolean; id: number }> {
  const deal = await visibleDeal(tx, token);
  if (deal.customerId === null && await linkCustomerIfNone(tx, deal.id, customer.user.id)) {
    return { changed: true, id: deal.id };
  }
  const current = deal.customerId ?? (await findDeal(tx, deal.id)).customerId;
  if (current === customer.user.id) return { changed: false, id: deal.id };
  throw new AppError("conflict", CUSTOMER_MESSAGES.linkedElsewhere);
}

async function logLink(deps: Deps, dealId: number, customer: UserActor) {
  await deps.logger.info("deals", "Devis rattaché à un compte client", { dealId, userId: customer.user.id });
}

function requireCustomer(actor: Actor): UserActor {
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  if (actor.user.type !== "Customer") throw new AppError("forbidden");
  return actor;
}

/** GET /api/customer/deal/get/{token}: the deal as its customer sees it (RLS: their own only). */
export async function customerDeal(deps: Deps, actor: Actor, token: string): Promise<DealPayload> {
  const customer = requireCustomer(actor);
  checkToken(token);
  return await transactionAs(deps.db, customer, async (tx) => {
    const [row] = await tx<{ id: number }>`select id from public.deals where token = ${token}`;
    if (!row) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
    return await readPayload(deps, tx, "Customer", row.id);
  });
}

/** GET /api/customer/deal/index ('Mes devis' of a customer). */
export async function customerDeals(deps: Deps, actor: Actor) {
  const customer = requireCustomer(actor);
  const { rows, paid } = await transactionAs(deps.db, customer, async (tx) => ({
    rows: await listVisibleDeals(tx),
    // The kinds of payment each deal received: its invoices menu (one invoice per kind).
    paid: await tx<{ dealId: number; kinds: string[] }>`
      select deal_id as "dealId", array_agg(distinct kind order by kind) as kinds
      from public.deal_payments group by deal_id`,
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
  }));
}

/** GET /api/customer/quotes-orders ('Vos règlements de devis'): one row per payment. The quote's slug
 * is its token (/devis/{token}). */
export async function customerPayments(deps: Deps, actor: Actor) {
  const customer = requireCustomer(actor);
  const rows = await transactionAs(
    deps.db,
    customer,
    (tx) =>
      tx<
        {
          id: string;
          token: string;
          name: string;
          amount: number;
          kind: string;
          paidAt: Date;
          invoiceId: string | null;
        }
      >`
      select p.id, d.token, d.name, p.amount, p.kind, p.paid_at as "paidAt",
        (select i.id from public.invoices i where i.payment_id = p.id and i.series = 'FA' limit 1) as "invoiceId"
      from public.deal_payments p join public.deals d on d.id = p.deal_id
      order by p.paid_at desc`,
  );
  return rows.map((p) => ({
    id: p.id,
    quote: { slug: p.token, title: p.name },
    amount: centsToEuros(p.amount),
    type: p.kind,
    createdAt: Math.floor(p.paidAt.getTime() / 1000),
    invoiceId: p.invoiceId,
  }));
}

const choicesSchema = z.object({
  choices: z.object({ cocktails: z.array(z.string().max(64)).max(50) }),
});

/** PATCH /api/customer/deal/save/choices/{token}: capped at the authorised number, only cocktails the
 * quote proposes (mocktails only when the menu is alcohol-free: the list type decides). */
export async function saveChoices(
  deps: Deps,
  actor: Actor,
  token: string,
  body: unknown,
): Promise<{ cocktails: string[] }> {
  const customer = requireCustomer(actor);
  checkToken(token);
  const { choices } = parseInput(choicesSchema, body, DEAL_MESSAGES.invalid);
  const unique = [...new Set(choices.cocktails)];
  const [deal] = await transactionAs(
    deps.db,
    customer,
    (tx) =>
      tx<{ id: number; status: DealStatus; companyId: string | null; settings: Record<string, unknown> }>`
      select id, status, company_id as "companyId", settings from public.deals where token = ${token}`,
  );
  if (!deal) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  if (
    !VISIBLE_STATUSES.includes(deal.status) || REFUSED_STATUSES.includes(deal.status) || deal.status === "win"
  ) {
    throw new AppError("conflict", CUSTOMER_MESSAGES.choicesClosed);
  }
  const listType = (deal.settings.cocktailListType ?? null) as CocktailListType | null;
  const authorised = Number(deal.settings.nbCocktailsAuthorized) || 3;
  if (unique.length > authorised) {
    throw new AppError("validation", CUSTOMER_MESSAGES.tooManyCocktails(authorised));
  }
  // The partner's catalogue is not the customer's to read: the system reads the proposed ids.
  const allowed = await transactionAs(deps.db, PUBLIC_PAGE, async (tx) => {
    const catalogue = deal.companyId ? await loadCatalogue(tx, deal.companyId) : EMPTY_CATALOGUE;
    const custom = (deal.settings.customCocktails ?? []) as {
      id: string;
      name: string;
      description: string;
    }[];
    return new Set(proposed(listType, catalogue, custom).map((c) => c.id));
  });
  if (unique.some((id) => !allowed.has(id))) {
    throw new AppError("validation", CUSTOMER_MESSAGES.unknownCocktail);
  }
  await transactionAs(deps.db, customer, async (tx) => {
    await nameAction(tx, "choose_cocktails");
    await writeDeal(tx, deal.id, { choices: { cocktails: unique } });
  });
  return { cocktails: unique };
}

/** PATCH /api/customer/deal/refuse/{token} with refusalReason (spec 000 §4): the deal's customer only. */
export async function refuseAsCustomer(
  deps: Deps,
  actor: Actor,
  token: string,
  body: Record<string, unknown>,
): Promise<UpdateResult> {
  const customer = requireCustomer(actor);
  checkToken(token);
  const [deal] = await transactionAs(
    deps.db,
    customer,
    (tx) => tx<{ id: number }>`select id from public.deals where token = ${token}`,
  );
  if (!deal) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  return await refuseDeal(deps, customer, deal.id, { reason: body.refusalReason ?? body.reason });
}
