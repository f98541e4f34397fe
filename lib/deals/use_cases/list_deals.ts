// The lists of deals: every deal for admins (searched, paged, sorted), and 'Mes devis' of a partner or
// a customer (what RLS shows them). Items in cents; the API turns them into euros at its edge
// (lib/deals/payload.ts dealListPayload).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { parseInput } from "../../validation.ts";
import { DEAL_MESSAGES } from "../rules.ts";
import { type AdminListQuery, type DealListItem, listAllDeals, listVisibleDeals } from "../store.ts";
import { listQuerySchema } from "../input.ts";

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

/** A partner's deals ('Mes devis'): what RLS shows it. Customers list theirs through customerDeals. */
export async function listOwnDeals(deps: Deps, actor: Actor): Promise<DealListItem[]> {
  const user = requireRole(actor, "Company", NOT_ALLOWED);
  const items = await transactionAs(deps.db, user, (tx) => listVisibleDeals(tx));
  // The partner's 'Mes devis' shows it under '# Demande' (spec 001 §2.9).
  return items;
}
