// What the photo gallery's use cases share (spec 001 §2.3, §4 'Photo reorder', §7): admins and partners
// change the photos (which deals a partner may touch is RLS's decision, another partner's deal is not
// found; customers see the photos but never change them), never a partner while the deal is locked;
// each answers the photos' URLs in their order.
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../db/database.ts";
import { AppError } from "../../errors.ts";
import { dealPhotoPath } from "../../storage/storage.ts";
import { DEAL_MESSAGES } from "../rules.ts";
import { type DealRow, findDeal } from "../store.ts";
import type { PhotoRow } from "../photo_store.ts";
import type { PhotoPayload } from "../payload.ts";

export interface PhotosResult {
  /** The photos' URLs in their order (the spec's `photos`). */
  photos: string[];
  photoItems: PhotoPayload[];
}

/** The deal, locked for the transaction; a partner may not change the photos of a locked deal. */
export async function editableDeal(tx: Tx, role: "Admin" | "Company", id: number): Promise<DealRow> {
  const deal = await findDeal(tx, id, { lock: true });
  if (role === "Company" && deal.adminSettings.disableQuoteEdits === true) {
    throw new AppError("conflict", DEAL_MESSAGES.locked);
  }
  return deal;
}

export function gallery(deps: Deps, dealId: number, rows: PhotoRow[]): PhotosResult {
  const photoItems = rows.map((p) => ({
    id: p.id,
    url: deps.storage.publicUrl(dealPhotoPath(dealId, p.fileName)),
    thumbUrl: deps.storage.publicUrl(dealPhotoPath(dealId, p.fileName, true)),
  }));
  return { photos: photoItems.map((p) => p.url), photoItems };
}
