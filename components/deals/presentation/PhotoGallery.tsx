// The photo gallery of a deal's 'Présentation' tab (spec 001 §2.3, §4 'Photo reorder', §8): tiles
// 200 px wide, an upload of several files (also by dropping files on the gallery), drag one photo onto
// another to move it (buttons do the same from the keyboard or a phone), and deletion. Every change
// is saved at once; the server answers the gallery's new state.
import { useRef, useState } from "react";
import type { PhotoPayload } from "../../../lib/deals/payload.ts";
import {
  batchBySize,
  movePhoto,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_MB,
  PHOTO_MESSAGES,
  PHOTO_TILE_WIDTH,
  PHOTOS_MAX_PER_DEAL,
  photoTooBig,
  tooManyPhotos,
} from "../../../lib/deals/photos.ts";
import { api, ApiError } from "../../ui/api.ts";
import { ConfirmDialog } from "../detail/ConfirmDialog.tsx";
import type { NoticeState } from "../../ui/Notice.tsx";

export interface PhotosState {
  photos: string[];
  photoItems: PhotoPayload[];
}

interface PhotosAnswer {
  status: string;
  results: PhotosState;
  message?: string;
}

/** The server's French reason, after the spec's message, when it gave one. */
function failure(base: string, error: unknown): string {
  const reason = error instanceof ApiError && error.status < 500 ? error.message : "";
  return reason && reason !== base ? `${base} ${reason}` : base;
}

async function postPhotos(dealId: number, files: File[]): Promise<PhotosState> {
  const form = new FormData();
  for (const file of files) form.append("photos[]", file, file.name);
  const response = await fetch(`/api/deal/upload-photos/${dealId}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { accept: "application/json" },
    body: form,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data);
  return (data as PhotosAnswer).results;
}

/** The file name the API deletes by: the last segment of the photo's URL (spec 001 §5). */
export const fileNameOf = (url: string) => url.split(/[?#]/)[0].split("/").pop() ?? "";

export function PhotoGallery({ dealId, items, editable, onChange, notify }: {
  dealId: number;
  items: PhotoPayload[];
  editable: boolean;
  onChange: (state: PhotosState) => void;
  notify: (notice: NoticeState) => void;
}) {
  const [busy, setBusy] = useState<"upload" | "order" | "delete" | null>(null);
  const [deleting, setDeleting] = useState<PhotoPayload | null>(null);
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [filesOver, setFilesOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const left = PHOTOS_MAX_PER_DEAL - items.length;

  const upload = async (list: FileList | File[] | null) => {
    const files = [...(list ?? [])];
    if (input.current) input.current.value = "";
    // An upload with no files does nothing (spec 001 §5).
    if (files.length === 0 || busy) return;
    const big = files.find((f) => f.size > PHOTO_MAX_BYTES);
    if (big) return notify({ type: "error", text: `${PHOTO_MESSAGES.uploadError} ${photoTooBig(big.name)}` });
    if (files.length > left) {
      return notify({ type: "error", text: `${PHOTO_MESSAGES.uploadError} ${tooManyPhotos(items.length)}` });
    }
    setBusy("upload");
    let saved: PhotosState | null = null;
    try {
      for (const batch of batchBySize(files)) saved = await postPhotos(dealId, batch);
      notify({ type: "success", text: PHOTO_MESSAGES.uploaded });
    } catch (error) {
      notify({ type: "error", text: failure(PHOTO_MESSAGES.uploadError, error) });
    } finally {
      if (saved) onChange(saved);
      setBusy(null);
    }
  };

  const reorder = async (from: number, to: number) => {
    const next = movePhoto(items, from, to);
    if (next === items || busy) return;
    const previous = items;
    onChange({ photos: next.map((p) => p.url), photoItems: next });
    setBusy("order");
    try {
      const answer = await api<PhotosAnswer>("POST", `/api/deal/reorder-photos/${dealId}`, {
        photos: next.map((p) => p.url),
      });
      onChange(answer.results);
      notify({ type: "success", text: PHOTO_MESSAGES.reordered });
    } catch (error) {
      onChange({ photos: previous.map((p) => p.url), photoItems: previous });
      notify({ type: "error", text: failure(PHOTO_MESSAGES.reorderError, error) });
    } finally {
      setBusy(null);
    }
  };

  // Asked in the app's own dialog (a native <dialog>), not the browser's confirm().
  const askRemove = (photo: PhotoPayload) => {
    if (!busy) setDeleting(photo);
  };
  const remove = async (photo: PhotoPayload) => {
    if (busy) return;
    setBusy("delete");
    try {
      const answer = await api<PhotosAnswer>(
        "DELETE",
        `/api/deal/photos/${dealId}/${encodeURIComponent(fileNameOf(photo.url))}`,
      );
      onChange(answer.results);
      notify({ type: "success", text: PHOTO_MESSAGES.deleted });
    } catch (error) {
      notify({ type: "error", text: failure(PHOTO_MESSAGES.deleteError, error) });
    } finally {
      setBusy(null);
      setDeleting(null);
    }
  };

  const endDrag = () => {
    setDragged(null);
    setOver(null);
  };

  return (
    <div
      data-testid="photo-gallery"
      aria-busy={busy !== null}
      class={`rounded-lg ${filesOver ? "outline-2 outline-dashed outline-brand-500" : ""}`}
      onDragOver={(e) => {
        if (!editable || dragged !== null || !e.dataTransfer?.types.includes("Files")) return;
        e.preventDefault();
        setFilesOver(true);
      }}
      onDragLeave={() => setFilesOver(false)}
      onDrop={(e) => {
        if (!editable || dragged !== null || !e.dataTransfer?.files.length) return;
        e.preventDefault();
        setFilesOver(false);
        upload(e.dataTransfer.files);
      }}
    >
      {editable && (
        <div class="mb-4 flex flex-wrap items-center gap-3">
          <input
            ref={input}
            id={`photos-${dealId}`}
            type="file"
            multiple
            accept="image/jpeg,image/png,image/webp"
            class="sr-only"
            disabled={busy !== null || left <= 0}
            onChange={(e) => upload((e.target as HTMLInputElement).files)}
          />
          <label
            for={`photos-${dealId}`}
            class={`inline-flex cursor-pointer items-center rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 ${
              busy !== null || left <= 0 ? "pointer-events-none opacity-50" : ""
            }`}
          >
            {busy === "upload" ? "Envoi des photos…" : "Ajouter des photos"}
          </label>
          <p class="text-sm text-slate-500">
            JPEG, PNG ou WebP, {PHOTO_MAX_MB} Mo au plus par photo, {PHOTOS_MAX_PER_DEAL} photos au plus.
            {items.length > 1 && " Glissez une photo sur une autre pour la déplacer."}
          </p>
        </div>
      )}
      {items.length === 0
        ? <p class="text-sm italic text-slate-500">Aucune photo pour le moment.</p>
        : (
          <ul class="flex flex-wrap gap-4" aria-label="Photos">
            {items.map((photo, index) => (
              <li
                key={photo.id}
                data-testid="photo-tile"
                data-photo-id={photo.id}
                draggable={editable && busy === null}
                onDragStart={(e) => {
                  setDragged(index);
                  e.dataTransfer?.setData("text/plain", photo.id);
                  if (e.dataTransfer) e.dataTransfer.effectAllowed = "move";
                }}
                onDragOver={(e) => {
                  if (dragged === null) return;
                  e.preventDefault();
                  if (e.dataTransfer) e.dataTransfer.dropEffect = "move";
                  setOver(index);
                }}
                onDragLeave={() => over === index && setOver(null)}
                onDrop={(e) => {
                  if (dragged === null) return;
                  e.preventDefault();
                  e.stopPropagation();
                  const from = dragged;
                  endDrag();
                  reorder(from, index);
                }}
                onDragEnd={endDrag}
                class={`overflow-hidden rounded-lg border bg-white shadow-sm ${
                  over === index && dragged !== index
                    ? "border-brand-500 ring-2 ring-brand-500"
                    : "border-slate-200"
                } ${dragged === index ? "opacity-50" : ""} ${editable ? "cursor-move" : ""} w-[200px]`}
              >
                <a
                  href={photo.url}
                  target="_blank"
                  rel="noopener"
                  draggable={false}
                  title="Voir la photo en grand"
                >
                  <img
                    src={photo.thumbUrl}
                    alt={`Photo ${index + 1}`}
                    width={PHOTO_TILE_WIDTH}
                    height={150}
                    loading="lazy"
                    draggable={false}
                    class="block h-[150px] w-full object-cover"
                  />
                </a>
                {editable && (
                  <div class="flex items-center justify-between gap-1 px-2 py-1.5">
                    <span class="text-xs text-slate-500">{index + 1}</span>
                    <span class="flex items-center gap-1">
                      <button
                        type="button"
                        aria-label={`Déplacer la photo ${index + 1} vers la gauche`}
                        title="Déplacer vers la gauche"
                        disabled={index === 0 || busy !== null}
                        onClick={() => reorder(index, index - 1)}
                        class="rounded px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 disabled:opacity-30"
                      >
                        ←
                      </button>
                      <button
                        type="button"
                        aria-label={`Déplacer la photo ${index + 1} vers la droite`}
                        title="Déplacer vers la droite"
                        disabled={index === items.length - 1 || busy !== null}
                        onClick={() => reorder(index, index + 1)}
                        class="rounded px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 disabled:opacity-30"
                      >
                        →
                      </button>
                      <button
                        type="button"
                        aria-label={`Supprimer la photo ${index + 1}`}
                        disabled={busy !== null}
                        onClick={() => askRemove(photo)}
                        class="rounded px-2 py-1 text-sm text-red-700 hover:bg-red-50 disabled:opacity-30"
                      >
                        Supprimer
                      </button>
                    </span>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      {deleting && (
        <ConfirmDialog
          open
          title={PHOTO_MESSAGES.deleteConfirm}
          confirmLabel="Supprimer"
          onConfirm={() => remove(deleting)}
          onClose={() => busy === null && setDeleting(null)}
          busy={busy !== null}
          testId="photo-delete-dialog"
        >
          <img
            src={deleting.thumbUrl}
            alt=""
            class="h-24 w-32 rounded-lg object-cover"
          />
        </ConfirmDialog>
      )}
    </div>
  );
}
