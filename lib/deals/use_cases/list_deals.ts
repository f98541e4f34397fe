// The lists of deals: every deal for admins (searched, paged, sorted), and 'Mes devis' of a partner or
// a customer (what RLS shows them). Items in cents; the API turns them into euros at its edge
// (lib/deals/payload.ts dealListPayload).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { parseInput } from "../../validation.ts";
import { DEAL_MESSAGES } from "../rules.ts";
import {
  type AdminListQuery,
  countVisibleDeals,
  type DealListItem,
  listAllDeals,
  listVisibleDeals,
} from "../store.ts";
import {
  listQuerySchema,
  OWN_LIST_PAGE_SIZE,
  ownListQuerySchema,
  PAGE_INVALID,
  STATUS_INVALID,
  statusParam,
} from "../input.ts";
import { z } from "zod";
import type { DealStatus } from "../rules.ts";

const NOT_ALLOWED = { message: DEAL_MESSAGES.notAllowed };

export async function listDealsForAdmin(
  deps: Deps,
  actor: Actor,
  query: Record<string, string | undefined>,
): Promise<{ items: DealListItem[]; total: number; page: number; perPage: number }> {
  const admin = requireRole(actor, "Admin", NOT_ALLOWED);
  const parsed = parseInput(listQuerySchema, query, "La recherche est invalide.");
  const q: AdminListQuery = {
    search: parsed.search,
    from: parsed.from ?? null,
    to: parsed.to ?? null,
    dateField: parsed.dateField ?? "serviceDate",
    status: parsed.status ?? null,
    page: parsed.page ?? 1,
    perPage: parsed.perPage ?? 25,
    sort: parsed.sort ?? "createdAt",
    direction: parsed.direction ?? "desc",
  };
  const result = await transactionAs(deps.db, admin, (tx) => listAllDeals(tx, q));
  return {
    items: result.items,
    total: result.total,
    page: q.page,
    perPage: q.perPage,
  };
}

/** One page of 'Mes devis' (25 deals, newest first) and the total, for whoever RLS shows them to. */
export interface OwnDealsPage {
  items: DealListItem[];
  total: number;
  page: number;
  perPage: number;
  /** The status filter applied, if any (a partner's '?status='). */
  statusFilter?: DealStatus;
}

/** The page number of a 'Mes devis' query string ('?page=2'), 1 by default. */
export function ownListPage(query: Record<string, string | undefined>): number {
  return parseInput(ownListQuerySchema, { page: query.page }, PAGE_INVALID).page ?? 1;
}

/** The status filter of a partner's 'Mes devis' ('?status=send'; empty: every status). */
export function ownListStatus(query: Record<string, string | undefined>): DealStatus | undefined {
  if (!query.status) return undefined;
  return parseInput(z.object({ status: statusParam }), { status: query.status }, STATUS_INVALID).status;
}

/** One page of the deals of `owner` that RLS shows `user`, with their count. */
export function ownDealsPage(
  deps: Deps,
  user: Actor,
  owner: { column: "company_id" | "customer_id"; id: string },
  page: number,
  statuses?: readonly DealStatus[],
): Promise<OwnDealsPage> {
  return transactionAs(deps.db, user, async (tx) => ({
    items: await listVisibleDeals(tx, {
      owner,
      statuses,
      limit: OWN_LIST_PAGE_SIZE,
      offset: (page - 1) * OWN_LIST_PAGE_SIZE,
    }),
    total: await countVisibleDeals(tx, { owner, statuses }),
    page,
    perPage: OWN_LIST_PAGE_SIZE,
  }));
}

/** A partner's deals ('Mes devis', spec 001 §2.9: '# Demande'): one page of what RLS shows it.
 * Customers list theirs through customerDeals. */
export async function listOwnDeals(
  deps: Deps,
  actor: Actor,
  query: Record<string, string | undefined> = {},
): Promise<OwnDealsPage> {
  const user = requireRole(actor, "Company", NOT_ALLOWED);
  const status = ownListStatus(query);
  const page = await ownDealsPage(
    deps,
    user,
    { column: "company_id", id: user.user.id },
    ownListPage(query),
    status ? [status] : undefined,
  );
  return status ? { ...page, statusFilter: status } : page;
}
