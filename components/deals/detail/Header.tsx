// The deal page's header (spec 001 §2.1): a back link (the admin deals list for an admin, the partner's
// quotes otherwise), the deal's name, its status chip, its creation date (DD/MM/YYYY HH:mm), and for
// an admin the HubSpot id and the partner's name. (The quote download link comes with billing.)
import { dateTimeFr } from "../../../lib/deals/format.ts";
import { StatusChip } from "../StatusChip.tsx";
import { useDeal } from "./controller.tsx";
import { DealIcon } from "./icons.tsx";

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
      <h1 class="mt-2 break-words text-xl font-bold sm:text-2xl" data-testid="deal-name">{deal.name}</h1>
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
