// POST /api/deal/reorder-photos/{id} {photos: the full ordered list of URLs or ids} (admins and the
// deal's partner): the whole list, every photo once, or 409.
import { z } from "zod";
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { parseInput } from "../../validation.ts";
import { listPhotos, movePhoto, type PhotoRow } from "../photo_store.ts";
import { markEdited } from "../store.ts";
import { parsePhotoRef, PHOTO_MESSAGES, type PhotoRef, PHOTOS_MAX_PER_DEAL } from "../photos.ts";
import { DEAL_MESSAGES } from "../rules.ts";
import { editableDeal, gallery, type PhotosResult } from "./photo_gallery.ts";

const reorderSchema = z.object({
  photos: z.preprocess(
    (v) => (typeof v === "string" ? [v] : v),
    z.array(z.string().max(2000), { error: PHOTO_MESSAGES.orderMismatch }).max(PHOTOS_MAX_PER_DEAL * 2),
  ),
});

function matches(ref: PhotoRef, row: PhotoRow): boolean {
  return "id" in ref ? row.id === ref.id : row.fileName === ref.fileName;
}

export async function reorderPhotos(
  deps: Deps,
  actor: Actor,
  id: number,
  body: unknown,
): Promise<PhotosResult> {
  const user = requireRole(actor, ["Admin", "Company"], { message: DEAL_MESSAGES.notAllowed });
  const { photos } = parseInput(reorderSchema, body, PHOTO_MESSAGES.orderMismatch);
  const refs = photos.map(parsePhotoRef);
  const rows = await transactionAs(deps.db, user, async (tx) => {
    await editableDeal(tx, user.user.type, id);
    const current = await listPhotos(tx, id);
    const ordered = refs.map((ref) => (ref ? current.find((row) => matches(ref, row)) : undefined));
    const complete = ordered.length === current.length && ordered.every(Boolean) &&
      new Set(ordered.map((row) => row!.id)).size === current.length;
    if (!complete) throw new AppError("conflict", PHOTO_MESSAGES.orderMismatch);
    for (const [position, row] of ordered.entries()) {
      if (row!.position !== position) await movePhoto(tx, id, row!.id, position);
    }
    await markEdited(tx, id);
    return await listPhotos(tx, id);
  });
  await deps.logger.info("deals", "Ordre des photos modifié", { dealId: id, userId: user.user.id });
  return gallery(deps, id, rows);
}
