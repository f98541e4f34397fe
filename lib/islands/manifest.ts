// The build manifest written by scripts/build.ts: the content-hashed file of each island bundle (and
// the shared chunks it imports), and the stylesheet.

export interface IslandAsset {
  file: string;
  /** Shared chunks the island imports, announced with modulepreload. */
  imports: string[];
}

export interface Manifest {
  css: string;
  islands: Record<string, IslandAsset>;
}

export const MANIFEST_PATH = new URL("../../static/build/manifest.json", import.meta.url);

let cached: Manifest | null = null;

/** In development the manifest is re-read on each call, since the watcher rewrites it. */
export function getManifest(reload = false): Manifest {
  if (!cached || reload) {
    try {
      cached = JSON.parse(Deno.readTextFileSync(MANIFEST_PATH)) as Manifest;
    } catch (error) {
      throw new Error("Les fichiers du site ne sont pas construits : lancez `deno task build`.", {
        cause: error,
      });
    }
  }
  return cached;
}
