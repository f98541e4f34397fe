// 'Demander un devis' (/demande-de-devis): the request form island beside a short "how it works".
import { Island } from "../../Island.tsx";
import DealRequestForm, { type DealRequestFormProps } from "../../../islands/DealRequestForm.tsx";
import { ALCOHOL_WARNING } from "../../../lib/site/brand.ts";

export const REQUEST_PAGE_TITLE = "Demander un devis";

const STEPS: [string, string][] = [
  ["Décrivez votre événement", "Quelques questions, deux minutes : nous calculons aussitôt une estimation."],
  [
    "Un bartender confirme",
    "Un partenaire près de chez vous vérifie sa disponibilité et prépare la carte des cocktails.",
  ],
  [
    "Choisissez et réservez",
    "Vous choisissez vos cocktails et réglez un acompte en ligne, en toute sécurité.",
  ],
];

export function RequestPage({ form }: { form: DealRequestFormProps }) {
  return (
    <>
      <section class="bg-gradient-to-br from-brand-50 to-white">
        <div class="mx-auto max-w-6xl px-4 pb-6 pt-10 md:pb-8 md:pt-14">
          <p class="text-sm font-semibold uppercase tracking-wide text-brand-600">Devis gratuit en ligne</p>
          <h1 class="mt-2 text-3xl font-extrabold leading-tight md:text-4xl">{REQUEST_PAGE_TITLE}</h1>
          <p class="mt-3 max-w-2xl text-slate-600 md:text-lg">
            Un bar à cocktails avec ses bartenders pour votre mariage, votre séminaire ou votre anniversaire :
            décrivez votre événement et découvrez tout de suite une estimation de votre prestation.
          </p>
        </div>
      </section>
      <div class="mx-auto grid max-w-6xl gap-8 px-4 pb-14 pt-4 lg:grid-cols-[minmax(0,1fr)_320px]">
        <div>
          <Island component={DealRequestForm} props={form} />
        </div>
        <aside class="space-y-5 lg:sticky lg:top-6 lg:self-start" aria-label="Comment ça marche">
          <div class="rounded-2xl bg-slate-50 p-5">
            <h2 class="text-lg font-bold">Comment ça marche ?</h2>
            <ol class="mt-3 space-y-4">
              {STEPS.map(([title, text], i) => (
                <li key={title} class="flex gap-3 text-sm">
                  <span class="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-white text-xs font-bold text-brand-600 ring-1 ring-brand-100">
                    {i + 1}
                  </span>
                  <span>
                    <span class="block font-semibold">{title}</span>
                    <span class="text-slate-600">{text}</span>
                  </span>
                </li>
              ))}
            </ol>
          </div>
          <ul class="space-y-2 rounded-2xl border border-slate-200 p-5 text-sm text-slate-700">
            <li>✓ Devis gratuit et sans engagement</li>
            <li>✓ Verrerie comprise dans nos tarifs</li>
            <li>✓ Cartes avec ou sans alcool</li>
            <li>✓ Paiement sécurisé par carte</li>
          </ul>
          <p class="text-xs text-slate-500">{ALCOHOL_WARNING}</p>
        </aside>
      </div>
    </>
  );
}
