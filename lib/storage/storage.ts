// One storage adapter for uploaded files (deal photos): a local folder by default, Supabase Storage
// when a Supabase project is configured (lib/storage/supabase.ts). Paths are relative, such as
// "deals/12/3f2a….jpg"; `publicUrl` is what pages link to.

export interface StoredFile {
  data: Uint8Array;
  contentType: string;
}

export interface Storage {
  readonly kind: "local" | "supabase" | "memory";
  put(path: string, data: Uint8Array, contentType: string): Promise<void>;
  /** Local and memory storage only: the app serves their files itself under /media/. */
  get(path: string): Promise<StoredFile | null>;
  remove(paths: string[]): Promise<void>;
  publicUrl(path: string): string;
}

const SAFE_PATH = /^[a-z0-9][a-z0-9/_.-]{0,200}$/;

export function checkPath(path: string): string {
  if (!SAFE_PATH.test(path) || path.includes("..") || path.includes("//")) {
    throw new Error(`Chemin de fichier invalide : ${path}`);
  }
  return path;
}

/** Where the app serves stored files: `/media/<path>`, the one URL shape of the app's own media
 * (local and memory storage serve the file, Supabase Storage answers with a redirect to its public
 * URL: routes/media.ts). */
export const MEDIA_PREFIX = "/media/";

/** Lower-case segments of letters, digits, "_", "-" and ".", none made of dots only: no traversal,
 * no encoded or escaped characters (checked on the raw text, before any decoding). */
const MEDIA_SEGMENT = /^[a-z0-9][a-z0-9_.-]{0,100}$/;

/** The stored path a `/media/…` URL path names, or null when it is not one of the app's own media
 * URLs (another path, a query, a fragment, traversal, encoded characters, a backslash…). */
export function mediaPathOf(urlPath: string): string | null {
  if (!urlPath.startsWith(MEDIA_PREFIX)) return null;
  const path = urlPath.slice(MEDIA_PREFIX.length);
  const segments = path.split("/");
  if (path.length > 200 || segments.length > 6) return null;
  return segments.every((s) => MEDIA_SEGMENT.test(s) && !s.includes("..")) ? path : null;
}

const CONTENT_TYPES: Record<string, string> = { jpg: "image/jpeg", png: "image/png", webp: "image/webp" };

/** Files in a folder of this machine (DATA_DIR's sibling by default), served by the app at /media/. */
export function localStorage(root: string): Storage {
  const full = (path: string) => `${root.replace(/\/$/, "")}/${checkPath(path)}`;
  return {
    kind: "local",
    async put(path, data) {
      const target = full(path);
      await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
      await Deno.writeFile(`${target}.tmp`, data);
      await Deno.rename(`${target}.tmp`, target);
    },
    async get(path) {
      try {
        const data = await Deno.readFile(full(path));
        return {
          data,
          contentType: CONTENT_TYPES[path.split(".").pop() ?? ""] ?? "application/octet-stream",
        };
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return null;
        throw error;
      }
    },
    async remove(paths) {
      for (const path of paths) await Deno.remove(full(path)).catch(() => {});
    },
    publicUrl: (path) => `${MEDIA_PREFIX}${checkPath(path)}`,
  };
}

/** Files kept in this process only (tests, and DATA_DIR=memory://). */
export function memoryStorage(): Storage {
  const files = new Map<string, StoredFile>();
  return {
    kind: "memory",
    put: (path, data, contentType) => {
      files.set(checkPath(path), { data, contentType });
      return Promise.resolve();
    },
    get: (path) => Promise.resolve(files.get(checkPath(path)) ?? null),
    remove: (paths) => {
      paths.forEach((p) => files.delete(p));
      return Promise.resolve();
    },
    publicUrl: (path) => `${MEDIA_PREFIX}${checkPath(path)}`,
  };
}

/** Where a deal's photo and its thumbnail live. */
export const dealPhotoPath = (dealId: number, fileName: string, thumb = false) =>
  `deals/${dealId}/${thumb ? "thumbs/" : ""}${fileName}`;
