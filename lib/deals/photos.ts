// Pure rules of a deal's photo gallery (spec 001 §2.3, §7, §8): limits, the image types accepted
// (recognised by their first bytes, never by the file's name or declared type), how a photo is named
// in the API (its id, or its file name as the last segment of its URL), and the French messages.
// No server code: the island imports it as well as the use cases (use_cases/upload_photos.ts…).

export const PHOTO_MAX_BYTES = 8 * 1024 * 1024;
export const PHOTO_MAX_MB = 8;
export const PHOTOS_MAX_PER_DEAL = 20;
/** The body limit of one upload request (its route sets it); the island sends bigger selections in
 * several requests of at most UPLOAD_BATCH_BYTES of files each. */
export const UPLOAD_REQUEST_MAX_BYTES = 32 * 1024 * 1024;
const UPLOAD_BATCH_BYTES = 24 * 1024 * 1024;
/** Gallery tiles (spec 001 §2.3: tile width 200). */
export const PHOTO_TILE_WIDTH = 200;
/** Stored images: the longest side is brought down to this; thumbnails are twice the tile size. */
export const PHOTO_MAX_SIDE = 2400;
export const THUMB_WIDTH = 400;
export const THUMB_HEIGHT = 300;
/** Decoding refuses images of more pixels than this (decompression bombs). */
export const PHOTO_MAX_PIXELS = 60_000_000;

export type PhotoType = "jpg" | "png" | "webp";

export const PHOTO_CONTENT_TYPES: Record<PhotoType, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};

export const PHOTO_MESSAGES = {
  uploaded: "Photos sauvegardées avec succès !",
  reordered: "Ordre des photos sauvegardé avec succès !",
  deleted: "Photo supprimée avec succès !",
  uploadError: "Erreur lors de l'upload des photos.",
  reorderError: "Erreur lors de la sauvegarde de l'ordre des photos.",
  deleteError: "Erreur lors de la suppression de la photo.",
  notFound: "Cette photo n'existe pas ou a déjà été supprimée.",
  orderMismatch: "La liste des photos envoyée ne correspond pas aux photos du devis. Rechargez la page.",
  requestTooLarge:
    `L'envoi est trop volumineux : envoyez les photos en plusieurs fois (${PHOTO_MAX_MB} Mo au plus par photo).`,
  tooMany: `Un devis peut avoir au plus ${PHOTOS_MAX_PER_DEAL} photos.`,
  deleteConfirm: "Supprimer cette photo ?",
} as const;

export function photoTooBig(name: string): string {
  return `La photo « ${displayName(name)} » dépasse ${PHOTO_MAX_MB} Mo.`;
}

export function notAnImage(name: string): string {
  return `Le fichier « ${displayName(name)} » n'est pas une image JPEG, PNG ou WebP.`;
}

export function unreadableImage(name: string): string {
  return `L'image « ${displayName(name)} » est illisible ou trop grande.`;
}

export function tooManyPhotos(existing: number): string {
  const left = Math.max(0, PHOTOS_MAX_PER_DEAL - existing);
  return `${PHOTO_MESSAGES.tooMany} Vous pouvez encore en ajouter ${left}.`;
}

/** A file name fit for a message: its last path segment, without control characters, 80 at most. */
export function displayName(name: string): string {
  // deno-lint-ignore no-control-regex
  const base = (name.split(/[\\/]/).pop() ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return (base || "sans nom").slice(0, 80);
}

/** The image type given by the file's first bytes (magic numbers), or null. */
export function sniffImageType(bytes: Uint8Array): PhotoType | null {
  const b = bytes;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpg";
  if (
    b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d &&
    b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a
  ) return "png";
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  if (b.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  return null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The file names the database accepts (deal_photos.file_name check). */
const PHOTO_FILE_NAME = /^[a-z0-9-]{8,80}\.(jpg|png|webp)$/;

export type PhotoRef = { id: string } | { fileName: string };

/** How the API names a photo: its id, its file name, or its URL (the file name is the last segment
 * of the URL, spec 001 §5). Null when it can be none of these. */
export function parsePhotoRef(value: string): PhotoRef | null {
  const text = value.trim();
  if (UUID.test(text)) return { id: text.toLowerCase() };
  let last = text.split(/[?#]/)[0];
  last = last.slice(last.lastIndexOf("/") + 1);
  try {
    last = decodeURIComponent(last);
  } catch {
    return null;
  }
  return PHOTO_FILE_NAME.test(last) ? { fileName: last } : null;
}

/** Splits files into batches of at most `maxBytes` (a file bigger than that goes alone). */
export function batchBySize<T extends { size: number }>(files: T[], maxBytes = UPLOAD_BATCH_BYTES): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const file of files) {
    if (current.length && size + file.size > maxBytes) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(file);
    size += file.size;
  }
  if (current.length) batches.push(current);
  return batches;
}

/** Moves the item at `from` to the place of the item at `to` (dragging one photo onto another). */
export function movePhoto<T>(items: T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return items;
  const next = items.slice();
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}
