// Line icons (24 × 24, stroked with the text colour): the side menu's (IconName) and the actions'
// of lists and forms. Usable by server components and islands alike.
import type { IconName } from "../../lib/dashboard/menu.ts";

export type ActionIconName =
  | "eye"
  | "pencil"
  | "dots"
  | "up"
  | "down"
  | "trash"
  | "plus"
  | "copy"
  | "link"
  | "swap"
  | "search"
  | "close"
  | "download"
  | "receipt"
  | "check"
  | "eyeOff"
  | "back"
  | "lock";

export type AnyIconName = IconName | ActionIconName;

const PATHS: Record<AnyIconName, string> = {
  home: "M3 10.5 12 3l9 7.5V21h-6v-6H9v6H3z",
  inbox: "M3 13h5l2 3h4l2-3h5M5 5h14l2 8v6H3v-6z",
  user: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-8 9a8 8 0 0 1 16 0",
  users: "M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 10a7 7 0 0 1 14 0m1-10a3 3 0 1 0 0-6m5 16a6 6 0 0 0-4-5.6",
  mail: "M3 5h18v14H3zm0 0 9 8 9-8",
  logout: "M15 4h4v16h-4M10 17l5-5-5-5m5 5H3",
  menu: "M3 6h18M3 12h18M3 18h18",
  // A sheet with a folded corner and lines: a quote.
  quote: "M6 3h9l4 4v14H6zM15 3v4h4M9 11h7M9 15h7M9 19h4",
  // A table: the pricing grid.
  grid: "M3 5h18v14H3zM3 10h18M3 15h18M9 5v14M15 5v14",
  // A cocktail glass with a straw.
  cocktail: "M4 4h16l-8 9zM12 13v7M8 20h8M16 4l3-2",
  // A list of lines with bullets: the logs.
  logs: "M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01",
  eye: "M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12zm10 3a3 3 0 1 0 0-6 3 3 0 0 0 0 6z",
  pencil: "M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4",
  dots: "M12 5h.01M12 12h.01M12 19h.01",
  up: "M12 19V5m-6 6 6-6 6 6",
  down: "M12 5v14m-6-6 6 6 6-6",
  trash: "M4 7h16M9 7V4h6v3m-8 0 1 13h8l1-13M10 11v6M14 11v6",
  plus: "M12 5v14M5 12h14",
  copy: "M8 8h12v12H8zM16 8V4H4v12h4",
  link: "M10 14a4 4 0 0 0 6 0l3-3a4 4 0 0 0-6-6l-1 1m2 4a4 4 0 0 0-6 0l-3 3a4 4 0 0 0 6 6l1-1",
  swap: "M4 8h14l-4-4M20 16H6l4 4",
  search: "M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zm10 3-5-5",
  close: "M6 6l12 12M18 6 6 18",
  download: "M12 4v11m-5-5 5 5 5-5M5 20h14",
  receipt: "M6 3h12v18l-3-2-3 2-3-2-3 2zM9 8h6M9 12h6M9 16h3",
  check: "M5 12.5 10 17.5 19 7",
  eyeOff:
    "M3 3l18 18M10.6 5.1A9.8 9.8 0 0 1 12 5c6.4 0 10 7 10 7a17 17 0 0 1-3.2 4.1M6.6 6.6C3.7 8.3 2 12 2 12s3.6 7 10 7c1.8 0 3.4-.5 4.8-1.3M9.9 9.9a3 3 0 0 0 4.2 4.2",
  back: "M15 5l-7 7 7 7",
  lock: "M6 11h12v9H6zm2 0V8a4 4 0 0 1 8 0v3",
};

export function Icon({ name, class: className = "h-5 w-5" }: { name: AnyIconName; class?: string }) {
  return (
    // The stroke's style is the class icon-line (static/styles.css): a list page repeats its icons on
    // every row, and the attributes would weigh ~100 bytes each time.
    <svg class={`icon-line ${className}`} viewBox="0 0 24 24" aria-hidden="true">
      <path d={PATHS[name]} />
    </svg>
  );
}
