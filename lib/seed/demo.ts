// Demo data for a newcomer: cities, the six menus, an admin, two partners and two customers, all
// with the password Cocktail#2026 and a complete profile (each one saves 'Mon profil' as it is), and
// their quotes in every status (demo_deals.ts).
// Loaded on first start of an empty database (never in production) and by `deno task seed`. Later
// capabilities add their own demo records here.
import { statementAs, systemActor, transactionAs } from "../actor.ts";
import type { Database, Tx } from "../db/database.ts";
import { createAccount } from "../auth/actions.ts";
import { issueDealInvoices } from "../billing/use_cases/issue_invoices.ts";
import { type Config, loadConfig } from "../config.ts";
import type { MenuCode } from "../site/chrome.ts";
import { invalidateSiteChrome } from "../site/chrome.ts";
import { seedDemoDeals } from "./demo_deals.ts";
import { seedDemoSessions } from "./demo_sessions.ts";
import { seedDemoOrders } from "./demo_orders.ts";

const SEED = systemActor("seed");

export const DEMO_PASSWORD = "Cocktail#2026";

const DEMO_ACCOUNTS = [
  {
    type: "Admin",
    email: "admin@example.fr",
    address1: "8 rue de Rivoli",
    zipcode: "75004",
    city: "Paris",
    birthdate: "1984-03-12",
    firstname: "Alice",
    lastname: "Martin",
    phone: "0600000001",
  },
  {
    type: "Company",
    email: "partenaire@example.fr",
    address1: "14 quai Saint-Antoine",
    zipcode: "69002",
    city: "Lyon",
    birthdate: "1979-09-05",
    firstname: "Paul",
    lastname: "Durand",
    name: "Shaker & Co",
    siren: "123456789",
    // FR + key + SIREN, key = (12 + 3 × (SIREN mod 97)) mod 97 (lib/accounts/rules.ts frenchVatNumber).
    vatNumber: "FR32123456789",
    phone: "0600000002",
  },
  {
    type: "Company",
    email: "partenaire2@example.fr",
    address1: "3 cours Julien",
    zipcode: "13006",
    city: "Marseille",
    birthdate: "1988-06-21",
    firstname: "Inès",
    lastname: "Moreau",
    name: "Mixologie Events",
    siren: "987654321",
    vatNumber: "FR05987654321",
    phone: "0600000003",
  },
  {
    type: "Customer",
    email: "client@example.fr",
    address1: "27 rue Sainte-Catherine",
    zipcode: "33000",
    city: "Bordeaux",
    birthdate: "1992-11-02",
    firstname: "Camille",
    lastname: "Bernard",
    phone: "0600000004",
  },
  {
    type: "Customer",
    email: "client2@example.fr",
    address1: "5 place du Capitole",
    zipcode: "31000",
    city: "Toulouse",
    birthdate: "1995-04-17",
    firstname: "Hugo",
    lastname: "Petit",
    phone: "0600000005",
  },
] as const;

export const DEMO_CITIES: [string, string][] = [
  ["paris", "Paris"],
  ["lyon", "Lyon"],
  ["marseille", "Marseille"],
  ["bordeaux", "Bordeaux"],
  ["toulouse", "Toulouse"],
  ["nantes", "Nantes"],
  ["lille", "Lille"],
  ["nice", "Nice"],
  ["strasbourg", "Strasbourg"],
  ["montpellier", "Montpellier"],
  ["rennes", "Rennes"],
  ["grenoble", "Grenoble"],
  ["annecy", "Annecy"],
  ["aix-en-provence", "Aix-en-Provence"],
  ["biarritz", "Biarritz"],
  ["dijon", "Dijon"],
  ["reims", "Reims"],
  ["tours", "Tours"],
];

/** Label, url, opens in a new tab, CSS class. */
type DemoMenuItem = [string, string, boolean?, string?];

const MENUS: Record<MenuCode, { label: string; items: DemoMenuItem[] }> = {
  main: {
    label: "Menu principal",
    items: [
      ["Bar à cocktails", "/"],
      ["Nos villes", "/villes"],
      ["Ateliers cocktails", "/sessions"],
      ["Devenir partenaire", "/devenir-partenaire"],
      ["Demander un devis", "/demande-de-devis", false, "font-semibold text-brand-600"],
    ],
  },
  tools: { label: "Outils", items: [["Espace client", "/dashboard"], ["Espace partenaire", "/dashboard"]] },
  social: {
    label: "Réseaux sociaux",
    items: [["Instagram", "https://www.instagram.com/", true], [
      "Facebook",
      "https://www.facebook.com/",
      true,
    ]],
  },
  footer1: {
    label: "Pied de page 1",
    items: [
      ["Bar à cocktails pour votre événement", "/demande-de-devis"],
      ["Bar à cocktails pour mariage", "/demande-de-devis?evenement=mariage"],
      ["Bar à cocktails pour séminaire", "/demande-de-devis?evenement=seminaire"],
      ["Bar à cocktails pour anniversaire", "/demande-de-devis?evenement=anniversaire"],
      ["Ateliers cocktails", "/sessions"],
      ["Nos villes", "/villes"],
    ],
  },
  footer2: {
    label: "Pied de page 2",
    items: [["Devenir partenaire", "/devenir-partenaire"], ["Mon compte", "/dashboard"]],
  },
  bottom: {
    label: "Bas de page",
    items: [["Conditions générales", "/cgu-cgv"], [
      "Politique de confidentialité",
      "/politique-de-confidentialite",
    ]],
  },
};

async function seedSite(tx: Tx) {
  for (const [position, [slug, name]] of DEMO_CITIES.entries()) {
    await tx`insert into public.cities (slug, name, intro, position)
             values (${slug}, ${name}, ${`Pour un mariage, un séminaire ou un anniversaire à ${name}, nos bartenders partenaires installent un bar à cocktails et composent une carte à votre image.`}, ${position})
             on conflict (slug) do nothing`;
  }
  for (const [code, menu] of Object.entries(MENUS)) {
    await tx`insert into public.menus (code, label) values (${code}, ${menu.label}) on conflict (code) do nothing`;
    const [{ count }] = await tx<
      { count: number }
    >`select count(*)::int as count from public.menu_items where menu_code = ${code}`;
    if (count > 0) continue;
    for (const [position, [label, url, isBlank, cssClass]] of menu.items.entries()) {
      await tx`insert into public.menu_items (menu_code, position, label, url, is_blank, css_class)
               values (${code}, ${position}, ${label}, ${url}, ${isBlank ?? false}, ${cssClass ?? ""})`;
    }
  }
}

/** Idempotent: existing accounts and cities are left as they are. */
/** `config` gives the platform's identity printed on the demo invoices (the environment's by default). */
export async function seedDemoData(
  db: Database,
  config: Pick<Config, "platform" | "appUrl"> = loadConfig(),
): Promise<void> {
  await transactionAs(db, SEED, (tx) => seedSite(tx));
  for (const account of DEMO_ACCOUNTS) {
    const [existing] = await statementAs(db, SEED, "select 1 from public.users where email = $1", [
      account.email,
    ]);
    if (!existing) await createAccount({ db }, SEED, { ...account, password: DEMO_PASSWORD });
  }
  // The demo partners charge VAT: a database seeded before they had VAT numbers gets them (a quote is
  // not sent without one).
  for (const account of DEMO_ACCOUNTS) {
    if (account.type !== "Company") continue;
    await statementAs(
      db,
      SEED,
      "update public.users set vat_number = $1 where email = $2 and type = 'Company' and vat_number is null",
      [account.vatNumber, account.email],
    );
  }
  // Quotes in every status, the engine's settings and the partners' catalogues (lib/seed/demo_deals.ts).
  await transactionAs(db, SEED, (tx) => seedDemoDeals(tx));
  // Cocktail workshops and their dates (lib/seed/demo_sessions.ts).
  await transactionAs(db, SEED, (tx) => seedDemoSessions(tx));
  // Their paid registrations, through the checkout's own functions (lib/seed/demo_orders.ts).
  await transactionAs(
    db,
    SEED,
    (tx) => seedDemoOrders(tx, { platform: config.platform, appUrl: config.appUrl }),
  );
  // The demo payments' invoices and commission invoices, as the billing job would issue them.
  const unbilled = await statementAs<{ id: number }>(
    db,
    SEED,
    `select distinct deal_id as id from public.deal_payments p
     where p.deal_id is not null and not exists (select from public.invoices i where i.payment_id = p.id and i.series = 'FA') order by 1`,
  );
  for (const { id } of unbilled) await issueDealInvoices({ db, config }, id);
  invalidateSiteChrome();
}

export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  const [{ count }] = await statementAs<{ count: number }>(
    db,
    SEED,
    "select count(*)::int as count from public.users",
  );
  return count === 0;
}
