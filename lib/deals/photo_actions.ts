// Use cases of a deal's photo gallery (spec 001 §2.3, §4 'Photo reorder', §7): upload, reorder,
// delete. Each runs one transaction as the actor: RLS decides who may add, move or delete a photo
// (admins and the deal's partner), the edit lock is checked here for partners (admins always may).
// Images are recognised by their first bytes, re-encoded with sharp (metadata stripped, EXIF
// orientation applied) with a thumbnail, and written to storage before their rows are committed;
// they are removed again if the transaction fails, and removed from storage after a row is deleted.
import sharp, { type Sharp } from "sharp";
import { z } from "zod";
import type { Actor, UserActor } from "../actor.ts";
import { transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import type { Tx } from "../db/database.ts";
import { AppError } from "../errors.ts";
import { parseInput } from "../validation.ts";
import { dealPhotoPath } from "../storage/storage.ts";
import { DEAL_MESSAGES } from "./rules.ts";
import { type DealRow, findDeal, listPhotos, type PhotoRow } from "./store.ts";
import type { PhotoPayload } from "./payload.ts";
import {
  notAnImage,
  parsePhotoRef,
  PHOTO_CONTENT_TYPES,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_PIXELS,
  PHOTO_MAX_SIDE,
  PHOTO_MESSAGES,
  type PhotoRef,
  PHOTOS_MAX_PER_DEAL,
  photoTooBig,
  type PhotoType,
  sniffImageType,
  THUMB_HEIGHT,
  THUMB_WIDTH,
  tooManyPhotos,
  unreadableImage,
} from "./photos.ts";

export interface PhotosResult {
  /** The photos' URLs in their order (the spec's `photos`). */
  photos: string[];
  photoItems: PhotoPayload[];
}

type Editor = { actor: UserActor; role: "Admin" | "Company" };

/** Admins and partners only; which deals a partner may touch is RLS's decision (another partner's
 * deal is not found). Customers may see a deal's photos but never change them. */
function editor(actor: Actor): Editor {
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  const role = actor.user.type;
  if (role !== "Admin" && role !== "Company") throw new AppError("forbidden", DEAL_MESSAGES.notAllowed);
  return { actor, role };
}

/** The deal, locked for the transaction; a partner may not change the photos of a locked deal. */
async function editableDeal(tx: Tx, role: Editor["role"], id: number): Promise<DealRow> {
  const deal = await findDeal(tx, id, { lock: true });
  if (role === "Company" && deal.adminSettings.disableQuoteEdits === true) {
    throw new AppError("conflict", DEAL_MESSAGES.locked);
  }
  return deal;
}

function result(deps: Deps, dealId: number, rows: PhotoRow[]): PhotosResult {
  const photoItems = rows.map((p) => ({
    id: p.id,
    url: deps.storage.publicUrl(dealPhotoPath(dealId, p.fileName)),
    thumbUrl: deps.storage.publicUrl(dealPhotoPath(dealId, p.fileName, true)),
  }));
  return { photos: photoItems.map((p) => p.url), photoItems };
}

// ---------------------------------------------------------------------------------------------------
// Upload: POST /api/deal/upload-photos/{id}, multipart photos[].

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

async function countPhotos(tx: Tx, dealId: number): Promise<{ count: number; next: number }> {
  const [row] = await tx<{ count: number; next: number }>`
    select count(*)::int as count, coalesce(max(position) + 1, 0)::int as next
    from public.deal_photos where deal_id = ${dealId}`;
  return row;
}

/** Adds the uploaded photos at the end of the gallery. An upload with no files does nothing (the
 * current photos are answered). */
export async function uploadPhotos(
  deps: Deps,
  actor: Actor,
  id: number,
  body: Record<string, unknown>,
): Promise<PhotosResult & { added: number }> {
  const { actor: user, role } = editor(actor);
  const files = filesOf(body);
  // Who may add, and whether there is room, before spending time on the images.
  const current = await transactionAs(deps.db, user, async (tx) => {
    await editableDeal(tx, role, id);
    return await listPhotos(tx, id);
  });
  if (files.length === 0) return { ...result(deps, id, current), added: 0 };
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
        await tx`insert into public.deal_photos (deal_id, position, file_name, content_type, size, width, height)
                 values (${id}, ${next + i}, ${photo.fileName}, ${PHOTO_CONTENT_TYPES[photo.type]},
                         ${photo.main.byteLength}, ${photo.width}, ${photo.height})`;
      }
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
  return { ...result(deps, id, rows), added: encoded.length };
}

// ---------------------------------------------------------------------------------------------------
// Reorder: POST /api/deal/reorder-photos/{id} {photos: the full ordered list of URLs or ids}.

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
  const { actor: user, role } = editor(actor);
  const { photos } = parseInput(reorderSchema, body, PHOTO_MESSAGES.orderMismatch);
  const refs = photos.map(parsePhotoRef);
  const rows = await transactionAs(deps.db, user, async (tx) => {
    await editableDeal(tx, role, id);
    const current = await listPhotos(tx, id);
    const ordered = refs.map((ref) => (ref ? current.find((row) => matches(ref, row)) : undefined));
    const complete = ordered.length === current.length && ordered.every(Boolean) &&
      new Set(ordered.map((row) => row!.id)).size === current.length;
    if (!complete) throw new AppError("conflict", PHOTO_MESSAGES.orderMismatch);
    for (const [position, row] of ordered.entries()) {
      if (row!.position !== position) {
        await tx`update public.deal_photos set position = ${position} where id = ${
          row!.id
        } and deal_id = ${id}`;
      }
    }
    return await listPhotos(tx, id);
  });
  await deps.logger.info("deals", "Ordre des photos modifié", { dealId: id, userId: user.user.id });
  return result(deps, id, rows);
}

// ---------------------------------------------------------------------------------------------------
// Delete: DELETE /api/deal/photos/{id}/{photoId}, by id or by file name (the URL's last segment).

export async function deletePhoto(
  deps: Deps,
  actor: Actor,
  id: number,
  photo: string,
): Promise<PhotosResult> {
  const { actor: user, role } = editor(actor);
  const ref = parsePhotoRef(photo);
  if (!ref) throw new AppError("not_found", PHOTO_MESSAGES.notFound);
  const { fileName, rows } = await transactionAs(deps.db, user, async (tx) => {
    await editableDeal(tx, role, id);
    const [deleted] = "id" in ref
      ? await tx<{ fileName: string }>`delete from public.deal_photos where deal_id = ${id} and id = ${ref.id}
                                        returning file_name as "fileName"`
      : await tx<{ fileName: string }>`delete from public.deal_photos where deal_id = ${id}
                                          and file_name = ${ref.fileName} returning file_name as "fileName"`;
    if (!deleted) throw new AppError("not_found", PHOTO_MESSAGES.notFound);
    return { fileName: deleted.fileName, rows: await listPhotos(tx, id) };
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
  return result(deps, id, rows);
}
