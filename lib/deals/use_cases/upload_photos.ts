// POST /api/deal/upload-photos/{id}, multipart photos[] (admins and the deal's partner): images are
// recognised by their first bytes, re-encoded with sharp (metadata stripped, EXIF orientation applied)
// with a thumbnail, and written to storage before their rows are committed; they are removed again if
// the transaction fails.
import sharp, { type Sharp } from "sharp";
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { dealPhotoPath } from "../../storage/storage.ts";
import { countPhotos, insertPhoto, listPhotos, type PhotoRow } from "../photo_store.ts";
import { markEdited } from "../store.ts";
import {
  notAnImage,
  PHOTO_CONTENT_TYPES,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_PIXELS,
  PHOTO_MAX_SIDE,
  PHOTOS_MAX_PER_DEAL,
  photoTooBig,
  type PhotoType,
  sniffImageType,
  THUMB_HEIGHT,
  THUMB_WIDTH,
  tooManyPhotos,
  unreadableImage,
} from "../photos.ts";
import { DEAL_MESSAGES } from "../rules.ts";
import { editableDeal, gallery, type PhotosResult } from "./photo_gallery.ts";

interface Incoming {
  name: string;
  bytes: Uint8Array;
  type: PhotoType;
}

interface Encoded {
  fileName: string;
  type: PhotoType;
  main: Uint8Array;
  thumb: Uint8Array;
  width: number;
  height: number;
}

/** The files of the form's photos[] (or photos) field; text values are ignored. */
function filesOf(body: Record<string, unknown>): File[] {
  const values = [body["photos[]"], body.photos].flatMap((
    v,
  ) => (Array.isArray(v) ? v : v == null ? [] : [v]));
  return values.filter((v): v is File => v instanceof File && v.size > 0);
}

/** Size, then type by magic bytes; the first bad file refuses the whole upload. */
async function readFiles(files: File[]): Promise<Incoming[]> {
  const tooBig = files.find((f) => f.size > PHOTO_MAX_BYTES);
  if (tooBig) {
    throw new AppError("payload_too_large", photoTooBig(tooBig.name), { photos: photoTooBig(tooBig.name) });
  }
  const incoming: Incoming[] = [];
  for (const file of files) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const type = sniffImageType(bytes);
    if (!type) throw new AppError("validation", notAnImage(file.name), { photos: notAnImage(file.name) });
    incoming.push({ name: file.name, bytes, type });
  }
  return incoming;
}

function encoder(image: Sharp, type: PhotoType): Sharp {
  if (type === "jpg") return image.jpeg({ quality: 85 });
  if (type === "png") return image.png();
  return image.webp({ quality: 85 });
}

/** Re-encodes the image in its own format (metadata removed, orientation applied, at most
 * PHOTO_MAX_SIDE px) and makes its thumbnail. */
async function encode(file: Incoming): Promise<Encoded> {
  try {
    const options = { limitInputPixels: PHOTO_MAX_PIXELS, failOn: "error" as const };
    const resized = sharp(file.bytes, options).rotate().resize({
      width: PHOTO_MAX_SIDE,
      height: PHOTO_MAX_SIDE,
      fit: "inside",
      withoutEnlargement: true,
    });
    const { data, info } = await encoder(resized, file.type).toBuffer({ resolveWithObject: true });
    const thumb = await encoder(
      sharp(data, options).resize(THUMB_WIDTH, THUMB_HEIGHT, { fit: "cover" }),
      file.type,
    ).toBuffer();
    return {
      fileName: `${crypto.randomUUID()}.${file.type}`,
      type: file.type,
      main: new Uint8Array(data),
      thumb: new Uint8Array(thumb),
      width: info.width,
      height: info.height,
    };
  } catch {
    throw new AppError("validation", unreadableImage(file.name), { photos: unreadableImage(file.name) });
  }
}

/** Adds the uploaded photos at the end of the gallery. An upload with no files does nothing (the
 * current photos are answered). */
export async function uploadPhotos(
  deps: Deps,
  actor: Actor,
  id: number,
  body: Record<string, unknown>,
): Promise<PhotosResult & { added: number }> {
  const user = requireRole(actor, ["Admin", "Company"], { message: DEAL_MESSAGES.notAllowed });
  const role = user.user.type;
  const files = filesOf(body);
  // Who may add, and whether there is room, before spending time on the images.
  const current = await transactionAs(deps.db, user, async (tx) => {
    await editableDeal(tx, role, id);
    return await listPhotos(tx, id);
  });
  if (files.length === 0) return { ...gallery(deps, id, current), added: 0 };
  const existing = current.length;
  if (existing + files.length > PHOTOS_MAX_PER_DEAL) {
    throw new AppError("validation", tooManyPhotos(existing), { photos: tooManyPhotos(existing) });
  }
  const incoming = await readFiles(files);
  const encoded: Encoded[] = [];
  for (const file of incoming) encoded.push(await encode(file));

  const written: string[] = [];
  let rows: PhotoRow[];
  try {
    for (const photo of encoded) {
      const contentType = PHOTO_CONTENT_TYPES[photo.type];
      for (
        const [path, data] of [
          [dealPhotoPath(id, photo.fileName), photo.main],
          [dealPhotoPath(id, photo.fileName, true), photo.thumb],
        ] as const
      ) {
        written.push(path);
        await deps.storage.put(path, data, contentType);
      }
    }
    rows = await transactionAs(deps.db, user, async (tx) => {
      await editableDeal(tx, role, id);
      const { count, next } = await countPhotos(tx, id);
      if (count + encoded.length > PHOTOS_MAX_PER_DEAL) {
        throw new AppError("validation", tooManyPhotos(count), { photos: tooManyPhotos(count) });
      }
      for (const [i, photo] of encoded.entries()) {
        await insertPhoto(tx, id, {
          position: next + i,
          fileName: photo.fileName,
          contentType: PHOTO_CONTENT_TYPES[photo.type],
          size: photo.main.byteLength,
          width: photo.width,
          height: photo.height,
        });
      }
      await markEdited(tx, id);
      return await listPhotos(tx, id);
    });
  } catch (error) {
    await deps.storage.remove(written).catch(() => {});
    throw error;
  }
  await deps.logger.info("deals", "Photos ajoutées", {
    dealId: id,
    userId: user.user.id,
    count: encoded.length,
  });
  return { ...gallery(deps, id, rows), added: encoded.length };
}
