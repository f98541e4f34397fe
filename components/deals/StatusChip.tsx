import { type DealStatus, STATUS_COLORS, STATUS_LABELS } from "../../lib/deals/rules.ts";

// The chip's shape is the class status-chip (static/styles.css): lists repeat it on every row.
export function StatusChip({ status }: { status: DealStatus }) {
  return (
    <span
      class={`status-chip ${STATUS_COLORS[status]}`}
      data-status={status}
    >
      {STATUS_LABELS[status]}
    </span>
  );
}
