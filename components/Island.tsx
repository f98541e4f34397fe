// Server side of the islands layer: renders an island's HTML and marks it with its name and
// serialised props so that the island's bundle can hydrate it. An island's name is its file's name:
// the build lists islands/<Name>.tsx in the asset manifest, and `loadIslands()` imports each listed
// file at start-up and records its default export under that name.
import { type ComponentType, createContext } from "preact";
import { useContext } from "preact/hooks";
import { getManifest } from "../lib/islands/manifest.ts";

/** Collects the islands used while rendering one page. */
export const IslandCollector = createContext<Set<string> | null>(null);

// deno-lint-ignore no-explicit-any
const names = new Map<ComponentType<any>, string>();

/** Registers every island the build found (the manifest's names are the files' names). */
export async function loadIslands(reload = false): Promise<void> {
  const manifest = getManifest(reload);
  await Promise.all(
    Object.keys(manifest.islands).map(async (name) => {
      const module = await import(new URL(`../islands/${name}.tsx`, import.meta.url).href);
      if (typeof module.default !== "function") {
        throw new Error(`islands/${name}.tsx n'exporte pas de composant par défaut`);
      }
      names.set(module.default, name);
    }),
  );
}

export function Island<P extends object>(
  { component: Component, props }: { component: ComponentType<P>; props: NoInfer<P> },
) {
  const used = useContext(IslandCollector);
  const name = names.get(Component);
  if (!name) {
    throw new Error(`Composant non enregistré comme îlot : ${Component.name} (lancez \`deno task build\`)`);
  }
  used?.add(name);
  return (
    <div class="contents" data-island={name} data-props={JSON.stringify(props)}>
      <Component {...props} />
    </div>
  );
}
