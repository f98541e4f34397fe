// The 'Aperçu' tab (spec 001 §2.2), in the spec's order: the lock banner (and, for a partner, the
// 'Modifications désactivées' chip), the refused banner, 'Demande client', 'Commentaires Admin',
// 'Coordonnées', 'Lignes du devis', then 'Statut en cours', 'Indicateurs clés', 'État des paiements'
// and the action row — one column on a phone, two on a wide screen.
import { DEAL_MESSAGES } from "../../../lib/deals/rules.ts";
import { useDeal } from "./controller.tsx";
import { RequestCards } from "./RequestCards.tsx";
import { AdminComments } from "./AdminComments.tsx";
import { ContactSection } from "./ContactSection.tsx";
import { QuoteLines } from "./QuoteLines.tsx";
import { StatusSection } from "./StatusSection.tsx";
import { KeyFigures } from "./KeyFigures.tsx";
import { Payments } from "./Payments.tsx";
import { Actions } from "./Actions.tsx";
import { Banner } from "./ui.tsx";
import { DealIcon } from "./icons.tsx";
import type { HistoryEntry } from "./types.ts";

export function PreviewTab({ history }: { history: HistoryEntry[] }) {
  const { deal, isAdmin, locked } = useDeal();
  return (
    <div class="space-y-4">
      {locked && (
        <div class="flex flex-wrap items-center gap-2">
          <div class="flex-1">
            <Banner tone="warning" testId="locked-banner">{DEAL_MESSAGES.locked}</Banner>
          </div>
          {!isAdmin && (
            <span
              class="inline-flex items-center gap-1 rounded-full bg-slate-800 px-3 py-1 text-xs font-semibold text-white"
              data-testid="locked-chip"
            >
              <DealIcon name="lock" class="h-3.5 w-3.5" />
              {DEAL_MESSAGES.editsDisabledChip}
            </span>
          )}
        </div>
      )}
      {deal.refusalBanner && (
        <Banner tone={deal.status === "refused_client" ? "warning" : "error"} testId="refused-banner">
          {deal.refusalBanner}
        </Banner>
      )}
      <div class="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div class="min-w-0 space-y-4">
          <RequestCards />
          <AdminComments />
          <ContactSection />
          <QuoteLines />
        </div>
        <div class="min-w-0 space-y-4">
          <StatusSection history={history} />
          <KeyFigures />
          <Payments />
          <Actions />
        </div>
      </div>
    </div>
  );
}
