// The deal's photos (4 at most, spec 000 §9) and their lightbox: a native <dialog> (Escape closes it),
// previous/next with the arrow keys, the buttons or a swipe, and the position read out ("2 / 4").
import { useRef, useState } from "react";

export interface LightboxPhoto {
  url: string;
  thumbUrl: string;
}

export interface PhotoLightboxProps {
  photos: LightboxPhoto[];
  /** "Photo 2 sur 4 — {title}" */
  title: string;
}

export const MAX_PHOTOS = 4;
const SWIPE_PX = 40;

const NAV_BUTTON =
  "absolute top-1/2 -translate-y-1/2 rounded-full bg-white/90 p-2.5 text-slate-900 shadow-lg hover:bg-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-white";

function Chevron({ left }: { left?: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      class="h-6 w-6"
      fill="none"
      stroke="currentColor"
      stroke-width="2.5"
      aria-hidden="true"
    >
      <path d={left ? "M15 5l-7 7 7 7" : "M9 5l7 7-7 7"} stroke-linecap="round" stroke-linejoin="round" />
    </svg>
  );
}

export default function PhotoLightbox({ photos: all, title }: PhotoLightboxProps) {
  const photos = all.slice(0, MAX_PHOTOS);
  const dialog = useRef<HTMLDialogElement>(null);
  const [index, setIndex] = useState(0);
  const touchX = useRef<number | null>(null);
  const count = photos.length;
  if (count === 0) return null;

  const go = (delta: number) => setIndex((i) => (i + delta + count) % count);
  const open = (i: number) => {
    setIndex(i);
    dialog.current?.showModal();
  };
  const alt = (i: number) => `Photo ${i + 1} sur ${count} — ${title}`;

  return (
    <>
      <ul
        class={`grid gap-2 ${
          count === 1 ? "grid-cols-1" : count === 3 ? "grid-cols-3" : "grid-cols-2 md:grid-cols-4"
        }`}
        data-testid="deal-photos"
      >
        {photos.map((photo, i) => (
          <li key={photo.url}>
            <button
              type="button"
              class="group block w-full overflow-hidden rounded-xl bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
              onClick={() => open(i)}
              aria-label={`Agrandir la photo ${i + 1} sur ${count}`}
            >
              <img
                src={photo.thumbUrl || photo.url}
                alt={alt(i)}
                loading="lazy"
                decoding="async"
                class={`w-full object-cover transition-transform duration-300 group-hover:scale-105 ${
                  count === 1 ? "aspect-[16/9]" : "aspect-[4/3]"
                }`}
              />
            </button>
          </li>
        ))}
      </ul>
      <dialog
        ref={dialog}
        aria-label={`Photos — ${title}`}
        data-testid="photo-lightbox"
        class="m-0 h-[100dvh] max-h-none w-screen max-w-none bg-slate-950/95 p-0"
        onKeyDown={(event) => {
          if (event.key === "ArrowLeft") go(-1);
          if (event.key === "ArrowRight") go(1);
        }}
        onClick={(event) => {
          // A click on the dark backdrop (outside the photo and the buttons) closes.
          if (event.target === event.currentTarget) dialog.current?.close();
        }}
      >
        <div
          class="relative flex h-full w-full items-center justify-center p-3 sm:p-10"
          onTouchStart={(event) => {
            touchX.current = event.touches[0]?.clientX ?? null;
          }}
          onTouchEnd={(event) => {
            const start = touchX.current;
            const end = event.changedTouches[0]?.clientX;
            touchX.current = null;
            if (start == null || end == null || Math.abs(end - start) < SWIPE_PX) return;
            go(end < start ? 1 : -1);
          }}
          onClick={(event) => {
            if (event.target === event.currentTarget) dialog.current?.close();
          }}
        >
          <img
            src={photos[index].url}
            alt={alt(index)}
            class="max-h-full max-w-full select-none rounded-lg object-contain shadow-2xl"
            draggable={false}
          />
          <button
            type="button"
            aria-label="Fermer"
            class="absolute right-3 top-3 rounded-full bg-white/90 px-3 py-1 text-2xl leading-none text-slate-900 shadow-lg hover:bg-white"
            onClick={() => dialog.current?.close()}
          >
            ×
          </button>
          {count > 1 && (
            <>
              <button
                type="button"
                aria-label="Photo précédente"
                class={`${NAV_BUTTON} left-3`}
                onClick={() => go(-1)}
              >
                <Chevron left />
              </button>
              <button
                type="button"
                aria-label="Photo suivante"
                class={`${NAV_BUTTON} right-3`}
                onClick={() => go(1)}
              >
                <Chevron />
              </button>
              <p
                class="absolute bottom-4 left-1/2 -translate-x-1/2 rounded-full bg-black/60 px-3 py-1 text-sm font-semibold text-white"
                aria-live="polite"
                data-testid="photo-position"
              >
                {index + 1} / {count}
              </p>
            </>
          )}
        </div>
      </dialog>
    </>
  );
}
