// The deal page's icons: the shared line icons (components/ui/Icon.tsx).
import { type AnyIconName, Icon } from "../../ui/Icon.tsx";

export type DealIconName = Extract<
  AnyIconName,
  "pencil" | "check" | "close" | "eye" | "eyeOff" | "plus" | "trash" | "back" | "lock" | "download"
>;

export function DealIcon({ name, class: className = "h-5 w-5" }: { name: DealIconName; class?: string }) {
  return <Icon name={name} class={className} />;
}
