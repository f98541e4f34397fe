// The deal page when its token matches no quote a customer may see yet (unknown, or not sent):
// 'Devis non disponible' (spec 000 §2), answered with 404.
import { DEAL_MESSAGES } from "../../../lib/deals/rules.ts";

export function DealNotAvailable() {
  return (
    <section class="mx-auto max-w-xl px-4 py-20 text-center" data-testid="deal-unavailable">
      <h1 class="text-2xl font-bold">{DEAL_MESSAGES.unavailable}</h1>
      <p class="mt-3 text-slate-600">
        Ce devis n'existe pas, ou il est encore en préparation : vous recevrez un email dès qu'il sera prêt.
      </p>
      <div class="mt-8 flex flex-wrap justify-center gap-3">
        <a
          href="/"
          class="inline-block rounded-full bg-brand-500 px-5 py-2 font-semibold text-white hover:bg-brand-600"
        >
          Retour à l'accueil
        </a>
        <a
          href="/demande-de-devis"
          class="inline-block rounded-full border border-slate-300 px-5 py-2 font-semibold"
        >
          Demander un devis
        </a>
      </div>
    </section>
  );
}

/** A quote the customer received that is with a partner again (a new partner, or an edit to
 * revalidate): 'Votre devis est en cours de mise à jour' (issue "Invoices…" §3), answered with 200. */
export function DealBeingUpdated() {
  return (
    <section class="mx-auto max-w-xl px-4 py-20 text-center" data-testid="deal-being-updated">
      <h1 class="text-2xl font-bold">{DEAL_MESSAGES.beingUpdated}</h1>
      <p class="mt-3 text-slate-600">
        Votre devis est en cours de mise à jour par notre partenaire : vous recevrez un email dès que la
        nouvelle version sera prête.
      </p>
      <div class="mt-8 flex flex-wrap justify-center gap-3">
        <a
          href="/"
          class="inline-block rounded-full bg-brand-500 px-5 py-2 font-semibold text-white hover:bg-brand-600"
        >
          Retour à l'accueil
        </a>
      </div>
    </section>
  );
}
