// Shared helpers for the end-to-end tests: demo accounts, unique identities, login and registration.
import { expect, type Locator, type Page } from "@playwright/test";
import { menuFor } from "../../../lib/dashboard/menu.ts";

export const DEMO_PASSWORD = "Cocktail#2026";

export const DEMO = {
  admin: {
    email: "admin@example.fr",
    name: "Alice Martin",
    type: "Admin",
    home: "/dashboard/admin/utilisateurs",
  },
  partner: { email: "partenaire@example.fr", name: "Paul Durand", type: "Company", home: "/dashboard" },
  partner2: { email: "partenaire2@example.fr", name: "Inès Moreau", type: "Company", home: "/dashboard" },
  client: {
    email: "client@example.fr",
    name: "Camille Bernard",
    type: "Customer",
    home: "/dashboard/demandes-en-cours",
  },
  client2: {
    email: "client2@example.fr",
    name: "Hugo Petit",
    type: "Customer",
    home: "/dashboard/demandes-en-cours",
  },
} as const;

let counter = 0;

/** A short identifier unique within and across runs. */
export function uniqueId(): string {
  counter++;
  return `${Date.now().toString(36)}${counter.toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/** A French mobile number (07…, never one of the demo 06 numbers) unique for this run. */
export function uniquePhone(): string {
  counter++;
  const digits = `${Date.now() % 1_000_000}`.padStart(6, "0") + `${counter % 100}`.padStart(2, "0");
  return `07${digits}`;
}

export function uniqueEmail(prefix = "e2e"): string {
  return `${prefix}.${uniqueId()}@example.test`;
}

export interface NewAccount {
  firstname: string;
  lastname: string;
  birthdate: string;
  address: string;
  zipcode: string;
  city: string;
  phone: string;
  email: string;
  password: string;
  name?: string;
  siren?: string;
}

export function newAccount(overrides: Partial<NewAccount> = {}): NewAccount {
  const id = uniqueId();
  return {
    firstname: "Léa",
    lastname: `Testeuse-${id}`,
    birthdate: "1990-05-14",
    address: "12 rue des Lilas",
    zipcode: "75011",
    city: "Paris",
    phone: uniquePhone(),
    email: uniqueEmail(),
    password: "MotDePasse#2026",
    ...overrides,
  };
}

/** The login/register card of the AuthForm island (the one on /login). */
export function authCard(scope: Page | Locator): Locator {
  return scope.getByTestId("auth-card");
}

/** The per-field error of a form (`<p id="<form>-<field>-error" data-error-for="<field>">`). */
export function authFieldError(scope: Page | Locator, field: string): Locator {
  return scope.locator(`[data-error-for="${field}"]`);
}

/** A French number as the profile shows it: "0712345678" → "07 12 34 56 78". */
export function displayedPhone(phone: string): string {
  return phone.replace(/\s/g, "").replace(/(\d{2})(?=\d)/g, "$1 ");
}

/** Records the requests the page sends to paths ending with `suffix`, from now on. */
export function requestsTo(page: Page, suffix: string): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith(suffix)) seen.push(`${request.method()} ${request.url()}`);
  });
  return seen;
}

/** Logs in through the /login form and waits for the landing page of the account. */
export async function loginThroughForm(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto("/login");
  const card = authCard(page);
  await expect(card).toHaveAttribute("data-mode", "login");
  await card.getByLabel("Email", { exact: true }).fill(email);
  await card.getByLabel("Mot de passe", { exact: true }).fill(password);
  await Promise.all([
    page.waitForURL((url) => !url.pathname.startsWith("/login") && !url.pathname.startsWith("/after")),
    card.getByRole("button", { name: "Se connecter" }).click(),
  ]);
}

/** Creates a customer account through the registration API (the session cookie lands in the page's
 * browser context, so the page is logged in afterwards). */
export async function registerViaApi(page: Page, overrides: Partial<NewAccount> = {}): Promise<NewAccount> {
  const account = newAccount(overrides);
  const response = await page.request.post("/api/security/registration", {
    data: {
      ...account,
      passwordConfirmation: account.password,
      professional: Boolean(account.name || account.siren),
      terms: true,
      privacy: true,
      age: true,
      optin: true,
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return account;
}

/** The labels of a role's side menu, in order, as lib/dashboard/menu.ts defines them (the menu grows
 * with each capability; tests check the page shows this list and what each role must or must not
 * have). */
export function menuLabels(type: "Admin" | "Company" | "Customer"): string[] {
  return menuFor(type).map((route) => route.label);
}

/** The side menu of the dashboard. */
export function dashboardMenu(page: Page): Locator {
  return page.getByRole("navigation", { name: "Menu du tableau de bord" });
}

/** The visible flash message (CSS-animated, top right). */
export function flash(page: Page, text: string): Locator {
  return page.locator("[data-flash-type]", { hasText: text });
}

/** Logs in through the login API (no form, so it works with JavaScript turned off too): the session
 * cookie lands in the page's browser context. */
export async function loginViaApi(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  const response = await page.request.post("/api/security/login", { data: { username: email, password } });
  expect(response.status(), await response.text()).toBe(200);
}

/** The cities of the demo data, in their order (lib/seed/demo.ts). */
export const DEMO_CITIES: { slug: string; name: string }[] = [
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
].map(([slug, name]) => ({ slug, name }));

/** The body of POST /api/deal/request for a visitor (a birthday in Lyon in 90 days, 60 guests,
 * signature cocktails, 3 h of service), with `overrides` on top; a fresh phone each time. */
export function quoteRequestData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const lastname = String(overrides.lastname ?? `Demande-${uniqueId()}`);
  return {
    type_d_evenement: "Anniversaire",
    deal_prestation_date: new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10),
    horaire_souhaite: "19:00",
    nombre_de_participants: 60,
    duree_2_service: 180,
    ville: "Lyon",
    adresse_precise: "",
    distance_en_km: null,
    bar_mobile: false,
    type_de_recette: "signature",
    creation_de_recette: false,
    description: "",
    firstname: "Margaux",
    lastname,
    email: `${lastname.toLowerCase()}@example.test`,
    phone: uniquePhone(),
    consent: true,
    ...overrides,
  };
}
