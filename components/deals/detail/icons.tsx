// The few line icons of the deal page (24 px grid, stroked with the text colour).
const PATHS = {
  pencil: "M4 20h4L19 9l-4-4L4 16zm9-13 4 4",
  check: "M5 12.5 10 17.5 19 7",
  close: "M6 6l12 12M18 6 6 18",
  eye: "M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12zm10 3a3 3 0 1 0 0-6 3 3 0 0 0 0 6z",
  eyeOff:
    "M3 3l18 18M10.6 5.1A9.8 9.8 0 0 1 12 5c6.4 0 10 7 10 7a17 17 0 0 1-3.2 4.1M6.6 6.6C3.7 8.3 2 12 2 12s3.6 7 10 7c1.8 0 3.4-.5 4.8-1.3M9.9 9.9a3 3 0 0 0 4.2 4.2",
  plus: "M12 5v14M5 12h14",
  trash: "M4 7h16M9 7V4h6v3m-8 0 1 13h8l1-13",
  back: "M15 5l-7 7 7 7",
  lock: "M6 11h12v9H6zm2 0V8a4 4 0 0 1 8 0v3",
  download: "M12 4v11m-5-5 5 5 5-5M5 20h14",
} as const;

export type DealIconName = keyof typeof PATHS;

export function DealIcon({ name, class: className = "h-5 w-5" }: { name: DealIconName; class?: string }) {
  return (
    <svg
      class={className}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="1.8"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
