// The public gift voucher page /bons-cadeaux (the menus' 'Bons cadeaux'): what a voucher is and how it
// works, then the purchase form for a signed-in customer, a login link for visitors (buying needs a
// customer account: the invoice is in their name and the voucher is listed in 'Vos bons cadeaux'), and
// a note for partners and admins, who cannot buy.
import { Island } from "../Island.tsx";
import VoucherPurchase from "../../islands/VoucherPurchase.tsx";
import { formatEuros } from "../../lib/money.ts";
import { VOUCHER_MESSAGES, VOUCHER_PRICE_CENTS } from "../../lib/vouchers/rules.ts";

export function PublicVouchersPage(
  { viewer, senderName, today }: {
    viewer: "anonymous" | "customer" | "other";
    senderName: string;
    today: string;
  },
) {
  const price = formatEuros(VOUCHER_PRICE_CENTS);
  return (
    <section class="mx-auto max-w-4xl px-4 py-10">
      <h1 class="text-3xl font-bold">Bons cadeaux</h1>
      <p class="mt-3 text-lg text-slate-700">
        Offrez un atelier cocktail : un bon cadeau de {price}, valable un an sur toutes nos sessions.
      </p>
      <ol class="mt-6 grid gap-4 sm:grid-cols-3">
        <li class="rounded-2xl border bg-white p-5">
          <p class="font-semibold">1. Vous l'offrez</p>
          <p class="mt-1 text-sm text-slate-600">
            Indiquez le bénéficiaire, son email, un message et le jour où il le recevra.
          </p>
        </li>
        <li class="rounded-2xl border bg-white p-5">
          <p class="font-semibold">2. Il le reçoit</p>
          <p class="mt-1 text-sm text-slate-600">
            Le jour choisi, un email lui apporte son code et son bon cadeau à imprimer (PDF).
          </p>
        </li>
        <li class="rounded-2xl border bg-white p-5">
          <p class="font-semibold">3. Il choisit son atelier</p>
          <p class="mt-1 text-sm text-slate-600">
            Il saisit le code dans son panier : le montant est déduit, en une ou plusieurs fois, pendant un
            an.
          </p>
        </li>
      </ol>
      <div class="mt-8 rounded-2xl border bg-white p-6" id="offrir">
        <h2 class="mb-4 text-xl font-semibold">Offrir un bon cadeau</h2>
        {viewer === "customer" && (
          <Island component={VoucherPurchase} props={{ mode: "inline", senderName, today }} />
        )}
        {viewer === "anonymous" && (
          <p>
            {VOUCHER_MESSAGES.loginToBuy}{" "}
            <a
              class="font-semibold text-brand-700 underline"
              href={`/login?redirect=${encodeURIComponent("/bons-cadeaux")}`}
              data-testid="voucher-login"
            >
              Se connecter ou créer un compte
            </a>
          </p>
        )}
        {viewer === "other" && <p>{VOUCHER_MESSAGES.customersOnly}</p>}
      </div>
      <p class="mt-6 text-sm text-slate-600">
        Déjà un code ? Réservez un <a class="underline" href="/sessions">atelier cocktail</a>{" "}
        et saisissez-le dans votre panier.
      </p>
    </section>
  );
}
