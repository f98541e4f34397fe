// The cocktails of the quote: the deal's customer chooses among them (CocktailChoice island); everyone
// else reads the list, with the chosen ones marked for the deal's partner and admins.
import type { PublicDeal } from "../../../lib/deals/use_cases/public_deal.ts";
import { COCKTAIL_LIST_LABELS } from "../../../lib/deals/rules.ts";
import { Island } from "../../Island.tsx";
import CocktailChoice from "../../../islands/CocktailChoice.tsx";
import type { DealShowView } from "./view.ts";
import { Card, CheckIcon } from "./ui.tsx";

export function CocktailsSection({ page, view }: { page: PublicDeal; view: DealShowView }) {
  const { deal, proposedCocktails } = page;
  const listType = deal.settings.cocktailListType;
  const cocktails = proposedCocktails.map((c) => ({ id: c.id, name: c.name, description: c.description }));
  const showChoices = view.isCustomer || view.relation === "partner" || view.relation === "admin";
  const chosen = new Set(showChoices ? deal.choices.cocktails : []);
  return (
    <Card
      title={
        <span class="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <span>Vos cocktails</span>
          {listType && (
            <span class="text-sm font-medium text-slate-500">{COCKTAIL_LIST_LABELS[listType]}</span>
          )}
        </span>
      }
      testId="cocktails"
    >
      {cocktails.length === 0
        ? <p class="text-sm text-slate-600">La carte des cocktails vous sera proposée prochainement.</p>
        : view.canChoose
        ? (
          <Island
            component={CocktailChoice}
            props={{
              token: deal.token,
              max: deal.settings.nbCocktailsAuthorized,
              cocktails,
              chosen: deal.choices.cocktails.filter((id) => cocktails.some((c) => c.id === id)),
            }}
          />
        )
        : (
          <>
            {view.relation === "anonymous" && (
              <p class="mb-3 text-sm text-slate-600">
                Connectez-vous pour choisir jusqu'à {deal.settings.nbCocktailsAuthorized}{" "}
                cocktails de cette carte.
              </p>
            )}
            <ul class="grid gap-2 sm:grid-cols-2" data-testid="cocktail-list">
              {cocktails.map((c) => (
                <li
                  key={c.id}
                  class={`flex items-start gap-3 rounded-xl border-2 p-3 ${
                    chosen.has(c.id) ? "border-brand-500 bg-brand-50" : "border-slate-200"
                  }`}
                  data-chosen={chosen.has(c.id) ? "true" : undefined}
                >
                  {chosen.has(c.id) && (
                    <span class="mt-0.5 rounded-full bg-brand-500 p-0.5 text-white" title="Choisi">
                      <CheckIcon />
                    </span>
                  )}
                  <span class="min-w-0">
                    <span class="block font-semibold text-slate-900">{c.name}</span>
                    {c.description && <span class="mt-0.5 block text-sm text-slate-600">{c.description}
                    </span>}
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
    </Card>
  );
}
