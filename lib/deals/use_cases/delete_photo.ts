// DELETE /api/deal/photos/{id}/{photoId}, by id or by file name (the URL's last segment), for admins and
// the deal's partner; the files are removed from storage after the row is deleted.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { dealPhotoPath } from "../../storage/storage.ts";
import { deletePhotoRow, listPhotos } from "../photo_store.ts";
import { markEdited } from "../store.ts";
import { parsePhotoRef, PHOTO_MESSAGES } from "../photos.ts";
import { DEAL_MESSAGES } from "../rules.ts";
import { editableDeal, gallery, type PhotosResult } from "./photo_gallery.ts";

export async function deletePhoto(
  deps: Deps,
  actor: Actor,
  id: number,
  photo: string,
): Promise<PhotosResult> {
  const user = requireRole(actor, ["Admin", "Company"], { message: DEAL_MESSAGES.notAllowed });
  const ref = parsePhotoRef(photo);
  if (!ref) throw new AppError("not_found", PHOTO_MESSAGES.notFound);
  const { fileName, rows } = await transactionAs(deps.db, user, async (tx) => {
    await editableDeal(tx, user.user.type, id);
    const deleted = await deletePhotoRow(tx, id, ref);
    if (deleted === null) throw new AppError("not_found", PHOTO_MESSAGES.notFound);
    await markEdited(tx, id);
    return { fileName: deleted, rows: await listPhotos(tx, id) };
  });
  try {
    await deps.storage.remove([dealPhotoPath(id, fileName), dealPhotoPath(id, fileName, true)]);
  } catch (error) {
    // The row is gone: the photo is no longer shown anywhere; the file is only left behind.
    await deps.logger.warning("deals", "Fichier de photo non supprimé du stockage", {
      dealId: id,
      fileName,
      error: String(error),
    });
  }
  await deps.logger.info("deals", "Photo supprimée", { dealId: id, userId: user.user.id, fileName });
  return gallery(deps, id, rows);
}
