// 'Indicateurs clés' (spec 001 §2.2, §9): price per person and per cocktail (the quote's total HT
// divided by participants or cocktails), cocktails, staff, totals HT and TTC, and 'Gestion de projet'
// (the half of the management fee billed to the client).
import { euros, numberFr } from "../../../lib/deals/format.ts";
import { useDeal } from "./controller.tsx";
import { Section } from "./ui.tsx";

function Tile({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div class="rounded-lg bg-slate-50 px-3 py-2" data-testid={testId}>
      <dt class="text-xs text-slate-500">{label}</dt>
      <dd class="text-base font-bold tabular-nums text-slate-900">{value}</dd>
    </div>
  );
}

export function KeyFigures() {
  const { deal } = useDeal();
  const t = deal.totals;
  const rate = deal.parameters.commissionRate;
  return (
    <Section id="deal-figures" title="Indicateurs clés" testId="deal-figures">
      <dl class="grid grid-cols-2 gap-2">
        <Tile label="Prix par personne" value={euros(t.pricePerPerson)} testId="figure-per-person" />
        <Tile
          label="Prix moyen par cocktail"
          value={euros(t.averageCocktailPrice)}
          testId="figure-per-cocktail"
        />
        <Tile label="Cocktails" value={String(deal.calculations.nbCocktails)} testId="figure-cocktails" />
        <Tile label="Staff" value={String(deal.calculations.officialStaffCount)} testId="figure-staff" />
        <Tile label="Total HT" value={euros(t.totalInvoiceByPartner)} testId="figure-total-ht" />
        <Tile label="Total TTC" value={euros(t.totalTTC)} testId="figure-total-ttc" />
      </dl>
      <dl class="mt-3 space-y-1 text-sm">
        <div class="flex justify-between gap-2">
          <dt class="text-slate-600">Prestations (lignes) HT</dt>
          <dd class="tabular-nums">{euros(t.totalCost)}</dd>
        </div>
        <div class="flex justify-between gap-2" data-testid="figure-project-management">
          <dt class="text-slate-600">Gestion de projet</dt>
          <dd class="tabular-nums">{euros(t.projectManagement)}</dd>
        </div>
        <div class="flex justify-between gap-2">
          <dt class="text-slate-600">Gestion de projet totale ({numberFr(rate)}&nbsp;%)</dt>
          <dd class="tabular-nums">{euros(t.managementFee)}</dd>
        </div>
        <div class="flex justify-between gap-2">
          <dt class="text-slate-600">TVA ({numberFr(deal.parameters.vat)}&nbsp;%)</dt>
          <dd class="tabular-nums">{euros(t.vatAmount)}</dd>
        </div>
        <div class="flex justify-between gap-2">
          <dt class="text-slate-600">Commission fixe</dt>
          <dd class="tabular-nums">{euros(t.fixedCommission)}</dd>
        </div>
      </dl>
    </Section>
  );
}
