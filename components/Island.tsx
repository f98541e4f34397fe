// Server side of the islands layer: renders an island's HTML and marks it with its name and
// serialised props so the island's bundle can hydrate it. Islands are default exports of
// islands/<Name>.tsx whose function is named <Name>.
import { type ComponentType, createContext } from "preact";
import { useContext } from "preact/hooks";

/** Collects the islands used while rendering one page. */
export const IslandCollector = createContext<Set<string> | null>(null);

export function Island<P extends object>(
  { component: Component, props }: { component: ComponentType<P>; props: NoInfer<P> },
) {
  const used = useContext(IslandCollector);
  const name = Component.name;
  used?.add(name);
  return (
    <div class="contents" data-island={name} data-props={JSON.stringify(props)}>
      <Component {...props} />
    </div>
  );
}
