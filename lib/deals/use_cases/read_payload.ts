// The payload of a deal for a viewer, read in the use case's transaction (RLS and masking apply):
// the building block of every use case that answers with a deal.
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../db/database.ts";
import { dealPhotoPath } from "../../storage/storage.ts";
import { type CompanyCard, companyCard, contactFor, type DealRow, findDeal } from "../store.ts";
import { listPhotos } from "../photo_store.ts";
import { type DealPayload, dealPayload, type Viewer } from "../payload.ts";

/** The payload of deal `id` for `viewer`; `preloaded`: the deal row and company card the caller has
 * already read (no second read). */
export async function readPayload(
  deps: Deps,
  tx: Tx,
  viewer: Viewer,
  id: number,
  preloaded?: { deal: DealRow; company: CompanyCard | null },
): Promise<DealPayload> {
  const deal = preloaded?.deal ?? await findDeal(tx, id);
  // Independent reads, sent together (pipelined on PostgreSQL: one round trip).
  const [contact, company, photos] = await Promise.all([
    contactFor(tx, viewer, id),
    preloaded ? preloaded.company : companyCard(tx, deal.companyId),
    listPhotos(tx, id),
  ]);
  return dealPayload(
    viewer,
    deal,
    contact,
    company,
    photos,
    (dealId, file, thumb) => deps.storage.publicUrl(dealPhotoPath(dealId, file, thumb)),
  );
}
