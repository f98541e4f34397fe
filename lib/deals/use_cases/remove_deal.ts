// DELETE /api/deal/{id} (admins): never a paid deal, nor one whose card payment was begun (it may still
// succeed and must find its deal); the photos' files are removed after the commit.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { dealPhotoPath } from "../../storage/storage.ts";
import { DEAL_MESSAGES } from "../rules.ts";
import { deleteDeal, findDeal, hasPaymentIntent } from "../store.ts";
import { listPhotos } from "../photo_store.ts";

const PAID_DEAL_UNDELETABLE = "Un devis payé ne peut pas être supprimé.";
const CARD_PAYMENT_BEGUN =
  "Un paiement par carte a été commencé pour ce devis : il ne peut pas être supprimé. Refusez-le plutôt.";

export async function removeDeal(deps: Deps, actor: Actor, id: number): Promise<void> {
  const admin = requireRole(actor, "Admin", { message: DEAL_MESSAGES.notAllowed });
  const photos = await transactionAs(deps.db, admin, async (tx) => {
    const deal = await findDeal(tx, id, { lock: true });
    if (deal.depositPaidAt || deal.paidAt) throw new AppError("conflict", PAID_DEAL_UNDELETABLE);
    // A card payment begun may still succeed: the deal must stay for it to be recorded.
    if (await hasPaymentIntent(tx, id)) throw new AppError("conflict", CARD_PAYMENT_BEGUN);
    const photos = await listPhotos(tx, id);
    await deleteDeal(tx, id);
    return photos;
  });
  await deps.storage.remove(
    photos.flatMap((p) => [dealPhotoPath(id, p.fileName), dealPhotoPath(id, p.fileName, true)]),
  );
  await deps.logger.info("deals", "Devis supprimé", { dealId: id, adminId: admin.user.id });
}
