// A table that becomes a list of cards on phones (below 640 px): each row a card, each cell a line led by
// its column name (the cell's data-label), so that no column hides in a horizontal scroller. CSS only:
// the same markup serves both (one row per item for the tests and screen readers alike).
export const STACKED = {
  /** The wrapper: scrolls sideways from 640 px only if the table still does not fit. */
  wrap: "sm:overflow-x-auto sm:rounded-lg",
  table: "w-full border-collapse text-sm max-sm:block sm:bg-white",
  thead: "max-sm:sr-only",
  tbody: "max-sm:block max-sm:space-y-3",
  row:
    "border-b max-sm:block max-sm:rounded-xl max-sm:border max-sm:border-slate-200 max-sm:bg-white max-sm:p-3",
  /** A cell with its label on phones (set data-label to the column's name). */
  cell:
    "p-2 max-sm:flex max-sm:items-start max-sm:justify-between max-sm:gap-4 max-sm:px-0 max-sm:py-1 max-sm:text-right max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:font-semibold max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)]",
  /** The card's heading cell (no label on phones). */
  head: "p-2 max-sm:block max-sm:px-0 max-sm:pb-2 max-sm:pt-0",
} as const;
