// The customer's page of a deal, /deal/show/{token} and /devis/{slug} (spec 000 §2, §4): the quote as
// the customer sees it, read by the system once the token matched a sent quote; a signed-in customer
// opening it is linked to a deal that has no customer yet.
import type { Actor } from "../../actor.ts";
import { transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../db/database.ts";
import { AppError } from "../../errors.ts";
import { companySlug, DEAL_TOKEN } from "../rules.ts";
import { customerCompanyPayload, type DealPayload } from "../payload.ts";
import { type DealRow, findDeal, linkCustomerIfNone, publicCompany } from "../store.ts";
import { type Catalogue, type CatalogueCocktail, EMPTY_CATALOGUE } from "../settings.ts";
import { loadCatalogue } from "../settings_store.ts";
import { readPayload } from "./read_payload.ts";
import { checkToken, customerOf, logLink, proposed, PUBLIC_PAGE, visibleDeal } from "./customer_access.ts";

/** How the viewer relates to the deal behind a token. */
export type Relation = "customer" | "other_customer" | "partner" | "admin" | "other_user" | "anonymous";

export interface CompanyBlock {
  id: string;
  name: string;
  slug: string;
  city: string | null;
  vatExemption: boolean;
  cocktails: Catalogue;
}

/** The partner as the customer sees it (read by the system: a customer cannot read partners' rows or
 * settings), with its catalogue. Null when the deal has no partner. */
export async function companyBlock(tx: Tx, companyId: string | null): Promise<CompanyBlock | null> {
  if (!companyId) return null;
  const [c, cocktails] = await Promise.all([publicCompany(tx, companyId), loadCatalogue(tx, companyId)]);
  if (!c) return null;
  return {
    id: companyId,
    name: c.name,
    slug: companySlug(c.name, companyId),
    city: c.city,
    vatExemption: c.vatExemption,
    cocktails,
  };
}

export interface PublicDeal {
  relation: Relation;
  deal: DealPayload;
  /** The payment amounts in cents, read from the deal itself (the payload speaks the API's euros): what
   * the payment rules take (components/deals/show/view.ts payableOf). */
  cents: { totalTTC: number; depositAmount: number | null; totalAmountPaid: number | null };
  company: CompanyBlock | null;
  /** The cocktails the customer chooses from (by the deal's list type). */
  proposedCocktails: CatalogueCocktail[];
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

async function readPublicDeal(deps: Deps, tx: Tx, actor: Actor, deal: DealRow): Promise<PublicDeal> {
  const relation = relationOf(actor, deal);
  // Independent reads, sent together (pipelined on PostgreSQL: one round trip instead of several).
  // The payload's partner is the customer's block (spec 000 §3), never the back office's card.
  const [company, payload] = await Promise.all([
    companyBlock(tx, deal.companyId),
    readPayload(deps, tx, "Customer", deal.id, { deal, company: null }),
  ]);
  const catalogue: Catalogue = company?.cocktails ?? EMPTY_CATALOGUE;
  if (company) payload.company = customerCompanyPayload(company, payload, catalogue);
  // Only the deal's customer (and admins) read the contact and account details on this page.
  if (relation !== "customer" && relation !== "admin") {
    Object.assign(payload, { email: null, phone: null, customer: null });
    delete payload.properties.adresse_precise;
  }
  return {
    relation,
    deal: payload,
    cents: {
      totalTTC: deal.totals.totalTTC ?? 0,
      depositAmount: deal.depositAmount,
      totalAmountPaid: deal.totalAmountPaid,
    },
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
  if (!DEAL_TOKEN.test(token)) return null;
  const customer = customerOf(actor);
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
