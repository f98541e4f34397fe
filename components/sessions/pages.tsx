// Public sessions pages: the catalogue (/sessions), a session with its dates (/session/{slug}) and the
// cart (/panier). The dates and the cart lines are islands rendered on the server: the prices and
// places are in the HTML, and the booking forms post without JavaScript.
import { Island } from "../Island.tsx";
import SessionDates from "../../islands/SessionDates.tsx";
import CartLines from "../../islands/CartLines.tsx";
import { formatEuros } from "../../lib/money.ts";
import { type DateOffer, firstDates, formatDateTime } from "../../lib/sessions/rules.ts";
import type { CatalogueEntry } from "../../lib/sessions/use_cases/list_sessions.ts";
import type { SessionRow } from "../../lib/sessions/store.ts";
import type { CartView } from "../../lib/sessions/use_cases/read_cart.ts";

export function CataloguePage({ entries }: { entries: CatalogueEntry[] }) {
  return (
    <section class="mx-auto max-w-5xl px-4 py-10">
      <h1 class="text-3xl font-bold">Ateliers cocktails</h1>
      <p class="mt-2 text-slate-600">
        Apprenez à composer vos cocktails avec nos bartenders, en petit groupe.
      </p>
      {entries.length === 0 && <p class="mt-6">Aucun atelier n'est proposé pour l'instant.</p>}
      <ul class="mt-6 grid gap-4 sm:grid-cols-2">
        {entries.map((entry) => (
          <li key={entry.slug} class="rounded-2xl border p-5" data-testid="session-card">
            <h2 class="text-xl font-semibold">
              <a href={`/session/${entry.slug}`} class="hover:underline">{entry.title}</a>
            </h2>
            <p class="text-sm text-slate-600">{entry.city}</p>
            {entry.nextDates.length > 0
              ? (
                <p class="mt-2 text-sm">
                  Prochaines dates : {entry.nextDates.map((d) => formatDateTime(d)).join(", ")}
                </p>
              )
              : <p class="mt-2 text-sm">Prochaines dates bientôt annoncées.</p>}
            {entry.priceFrom !== null && (
              <p class="mt-2 font-semibold">À partir de {formatEuros(entry.priceFrom)} par personne</p>
            )}
            <a
              href={`/session/${entry.slug}`}
              class="mt-3 inline-block font-semibold text-brand-600 underline"
            >
              Voir les dates
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function SessionPage({ session, offers, start, end }: {
  session: SessionRow;
  offers: DateOffer[];
  start: string;
  end: string;
}) {
  const { shown, more } = firstDates(offers);
  return (
    <section class="mx-auto max-w-4xl px-4 py-10">
      <p class="text-sm">
        <a href="/sessions" class="underline">Ateliers cocktails</a> › {session.city}
      </p>
      <h1 class="mt-2 text-3xl font-bold">{session.title}</h1>
      <p class="text-slate-600">{session.city}</p>
      {session.photos.length > 0 && (
        <div class="mt-4 grid grid-cols-2 gap-2 sm:grid-cols-3">
          {session.photos.slice(0, 6).map((src) => (
            <img
              key={src}
              src={src}
              alt=""
              loading="lazy"
              class="aspect-video w-full rounded-lg object-cover"
            />
          ))}
        </div>
      )}
      {session.description && <p class="mt-4 whitespace-pre-line">{session.description}</p>}
      <div class="mt-8">
        <Island component={SessionDates} props={{ slug: session.slug, offers: shown, start, end, more }} />
      </div>
      <p class="mt-6">
        <a href="/panier" class="font-semibold text-brand-600 underline">Voir mon panier</a>
      </p>
    </section>
  );
}

export function CartPage(
  { cart, canPay, returnedIntent, voucher = null }: {
    cart: CartView;
    canPay: boolean;
    returnedIntent: string | null;
    /** The gift voucher applied to the customer's cart (lib/vouchers). */
    voucher?: { remaining: number } | null;
  },
) {
  return (
    <section class="mx-auto max-w-3xl px-4 py-10">
      <h1 class="text-3xl font-bold">Mon panier</h1>
      <p class="mt-2 text-slate-600">
        Les places d'une ligne vous sont gardées {cart.holdMinutes} minutes après chaque ajout ou changement,
        {" "}
        {cart.holdMinutes * 2} minutes au plus après le premier ajout.
      </p>
      <div class="mt-6">
        <Island
          component={CartLines}
          props={{
            lines: cart.lines,
            now: cart.now,
            canPay,
            returnedIntent,
            voucher,
            holdExpired: cart.holdExpired,
          }}
        />
      </div>
      <p class="mt-6">
        <a href="/sessions" class="underline">Continuer vers les ateliers</a>
      </p>
    </section>
  );
}
