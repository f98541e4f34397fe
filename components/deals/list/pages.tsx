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

export function PartnerDealsPage(
  { rows, total, page, perPage }: { rows: DealListRow[]; total: number; page: number; perPage: number },
) {
  const first = (page - 1) * perPage + 1;
  return (
    <>
      <PageTitle>Mes devis</PageTitle>
      {total === 0
        ? (
          <EmptyState>
            Aucun devis pour le moment. Les demandes que l'équipe vous confie apparaîtront ici.
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
              href={(p) => `${PARTNER_DEALS_PATH}?page=${p}`}
              label="Pages des devis"
            />
          </>
        )}
    </>
  );
}
