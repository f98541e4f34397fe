// The deal page's header (spec 001 §2.1): a back link (the admin deals list for an admin, the partner's
// quotes otherwise), the deal's name, its status chip, its creation date (DD/MM/YYYY HH:mm), for an
// admin the HubSpot id and the partner's name, and the quote download link (GET /quote/download/{id}:
// the deal as the viewer may read it).
import { dateTimeFr } from "../../../lib/deals/format.ts";
import { StatusChip } from "../StatusChip.tsx";
import { useDeal } from "./controller.tsx";
import { DealIcon } from "./icons.tsx";
import { QUOTE_DOWNLOAD_LABEL, quoteDownloadPath } from "../../../lib/billing/links.ts";

export function DealHeader({ backHref }: { backHref: string }) {
  const { deal, isAdmin } = useDeal();
  return (
    <header class="mb-4">
      <a
        href={backHref}
        class="inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-brand-600"
        data-testid="back-link"
      >
        <DealIcon name="back" class="h-4 w-4" />
        {isAdmin ? "Retour à la liste des devis" : "Retour à mes devis"}
      </a>
      <div class="mt-2 flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <h1 class="min-w-0 break-words text-xl font-bold sm:text-2xl" data-testid="deal-name">{deal.name}</h1>
        <a
          href={quoteDownloadPath(deal.id)}
          target="_blank"
          rel="noopener"
          class="inline-flex shrink-0 items-center gap-2 rounded-full border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:border-brand-500 hover:text-brand-700"
          data-testid="download-quote"
        >
          <DealIcon name="download" class="h-4 w-4" />
          {QUOTE_DOWNLOAD_LABEL}
        </a>
      </div>
      <div class="mt-2 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-600">
        <StatusChip status={deal.status} />
        <span data-testid="deal-created">Créé le {dateTimeFr(deal.createdAt)}</span>
        {isAdmin && (
          <>
            <span data-testid="deal-hubspot">HubSpot : {deal.hubspotId || "—"}</span>
            <span data-testid="deal-partner">
              Partenaire : {deal.company ? deal.company.name : "aucun partenaire choisi"}
            </span>
          </>
        )}
      </div>
    </header>
  );
}
