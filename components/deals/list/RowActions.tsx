// The actions of a row of the admin list: download the quote, view it on the site, edit it, and the
// button of the row menu. Two by two in the table, so that the actions column stays narrow.
import type { JSX } from "preact";
import { Icon } from "../../ui/Icon.tsx";
import { QUOTE_DOWNLOAD_LABEL, quoteDownloadPath } from "../../../lib/billing/links.ts";
import { ACTION_ICON, ACTION_LINK } from "./DealListView.tsx";
import { type DealListRow, editDealPath, publicDealPath } from "./rows.ts";

export function RowActions({ row, layout, menuOpen, openMenu }: {
  row: DealListRow;
  layout: "table" | "card";
  menuOpen: boolean;
  openMenu: (row: DealListRow, event: JSX.TargetedMouseEvent<HTMLButtonElement>) => void;
}) {
  const table = layout === "table";
  return (
    <div class={table ? "grid grid-cols-2 gap-1" : "contents"}>
      <a
        href={quoteDownloadPath(row.id)}
        target="_blank"
        rel="noopener"
        class={table ? ACTION_ICON : ACTION_LINK}
        title={QUOTE_DOWNLOAD_LABEL}
        aria-label={`${QUOTE_DOWNLOAD_LABEL} #${row.id}`}
        data-testid="download-quote"
      >
        <Icon name="download" class="h-4 w-4" />
        {!table && "Devis"}
      </a>
      <a
        href={publicDealPath(row.token)}
        target="_blank"
        rel="noopener"
        class={table ? ACTION_ICON : ACTION_LINK}
        title="Voir sur le site"
        aria-label={table ? `Voir le devis #${row.id} sur le site` : `Voir sur le site, devis #${row.id}`}
      >
        <Icon name="eye" class="h-4 w-4" />
        {!table && "Voir sur le site"}
      </a>
      <a
        href={editDealPath(row.id)}
        class={table ? ACTION_ICON : ACTION_LINK}
        title="Editer/Détails"
        aria-label={table ? `Éditer le devis #${row.id}` : `Editer/Détails, devis #${row.id}`}
      >
        <Icon name="pencil" class="h-4 w-4" />
        {!table && "Editer/Détails"}
      </a>
      <button
        type="button"
        class={ACTION_ICON}
        title="Plus d'actions"
        aria-label={`Plus d'actions pour le devis #${row.id}`}
        aria-haspopup="menu"
        aria-expanded={menuOpen}
        data-testid="row-menu"
        onClick={(e) => openMenu(row, e)}
      >
        <Icon name="dots" class="h-4 w-4" />
      </button>
    </div>
  );
}
