import { type DealStatus, STATUS_COLORS, STATUS_LABELS } from "../../lib/deals/rules.ts";

export function StatusChip({ status }: { status: DealStatus }) {
  return (
    <span
      class={`inline-block whitespace-nowrap rounded-full px-3 py-1 text-xs font-semibold ${
        STATUS_COLORS[status]
      }`}
      data-status={status}
    >
      {STATUS_LABELS[status]}
    </span>
  );
}
