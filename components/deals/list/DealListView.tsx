// A list of deals as a table on wide screens and as cards on phones (no horizontal scrolling at
// 390 px), shared by the partner's 'Mes devis' (server-rendered) and the admin list (an island).
// Columns of spec 001 §2.9 and §2.12; the caller gives the actions of each row.
import type { ComponentChildren, JSX } from "preact";
import { formatEuros } from "../../../lib/money.ts";
import { isoDateFr } from "../../../lib/deals/format.ts";
import { StatusChip } from "../StatusChip.tsx";
import { type DealListRow, paidOf, type SortKey } from "./rows.ts";

export interface SortControl {
  key: SortKey;
  direction: "asc" | "desc";
  /** The URL of the list sorted by `key` (works without JavaScript). */
  href: (key: SortKey) => string;
  onSort?: (key: SortKey, event: JSX.TargetedMouseEvent<HTMLAnchorElement>) => void;
}

interface Props {
  rows: DealListRow[];
  /** The admin list shows the partner of each deal. */
  showPartner: boolean;
  /** A row's actions: compact in the table, roomier on a card. */
  actions: (row: DealListRow, layout: "table" | "card") => ComponentChildren;
  sort?: SortControl;
  /** Rows being changed (dimmed). */
  busyIds?: number[];
}

const TH = "px-2 py-3 align-bottom font-semibold";
// The cells' padding and alignment are set once on the tbody (TBODY), not on each of 225 cells: a page
// of 25 rows stays under 150 kB of HTML ("Production, part 2" §6).
const TBODY = "[&>tr]:border-t [&>tr]:border-slate-100 [&>tr>td]:px-2 [&>tr>td]:py-3 [&>tr>td]:align-top";
const CARDS =
  "space-y-3 xl:hidden [&>li]:rounded-xl [&>li]:border [&>li]:border-slate-200 [&>li]:bg-white [&>li]:p-4 [&>li]:text-sm [&_dt]:text-xs [&_dt]:text-slate-500";

function RequestId({ row }: { row: DealListRow }) {
  return (
    <>
      <span class="font-semibold text-slate-900">#{row.id}</span>
      {row.name && <span class="deal-list-name">{row.name}</span>}
      {row.hubspotId && (
        <span class="block text-xs text-slate-400" title="Identifiant HubSpot">HubSpot {row.hubspotId}</span>
      )}
    </>
  );
}

function Amount({ row }: { row: DealListRow }) {
  const paid = paidOf(row);
  return (
    <>
      <span class="whitespace-nowrap font-semibold">{formatEuros(row.totalHt)}</span>
      {paid && (
        <span class="block text-xs font-medium text-emerald-700" data-testid="deal-paid">
          {paid.label} : <span class="whitespace-nowrap">{formatEuros(paid.cents)}</span>
        </span>
      )}
    </>
  );
}

function SortableHeader(
  { label, column, sort, align = "left", nowrap = false }: {
    label: string;
    column: SortKey;
    sort?: SortControl;
    align?: "left" | "right";
    nowrap?: boolean;
  },
) {
  const cls = `${TH} ${align === "right" ? "text-right" : "text-left"} ${nowrap ? "whitespace-nowrap" : ""}`;
  if (!sort) return <th class={cls} scope="col">{label}</th>;
  const active = sort.key === column;
  return (
    <th
      class={cls}
      scope="col"
      aria-sort={active ? (sort.direction === "asc" ? "ascending" : "descending") : undefined}
    >
      <a
        href={sort.href(column)}
        class={`inline-flex items-center gap-1 hover:text-brand-700 ${active ? "text-slate-900" : ""}`}
        onClick={sort.onSort ? (e) => sort.onSort!(column, e) : undefined}
        data-sort={column}
      >
        {label}
        <span aria-hidden="true" class={active ? "" : "opacity-30"}>
          {active && sort.direction === "asc" ? "▲" : "▼"}
        </span>
      </a>
    </th>
  );
}

export function DealListView({ rows, showPartner, actions, sort, busyIds = [] }: Props) {
  return (
    <>
      {/* Wide screens: a table (scrolls sideways inside its frame if the screen is still too narrow). */}
      <div class="hidden overflow-x-auto rounded-xl border border-slate-200 bg-white xl:block">
        <table class="w-full text-left text-sm" data-testid="deals-table">
          <thead class="bg-slate-50 text-slate-600">
            <tr>
              <SortableHeader label="# Demande" column="id" sort={sort} />
              <th class={TH} scope="col">Client</th>
              <SortableHeader label="Date presta" column="serviceDate" sort={sort} />
              <th class={`${TH} text-right`} scope="col">Nb de pax</th>
              <th class={TH} scope="col">Type d'evt</th>
              {showPartner && <th class={TH} scope="col">Partenaire</th>}
              <SortableHeader label="Montant HT" column="totalHt" sort={sort} align="right" nowrap />
              <th class={TH} scope="col">Statut</th>
              <th class={`${TH} text-right`} scope="col">Actions</th>
            </tr>
          </thead>
          <tbody class={TBODY}>
            {rows.map((row) => (
              <tr
                key={row.id}
                class={busyIds.includes(row.id) ? "opacity-50" : undefined}
                data-deal-id={row.id}
              >
                <td>
                  <RequestId row={row} />
                </td>
                <td>{row.customerName || "—"}</td>
                <td class="whitespace-nowrap">{isoDateFr(row.serviceDate)}</td>
                <td class="text-right">{row.guests ?? "—"}</td>
                <td>{row.eventType || "—"}</td>
                {showPartner && (
                  <td data-testid="deal-partner">
                    {row.companyName ?? <span class="italic text-slate-400">Aucun partenaire</span>}
                  </td>
                )}
                <td class="text-right">
                  <Amount row={row} />
                </td>
                <td class="min-w-[7rem] [&>span]:whitespace-normal">
                  <StatusChip status={row.status} />
                </td>
                <td class="w-px text-right">
                  <div class="flex items-center justify-end gap-1">{actions(row, "table")}</div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {/* Phones and tablets: one card per deal. */}
      <ul class={CARDS} data-testid="deals-cards">
        {rows.map((row) => (
          <li
            key={row.id}
            class={busyIds.includes(row.id) ? "opacity-50" : undefined}
            data-deal-id={row.id}
          >
            <div class="flex items-start justify-between gap-3">
              <div class="min-w-0">
                <RequestId row={row} />
              </div>
              <StatusChip status={row.status} />
            </div>
            <dl class="mt-3 grid grid-cols-2 gap-x-4 gap-y-2">
              <div>
                <dt>Client</dt>
                <dd>{row.customerName || "—"}</dd>
              </div>
              <div>
                <dt>Date presta</dt>
                <dd>{isoDateFr(row.serviceDate)}</dd>
              </div>
              <div>
                <dt>Nb de pax</dt>
                <dd>{row.guests ?? "—"}</dd>
              </div>
              <div>
                <dt>Type d'evt</dt>
                <dd>{row.eventType || "—"}</dd>
              </div>
              {showPartner && (
                <div>
                  <dt>Partenaire</dt>
                  <dd>{row.companyName ?? <span class="italic text-slate-400">Aucun partenaire</span>}</dd>
                </div>
              )}
              <div>
                <dt>Montant HT</dt>
                <dd>
                  <Amount row={row} />
                </dd>
              </div>
            </dl>
            <div class="mt-3 flex flex-wrap items-center justify-end gap-2 border-t border-slate-100 pt-3">
              {actions(row, "card")}
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

export const ACTION_LINK = "deal-action-link";
/** An icon-only action of the table (its name in aria-label and title). */
export const ACTION_ICON = "deal-action-icon";
