// The photos of a deal (spec 001 §7), mounted at /api/deal. Guard: partners and admins (the use cases
// allow admins and the deal's partner; RLS checks again). The upload sets its own body limit, larger
// than the app's 1 MiB (lib/http/security.ts leaves this path to it).
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { type AppEnv, idParam, readBody, success } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { AppError } from "../lib/errors.ts";
import { deletePhoto } from "../lib/deals/use_cases/delete_photo.ts";
import { reorderPhotos } from "../lib/deals/use_cases/reorder_photos.ts";
import { uploadPhotos } from "../lib/deals/use_cases/upload_photos.ts";
import { PHOTO_MESSAGES, UPLOAD_REQUEST_MAX_BYTES } from "../lib/deals/photos.ts";
import { DEAL_MESSAGES } from "../lib/deals/rules.ts";

const NOT_FOUND = DEAL_MESSAGES.notFound;

export const dealPhotoApiRoutes = new Hono<AppEnv>()
  .use(requireUser("api", ["Admin", "Company"], DEAL_MESSAGES.notAllowed))
  .post(
    "/upload-photos/:id",
    bodyLimit({
      maxSize: UPLOAD_REQUEST_MAX_BYTES,
      onError: () => {
        throw new AppError("payload_too_large", PHOTO_MESSAGES.requestTooLarge);
      },
    }),
    async (c) => {
      const id = idParam(c, "id", NOT_FOUND);
      const photos = await uploadPhotos(c.var.deps, c.var.actor, id, await readBody(c));
      return success(c, photos, photos.added ? PHOTO_MESSAGES.uploaded : null);
    },
  )
  .post("/reorder-photos/:id", async (c) => {
    const id = idParam(c, "id", NOT_FOUND);
    return success(
      c,
      await reorderPhotos(c.var.deps, c.var.actor, id, await readBody(c)),
      PHOTO_MESSAGES.reordered,
    );
  })
  .delete("/photos/:id/:photoId", async (c) => {
    const id = idParam(c, "id", NOT_FOUND);
    const photos = await deletePhoto(c.var.deps, c.var.actor, id, c.req.param("photoId"));
    return success(c, photos, PHOTO_MESSAGES.deleted);
  });
