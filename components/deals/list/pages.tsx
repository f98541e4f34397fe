// The deals lists' pages: the admin's 'Liste des devis' tab (an island over the server's first page)
// and the partner's 'Mes devis' (server-rendered, no JavaScript; its invoices menu is a <details>).
import { Island } from "../../Island.tsx";
import { EmptyState, PageTitle } from "../../dashboard/parts.tsx";
import { Icon } from "../../ui/Icon.tsx";
import AdminDealsList from "../../../islands/AdminDealsList.tsx";
import { ACTION_LINK, DealListView } from "./DealListView.tsx";
import { type AdminListQuery, type DealListRow, editDealPath, publicDealPath, rowDocuments } from "./rows.ts";
import { InvoicesMenu } from "./InvoicesMenu.tsx";
import { PageLinks } from "../../ui/PageLinks.tsx";
import { ADMIN_DEALS_PATH, AdminDealsTabs } from "./tabs.tsx";
import { DEAL_STATUSES, type DealStatus, STATUS_LABELS } from "../../../lib/deals/rules.ts";

export function AdminDealsListPage(
  { rows, total, query }: { rows: DealListRow[]; total: number; query: AdminListQuery },
) {
  return (
    <>
      <PageTitle>Devis</PageTitle>
      <AdminDealsTabs current="list" />
      <Island
        component={AdminDealsList}
        props={{ rows, total, query, basePath: ADMIN_DEALS_PATH }}
      />
    </>
  );
}

export const PARTNER_DEALS_PATH = "/dashboard/partenaire/devis";

/** The statuses a partner's 'Mes devis' filters on ('start' is the admin's only). */
export const PARTNER_STATUS_CHOICES: DealStatus[] = DEAL_STATUSES.filter((s) => s !== "start");

/** 'Statut' of 'Mes devis': a plain GET form (no JavaScript), back to the first page. */
function PartnerStatusFilter({ status }: { status: DealStatus | null }) {
  return (
    <form
      method="get"
      action={PARTNER_DEALS_PATH}
      class="mb-4 flex flex-wrap items-end gap-3 text-sm"
      role="search"
      data-testid="partner-status-filter"
    >
      <label class="block">
        <span class="mb-1 block font-medium text-slate-700">Statut</span>
        <select name="status" class="rounded-lg border border-slate-300 bg-white px-2 py-1.5">
          <option value="" selected={!status}>Tous les statuts</option>
          {PARTNER_STATUS_CHOICES.map((s) => (
            <option key={s} value={s} selected={s === status}>{STATUS_LABELS[s]}</option>
          ))}
        </select>
      </label>
      <button type="submit" class="rounded-lg bg-slate-800 px-4 py-2 font-semibold text-white">
        Filtrer
      </button>
      {status && (
        <a href={PARTNER_DEALS_PATH} class="rounded-lg border border-slate-300 px-4 py-2 font-medium">
          Réinitialiser
        </a>
      )}
    </form>
  );
}

export function PartnerDealsPage(
  { rows, total, page, perPage, status = null }: {
    rows: DealListRow[];
    total: number;
    page: number;
    perPage: number;
    /** The status filter ('?status='), or null for every status. */
    status?: DealStatus | null;
  },
) {
  const first = (page - 1) * perPage + 1;
  return (
    <>
      <PageTitle>Mes devis</PageTitle>
      {(total > 0 || status) && <PartnerStatusFilter status={status} />}
      {total === 0
        ? (
          <EmptyState>
            {status
              ? `Aucun devis au statut « ${STATUS_LABELS[status]} ».`
              : "Aucun devis pour le moment. Les demandes que l'équipe vous confie apparaîtront ici."}
          </EmptyState>
        )
        : (
          <>
            <p class="mb-3 text-sm text-slate-600" data-testid="deals-range">
              {rows.length === 0
                ? `Aucun devis sur cette page (${total} devis au total).`
                : `Devis ${first} à ${first + rows.length - 1} sur ${total}, du plus récent au plus ancien`}
            </p>
            <DealListView
              rows={rows}
              showPartner={false}
              actions={(row, layout) => (
                <div
                  class={`flex gap-1.5 ${
                    layout === "table" ? "flex-col items-stretch" : "flex-wrap justify-end"
                  }`}
                >
                  <a href={publicDealPath(row.token)} target="_blank" rel="noopener" class={ACTION_LINK}>
                    <Icon name="eye" class="h-4 w-4" />
                    Voir sur le site
                  </a>
                  <a href={editDealPath(row.id)} class={ACTION_LINK}>
                    <Icon name="pencil" class="h-4 w-4" />
                    Editer/Détails
                  </a>
                  <InvoicesMenu documents={rowDocuments(row)} dealId={row.id} />
                </div>
              )}
            />
            <PageLinks
              page={page}
              total={total}
              perPage={perPage}
              href={(p) => `${PARTNER_DEALS_PATH}?${status ? `status=${status}&` : ""}page=${p}`}
              label="Pages des devis"
            />
          </>
        )}
    </>
  );
}
