// The instant estimate shown once a quote request is sent (by the island, or by the page when the
// form was posted without JavaScript): the request in brief, the priced lines with the 'Gestion de
// projet' line, totals HT and TTC, the price per person, and what happens next. Amounts in cents, all
// computed by the server's quote engine.
import { durationLabel } from "../../../lib/deals/rules.ts";
import { isoDateFr, numberFr } from "../../../lib/deals/format.ts";
import { formatEuros } from "../../../lib/money.ts";
import type { RequestOutcome, RequestValues } from "./rules.ts";

function plural(n: number, one: string, many: string): string {
  return `${numberFr(n)} ${n > 1 ? many : one}`;
}

export function Estimate({ outcome, values, onRestart }: {
  outcome: RequestOutcome;
  values: RequestValues;
  /** The island resets the form; without JavaScript the button is a link back to the empty form. */
  onRestart?: () => void;
}) {
  const { estimate } = outcome;
  const duration = Number(values.duree_2_service);
  const facts = [
    values.type_d_evenement,
    isoDateFr(values.deal_prestation_date),
    values.horaire_souhaite ? `à partir de ${values.horaire_souhaite.replace(":", "h")}` : null,
    plural(Number(values.nombre_de_participants), "invité", "invités"),
    duration ? `${durationLabel(duration)} de service` : null,
    values.ville.trim(),
  ].filter(Boolean) as string[];

  return (
    <div class="space-y-6" data-testid="request-estimate" data-token={outcome.token}>
      <div class="rounded-2xl bg-emerald-50 p-5 text-emerald-900" role="status">
        <p class="text-lg font-bold">
          Merci {values.firstname.trim()}, votre demande de devis est bien envoyée !
        </p>
        <p class="mt-1 text-sm">
          Un email de confirmation vient de partir à <strong>{values.email.trim()}</strong>{" "}
          (pensez à vérifier vos courriers indésirables).
        </p>
      </div>

      <section class="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm md:p-6">
        <h2 class="text-xl font-bold">Votre estimation immédiate</h2>
        <ul class="mt-3 flex flex-wrap gap-2 text-xs" aria-label="Votre événement">
          {facts.map((fact) => <li key={fact} class="rounded-full bg-slate-100 px-3 py-1">{fact}</li>)}
        </ul>

        <dl class="mt-5 grid grid-cols-3 gap-2 text-center">
          <div class="rounded-xl bg-brand-50 px-2 py-3">
            <dt class="text-xs text-slate-600">Cocktails</dt>
            <dd class="text-xl font-extrabold text-brand-700" data-testid="estimate-cocktails">
              {numberFr(estimate.nbCocktails)}
            </dd>
          </div>
          <div class="rounded-xl bg-brand-50 px-2 py-3">
            <dt class="text-xs text-slate-600">{estimate.staff > 1 ? "Bartenders" : "Bartender"}</dt>
            <dd class="text-xl font-extrabold text-brand-700" data-testid="estimate-staff">
              {estimate.staff}
            </dd>
          </div>
          <div class="rounded-xl bg-brand-50 px-2 py-3">
            <dt class="text-xs text-slate-600">Par personne HT</dt>
            <dd class="text-xl font-extrabold text-brand-700" data-testid="estimate-per-person">
              {formatEuros(estimate.pricePerPerson)}
            </dd>
          </div>
        </dl>

        <table class="mt-5 w-full text-sm">
          <caption class="sr-only">Détail de l'estimation, montants hors taxes</caption>
          <thead>
            <tr class="border-b border-slate-200 text-left text-xs uppercase tracking-wide text-slate-500">
              <th scope="col" class="py-2 font-semibold">Prestation</th>
              <th scope="col" class="py-2 text-right font-semibold">Montant HT</th>
            </tr>
          </thead>
          <tbody>
            {estimate.lines.map((line) => (
              <tr key={line.label} class="border-b border-slate-100 align-top">
                <td class="py-2 pr-3">
                  <span class="font-medium">{line.label}</span>
                  <span class="block text-xs text-slate-500">
                    {numberFr(line.qty)} × {formatEuros(line.unitCost)}
                  </span>
                </td>
                <td class="whitespace-nowrap py-2 text-right tabular-nums">{formatEuros(line.totalCost)}</td>
              </tr>
            ))}
            {estimate.projectManagement > 0 && (
              <tr class="border-b border-slate-100">
                <td class="py-2 pr-3 font-medium">Gestion de projet</td>
                <td class="whitespace-nowrap py-2 text-right tabular-nums">
                  {formatEuros(estimate.projectManagement)}
                </td>
              </tr>
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" class="pt-3 text-left font-semibold">Total HT</th>
              <td class="pt-3 text-right font-semibold tabular-nums" data-testid="estimate-total-ht">
                {formatEuros(estimate.totalHT)}
              </td>
            </tr>
            <tr class="text-slate-600">
              <th scope="row" class="py-1 text-left font-normal">TVA</th>
              <td class="py-1 text-right tabular-nums">{formatEuros(estimate.vatAmount)}</td>
            </tr>
            <tr class="text-lg">
              <th scope="row" class="pt-1 text-left font-extrabold">Total TTC</th>
              <td
                class="pt-1 text-right font-extrabold text-brand-700 tabular-nums"
                data-testid="estimate-total-ttc"
              >
                {formatEuros(estimate.totalTTC)}
              </td>
            </tr>
          </tfoot>
        </table>
        <p class="mt-4 text-xs text-slate-500">
          Estimation indicative, sans engagement : le devis définitif est établi par le bartender partenaire
          qui prendra en charge votre événement.
        </p>
      </section>

      <section class="rounded-2xl border border-slate-200 bg-white p-5 md:p-6">
        <h2 class="text-lg font-bold">Et maintenant ?</h2>
        <ol class="mt-3 space-y-3 text-sm text-slate-700">
          <li class="flex gap-3">
            <span class="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-brand-500 text-xs font-bold text-white">
              1
            </span>
            <span>
              Un bartender partenaire près de chez vous confirme sa disponibilité à votre date et prépare la
              carte des cocktails.
            </span>
          </li>
          <li class="flex gap-3">
            <span class="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-brand-500 text-xs font-bold text-white">
              2
            </span>
            <span>Vous recevez votre devis par email, avec un lien pour le consulter en ligne.</span>
          </li>
          <li class="flex gap-3">
            <span class="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-brand-500 text-xs font-bold text-white">
              3
            </span>
            <span>
              Vous choisissez vos cocktails et réglez un acompte par carte pour réserver votre date.
            </span>
          </li>
        </ol>
      </section>

      <p>
        {onRestart
          ? (
            <button
              type="button"
              onClick={onRestart}
              class="rounded-full border border-slate-300 px-5 py-2 text-sm font-semibold hover:border-brand-500"
            >
              Faire une autre demande
            </button>
          )
          : (
            <a
              href="/demande-de-devis"
              class="inline-block rounded-full border border-slate-300 px-5 py-2 text-sm font-semibold hover:border-brand-500"
            >
              Faire une autre demande
            </a>
          )}
      </p>
    </div>
  );
}
