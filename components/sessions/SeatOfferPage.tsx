// The waiting list's link: the place set aside for the subscriber, and one button (a form: no JavaScript
// needed) that puts it in the cart. When the link no longer works, why, and the way back to the dates.
import { formatDateTime, OPS_MESSAGES } from "../../lib/sessions/rules.ts";
import type { SeatOfferView } from "../../lib/sessions/use_cases/seat_offer.ts";

const PARIS_TIME = new Intl.DateTimeFormat("fr-FR", {
  timeZone: "Europe/Paris",
  hour: "2-digit",
  minute: "2-digit",
});

const REFUSALS = {
  used: OPS_MESSAGES.offerUsed,
  expired: OPS_MESSAGES.offerExpired,
  canceled: "Cette date a été annulée.",
  closed: "Cette date n'est plus ouverte aux réservations.",
  past: "Cette date est passée.",
} as const;

export function SeatOfferPage({ offer }: { offer: SeatOfferView }) {
  return (
    <section class="mx-auto max-w-xl px-4 py-10" data-testid="seat-offer">
      <h1 class="text-2xl font-bold">{OPS_MESSAGES.offerTitle}</h1>
      <div class="mt-4 rounded-2xl border border-slate-200 bg-white p-5">
        <p class="text-lg font-semibold">{offer.sessionTitle}</p>
        <p class="text-slate-600">{formatDateTime(offer.dtstart)}</p>
        {offer.state === "offered"
          ? (
            <>
              <p class="mt-3">
                Une place vous est gardée jusqu'à{" "}
                <strong>{PARIS_TIME.format(new Date(offer.expiresAt * 1000))}</strong>. Ajoutez-la à votre
                panier pour la réserver.
              </p>
              <form method="post" action={`/date/alert/offre/${offer.token}`} class="mt-4">
                <button
                  type="submit"
                  class="rounded-full bg-brand-500 px-6 py-2.5 font-semibold text-white hover:bg-brand-600"
                >
                  {OPS_MESSAGES.offerTake}
                </button>
              </form>
            </>
          )
          : (
            <p class="mt-3 rounded-lg bg-amber-50 p-3 text-amber-900" role="status">
              {REFUSALS[offer.state]}
            </p>
          )}
      </div>
      <p class="mt-6">
        <a href={`/session/${offer.sessionSlug}`} class="font-semibold text-brand-600 underline">
          Voir les dates de l'atelier
        </a>
      </p>
    </section>
  );
}
