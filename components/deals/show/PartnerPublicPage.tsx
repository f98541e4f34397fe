// The public card of a partner, /bar/{slug} (linked from a quote's partner profile block): its name,
// its city and its cocktail catalogue. No contact details, no JavaScript.
import type { PartnerProfile } from "../../../lib/partners/profile_actions.ts";
import { COCKTAIL_LIST_LABELS } from "../../../lib/deals/rules.ts";

const LISTS = ["signature", "classic", "mocktail"] as const;

export function PartnerPublicPage({ profile }: { profile: PartnerProfile }) {
  const lists = LISTS.filter((list) => profile.cocktails[list].length > 0);
  return (
    <div class="bg-slate-50 pb-12">
      <header class="bg-gradient-to-br from-brand-50 via-white to-white">
        <div class="mx-auto max-w-5xl px-4 py-10 sm:py-14">
          <p class="text-sm font-semibold uppercase tracking-wide text-brand-700">
            Bar à cocktails partenaire
          </p>
          <h1 class="mt-2 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
            {profile.name}
          </h1>
          {profile.city && <p class="mt-2 text-slate-600" data-testid="partner-city">{profile.city}</p>}
          <a
            href="/demande-de-devis"
            class="mt-6 inline-block rounded-full bg-brand-500 px-6 py-3 font-semibold text-white shadow-sm hover:bg-brand-600"
          >
            Demander un devis
          </a>
        </div>
      </header>
      <div class="mx-auto max-w-5xl space-y-4 px-4">
        {lists.length === 0
          ? (
            <p class="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-500">
              La carte des cocktails de ce partenaire sera bientôt en ligne.
            </p>
          )
          : lists.map((list) => (
            <section
              key={list}
              class="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
              data-testid={`partner-cocktails-${list}`}
            >
              <h2 class="mb-4 text-lg font-bold sm:text-xl">{COCKTAIL_LIST_LABELS[list]}</h2>
              <ul class="grid gap-3 sm:grid-cols-2">
                {profile.cocktails[list].map((cocktail, i) => (
                  <li key={i} class="rounded-xl border border-slate-200 p-3">
                    <p class="font-semibold text-slate-900">{cocktail.name}</p>
                    {cocktail.description && (
                      <p class="mt-0.5 text-sm text-slate-600">{cocktail.description}</p>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          ))}
      </div>
    </div>
  );
}
