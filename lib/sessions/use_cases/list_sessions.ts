// GET /sessions: the published sessions, with their next dates and the price of a place from.
import { type Actor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { unitPrice } from "../rules.ts";
import { listCatalogue } from "../store.ts";

export interface CatalogueEntry {
  slug: string;
  title: string;
  city: string;
  description: string;
  photo: string | null;
  /** Unix seconds of the next three open dates. */
  nextDates: number[];
  /** Cents; null when no date is open. */
  priceFrom: number | null;
}

export async function listSessions(deps: Deps, actor: Actor): Promise<CatalogueEntry[]> {
  const rows = await transactionAs(deps.db, actor, (tx) => listCatalogue(tx));
  return rows.filter((row) => row.published).map((row) => ({
    slug: row.slug,
    title: row.title,
    city: row.city,
    description: row.description,
    photo: row.photos[0] ?? null,
    nextDates: row.nextDates,
    priceFrom: row.priceFrom ? unitPrice(row.priceFrom) : null,
  }));
}
