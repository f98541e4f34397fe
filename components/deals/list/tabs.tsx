// The admin deals screen's tab bar (spec 001 §2.12): three tabs, three server pages.
export const ADMIN_DEALS_PATH = "/dashboard/admin/devis";

export type AdminDealsTab = "list" | "settings" | "pricing";

const TABS: { tab: AdminDealsTab; label: string; path: string }[] = [
  { tab: "list", label: "Liste des devis", path: ADMIN_DEALS_PATH },
  { tab: "settings", label: "Paramètres", path: `${ADMIN_DEALS_PATH}/parametres` },
  { tab: "pricing", label: "Grille tarifaire", path: `${ADMIN_DEALS_PATH}/grille-tarifaire` },
];

export function AdminDealsTabs({ current }: { current: AdminDealsTab }) {
  return (
    <nav aria-label="Onglets des devis" class="mb-6 overflow-x-auto border-b border-slate-200">
      <ul class="flex min-w-max gap-1 text-sm">
        {TABS.map(({ tab, label, path }) => (
          <li key={tab}>
            <a
              href={path}
              aria-current={tab === current ? "page" : undefined}
              class={`-mb-px inline-block border-b-2 px-3 py-2.5 font-semibold sm:px-4 ${
                tab === current
                  ? "border-brand-500 text-brand-700"
                  : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
              }`}
            >
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
