// Public pages of the site: home, city pages, the list of cities, legal pages.
import type { City, CityPage as CityData } from "../../lib/site/chrome.ts";
import { ALCOHOL_WARNING } from "../../lib/site/brand.ts";
import { Island } from "../Island.tsx";
import AuthDialog from "../../islands/AuthDialog.tsx";

function CityChips({ cities }: { cities: City[] }) {
  return (
    <ul class="mt-6 flex flex-wrap gap-2">
      {cities.map((city) => (
        <li key={city.slug}>
          <a
            href={`/ville/${city.slug}`}
            class="inline-block rounded-full bg-slate-100 px-4 py-1.5 text-sm hover:bg-brand-100"
          >
            {city.name}
          </a>
        </li>
      ))}
    </ul>
  );
}

const REQUEST_URL = "/demande-de-devis";

/** Label, `?evenement=` slug of the request form (components/deals/request/rules.ts), and a line. */
const EVENT_LINKS: [string, string, string][] = [
  ["Mariage", "mariage", "Vin d'honneur ou soirée dansante, une carte à votre image."],
  ["Séminaire", "seminaire", "Un afterwork ou une soirée d'entreprise réussie."],
  ["Team building", "team-building", "Un atelier cocktails pour fédérer vos équipes."],
  ["Anniversaire", "anniversaire", "Des cocktails servis à vos invités toute la soirée."],
];

export function HomePage({ cities, loggedIn }: { cities: City[]; loggedIn: boolean }) {
  return (
    <>
      <section class="bg-gradient-to-br from-brand-50 to-white">
        <div class="mx-auto max-w-6xl px-4 py-20">
          <h1 class="max-w-2xl text-4xl font-extrabold leading-tight md:text-5xl">
            Un bar à cocktails sur mesure pour votre événement
          </h1>
          <p class="mt-5 max-w-xl text-lg text-slate-600">
            Mariages, séminaires, anniversaires : nos bartenders partenaires composent votre carte et servent
            vos invités. Recevez un devis, choisissez vos cocktails et réglez en ligne en toute sécurité.
          </p>
          <div class="mt-8 flex flex-wrap gap-3">
            <a
              href={REQUEST_URL}
              class="rounded-full bg-brand-500 px-6 py-3 font-semibold text-white shadow-sm hover:bg-brand-600"
              data-testid="home-request-quote"
            >
              Demander un devis
            </a>
            {loggedIn
              ? (
                <a
                  href="/dashboard"
                  class="rounded-full border border-slate-300 bg-white px-6 py-3 font-semibold hover:border-brand-500"
                >
                  Mon espace
                </a>
              )
              : (
                <Island
                  component={AuthDialog}
                  props={{
                    buttons: [
                      {
                        label: "Créer mon compte",
                        className:
                          "rounded-full border border-slate-300 bg-white px-6 py-3 font-semibold hover:border-brand-500",
                        mode: "register",
                      },
                      {
                        label: "J'ai déjà un compte",
                        className: "rounded-full px-4 py-3 font-semibold text-slate-700 hover:text-brand-600",
                        mode: "login",
                      },
                    ],
                  }}
                />
              )}
          </div>
          <p class="mt-3 text-sm text-slate-500">Estimation immédiate, gratuite et sans engagement.</p>
        </div>
      </section>
      <section class="mx-auto max-w-6xl px-4 pt-12">
        <h2 class="text-2xl font-bold">Pour quel événement ?</h2>
        <ul class="mt-6 grid grid-cols-2 gap-3 md:grid-cols-4">
          {EVENT_LINKS.map(([label, slug, text]) => (
            <li key={slug}>
              <a
                href={`${REQUEST_URL}?evenement=${slug}`}
                class="block h-full rounded-xl border border-slate-200 p-4 hover:border-brand-500 hover:bg-brand-50"
              >
                <span class="block font-semibold">{label}</span>
                <span class="mt-1 block text-sm text-slate-600">{text}</span>
              </a>
            </li>
          ))}
        </ul>
      </section>
      {cities.length > 0 && (
        <section class="mx-auto max-w-6xl px-4 py-12">
          <h2 class="text-2xl font-bold">Nous intervenons près de chez vous</h2>
          <CityChips cities={cities} />
          <p class="mt-4 text-sm">
            <a href="/villes" class="text-brand-600 hover:underline">Toutes nos villes</a>
          </p>
        </section>
      )}
    </>
  );
}

export function CitiesPage({ cities }: { cities: City[] }) {
  return (
    <section class="mx-auto max-w-4xl px-4 py-14">
      <h1 class="text-3xl font-extrabold">Nos villes</h1>
      <p class="mt-4 text-slate-700">
        Nos bartenders partenaires se déplacent dans toute la France. Choisissez votre ville pour découvrir
        notre bar à cocktails événementiel près de chez vous.
      </p>
      {cities.length === 0
        ? <p class="mt-8 text-slate-500">Aucune ville pour l'instant.</p>
        : <CityChips cities={cities} />}
    </section>
  );
}

export function CityPage({ city }: { city: CityData }) {
  return (
    <section class="mx-auto max-w-4xl px-4 py-14">
      <p class="text-sm font-semibold uppercase tracking-wide text-brand-600">{city.name}</p>
      <h1 class="mt-2 text-4xl font-extrabold">Bar à cocktails événementiel à {city.name}</h1>
      <p class="mt-5 text-lg leading-relaxed text-slate-700">{city.intro}</p>
      <ul class="mt-8 grid gap-4 md:grid-cols-3">
        <li class="rounded-xl border border-slate-200 p-5">
          <p class="font-semibold">Des bartenders près de {city.name}</p>
          <p class="mt-1 text-sm text-slate-600">
            Des partenaires de la région, qui connaissent vos lieux de réception.
          </p>
        </li>
        <li class="rounded-xl border border-slate-200 p-5">
          <p class="font-semibold">Une carte à votre image</p>
          <p class="mt-1 text-sm text-slate-600">
            Cocktails signature, classiques ou sans alcool, et créations sur mesure.
          </p>
        </li>
        <li class="rounded-xl border border-slate-200 p-5">
          <p class="font-semibold">Paiement sécurisé</p>
          <p class="mt-1 text-sm text-slate-600">
            Un acompte ou le montant total, par carte, depuis votre devis en ligne.
          </p>
        </li>
      </ul>
      <p class="mt-8">
        <a
          href={`${REQUEST_URL}?ville=${encodeURIComponent(city.name)}`}
          class="inline-block rounded-full bg-brand-500 px-6 py-3 font-semibold text-white hover:bg-brand-600"
        >
          Demander un devis
        </a>
      </p>
      <p class="mt-8 text-xs text-slate-500">{ALCOHOL_WARNING}</p>
    </section>
  );
}

export function LegalPage(
  { title, sections }: { title: string; sections: { title: string; text: string }[] },
) {
  return (
    <article class="mx-auto max-w-3xl px-4 py-12">
      <h1 class="text-3xl font-bold">{title}</h1>
      {sections.map((s) => (
        <section key={s.title} class="mt-8">
          <h2 class="text-xl font-semibold">{s.title}</h2>
          <p class="mt-2 leading-relaxed text-slate-700">{s.text}</p>
        </section>
      ))}
    </article>
  );
}
