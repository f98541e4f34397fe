// The quote engine's settings pages: the admin's 'Paramètres' and 'Grille tarifaire' tabs, and a
// partner's 'Ma grille tarifaire' and 'Mes cocktails'.
import type { CommissionTier, PricingConfig } from "../../../lib/deals/pricing.ts";
import type { Catalogue, NamedSetting } from "../../../lib/deals/settings.ts";
import { Island } from "../../Island.tsx";
import { PageTitle } from "../../dashboard/parts.tsx";
import { AdminDealsTabs } from "../list/tabs.tsx";
import DeviseurSettingsForm, {
  type DeviseurSettingsFormProps,
} from "../../../islands/DeviseurSettingsForm.tsx";
import PricingGridForm from "../../../islands/PricingGridForm.tsx";
import CocktailCatalogue from "../../../islands/CocktailCatalogue.tsx";
import {
  COMMISSION_KEY,
  FLAG_KEYS,
  type FlagKey,
  isOn,
  PRICING_KEY,
  SETTINGS_KEY,
  TEXT_KEYS,
  type TextKey,
} from "./keys.ts";

function Note({ children }: { children: preact.ComponentChildren }) {
  return (
    <div class="mb-6 max-w-4xl rounded-xl border border-brand-100 bg-brand-50 p-4 text-sm text-slate-700">
      {children}
    </div>
  );
}

/** The form's props from the stored values of DEVISEUR_KEYS (GET /api/settings/{key} values). */
function deviseurFormProps(values: Record<string, unknown>): DeviseurSettingsFormProps {
  return {
    settings: Array.isArray(values[SETTINGS_KEY]) ? values[SETTINGS_KEY] as NamedSetting[] : [],
    commissionTiers: Array.isArray(values[COMMISSION_KEY]) ? values[COMMISSION_KEY] as CommissionTier[] : [],
    texts: Object.fromEntries(
      TEXT_KEYS.map((key) => [key, typeof values[key] === "string" ? values[key] : ""]),
    ) as Record<TextKey, string>,
    flags: Object.fromEntries(FLAG_KEYS.map((key) => [key, isOn(values[key])])) as Record<FlagKey, boolean>,
  };
}

export function AdminSettingsPage({ values }: { values: Record<string, unknown> }) {
  const props = deviseurFormProps(values);
  return (
    <>
      <PageTitle>Devis</PageTitle>
      <AdminDealsTabs current="settings" />
      <Island component={DeviseurSettingsForm} props={props} />
    </>
  );
}

export function AdminPricingPage({ config }: { config: PricingConfig }) {
  return (
    <>
      <PageTitle>Devis</PageTitle>
      <AdminDealsTabs current="pricing" />
      <Note>
        <p>
          Cette grille tarifaire est la grille par défaut. Les partenaires la prennent comme base et peuvent
          la personnaliser dans leur page « Ma grille tarifaire » ; les devis des partenaires qui ne l'ont pas
          personnalisée sont calculés avec elle.
        </p>
      </Note>
      <Island
        component={PricingGridForm}
        props={{
          initial: config,
          loadUrl: `/api/settings/${PRICING_KEY}`,
          saveUrl: `/api/settings/${PRICING_KEY}`,
        }}
      />
    </>
  );
}

export function PartnerPricingPage(
  { config, userId, own }: { config: PricingConfig; userId: string; own: boolean },
) {
  const url = `/api/company/settings/${PRICING_KEY}/${userId}`;
  return (
    <>
      <PageTitle>Ma grille tarifaire</PageTitle>
      <Note>
        <p>
          Vos devis sont calculés avec cette grille : le nombre de cocktails selon les invités et la durée du
          service, leur prix selon la quantité et la carte choisie, le nombre de barmans et leur coût selon la
          durée, et les frais forfaitaires (déplacement, bar mobile, création de recettes). Tous les prix sont
          en € HT et comprennent la verrerie.
        </p>
        <p class="mt-2" data-testid="pricing-origin">
          {own
            ? "Vous avez personnalisé votre grille : elle calcule les devis des demandes qui vous sont confiées."
            : "Vous utilisez la grille par défaut de la plateforme : modifiez-la puis sauvegardez pour la personnaliser."}
        </p>
      </Note>
      <Island
        component={PricingGridForm}
        props={{ initial: config, loadUrl: url, fallbackUrl: `/api/settings/${PRICING_KEY}`, saveUrl: url }}
      />
    </>
  );
}

export function PartnerCocktailsPage({ userId, catalogue }: { userId: string; catalogue: Catalogue }) {
  return (
    <>
      <PageTitle>Mes cocktails</PageTitle>
      <p class="mb-6 max-w-3xl text-sm text-slate-600">
        Les cocktails que vous proposez à vos clients, par carte. Leur ordre est celui dans lequel le client
        les découvre sur son devis.
      </p>
      <Island component={CocktailCatalogue} props={{ userId, catalogue }} />
    </>
  );
}
