// The islands architecture: pages without islands ship no JavaScript, pages with islands load only
// their bundles and are interactive; the dashboard shell per role, redirects and flash messages.
import { expect, type Page, type Request, test } from "@playwright/test";
import {
  authCard,
  dashboardMenu,
  DEMO,
  flash,
  loginThroughForm,
  menuLabels,
  registerViaApi,
} from "./support/helpers.ts";

/** The <script …> opening tags of an HTML document. */
// Whitespace between attributes collapsed (precompiled JSX templates may leave two spaces).
const scriptTags = (html: string) =>
  (html.match(/<script\b[^>]*>/gi) ?? []).map((tag) => tag.replace(/\s+/g, " "));

/** Records every request the page makes from now on. */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on("request", (request) => requests.push(request));
  return requests;
}

const scriptRequests = (requests: Request[]) =>
  requests.filter((r) => r.resourceType() === "script" || /\.m?js(\?|$)/.test(new URL(r.url()).pathname));

/** The island entry bundles requested (`/build/islands/<Name>-<hash>.js`), by island name. */
const islandBundles = (requests: Request[]) =>
  [
    ...new Set(
      requests
        .map((r) =>
          /\/build\/islands\/([A-Z][A-Za-z0-9]*)-[A-Z0-9]+\.js$/.exec(new URL(r.url()).pathname)?.[1]
        )
        .filter((name): name is string => !!name),
    ),
  ].sort();

async function expectNoJavaScript(page: Page, path: string, heading: string | RegExp, status = 200) {
  const requests = recordRequests(page);
  const response = await page.goto(path);
  expect(response?.status()).toBe(status);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
  const html = await response!.text();
  expect(html.slice(0, 15)).toBe("<!DOCTYPE html>");
  expect(scriptTags(html), "<script> tags in the HTML").toEqual([]);
  expect(html.match(/<link[^>]*modulepreload[^>]*>/gi) ?? [], "modulepreload links").toEqual([]);
  expect(html.match(/<[^>]*data-island[^>]*>/gi) ?? [], "island markers").toEqual([]);
  await expect(page.locator("script")).toHaveCount(0);
  expect(requests.length).toBeGreaterThan(0); // the recorder works: at least the document itself
  expect(scriptRequests(requests).map((r) => r.url())).toEqual([]);
}

test.describe("Pages sans îlot", () => {
  test("/ville/paris ne charge aucun JavaScript", async ({ page }) => {
    await expectNoJavaScript(page, "/ville/paris", "Bar à cocktails événementiel à Paris");
    await expect(page).toHaveTitle(/^Bar à cocktails à Paris \| \S/);
    // The stylesheet is still loaded.
    await expect(page.locator('link[rel="stylesheet"]')).toHaveAttribute(
      "href",
      /^\/build\/styles-[0-9a-f]+\.css$/,
    );
  });

  test("les pages légales, une ville inconnue et le tableau de bord client ne chargent aucun JavaScript", async ({ page }) => {
    await expectNoJavaScript(page, "/cgu-cgv", "Conditions générales d'utilisation et de vente");
    await expectNoJavaScript(page, "/politique-de-confidentialite", "Politique de confidentialité");
    await expectNoJavaScript(page, "/ville/atlantide", "Page introuvable", 404);
    await expect(page.getByTestId("error-message")).toHaveText("Cette ville n'existe pas.");
    // The dashboard shell (drawer included) works without JavaScript.
    await registerViaApi(page);
    await expectNoJavaScript(page, "/dashboard/demandes-en-cours", "Mes demandes de devis en cours");
    await expect(dashboardMenu(page).getByRole("link", { name: "Mon profil" })).toBeVisible();
  });
});

test.describe("Pages avec îlots", () => {
  test("/login charge l'îlot AuthForm et bascule connexion/inscription sans navigation", async ({ page }) => {
    const requests = recordRequests(page);
    const response = await page.goto("/login");
    const html = await response!.text();
    expect(scriptTags(html)).toEqual([
      expect.stringMatching(/^<script type="module" src="\/build\/islands\/AuthForm-[A-Z0-9]+\.js">$/),
    ]);
    expect(islandBundles(requests)).toEqual(["AuthForm"]);
    const bundle = requests.find((r) => /\/build\/islands\/AuthForm-/.test(r.url()))!;
    const bundleResponse = await bundle.response();
    expect(bundleResponse?.status()).toBe(200);
    expect(bundleResponse?.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    await expect(page.locator('[data-island="AuthForm"]')).toHaveCount(1);

    const card = authCard(page);
    await expect(card).toHaveAttribute("data-mode", "login");
    await expect(card.getByRole("heading", { level: 1 })).toHaveText("Connexion");
    expect((await card.boundingBox())!.width).toBeCloseTo(500, 0);

    // Switching is done by the island: no new document is loaded.
    await page.evaluate(() => ((globalThis as unknown as { __sameDocument: boolean }).__sameDocument = true));
    let documents = 0;
    page.on("request", (r) => {
      if (r.resourceType() === "document") documents++;
    });
    await card.getByRole("link", { name: "Pas encore de compte / inscription" }).click();
    await expect(card).toHaveAttribute("data-mode", "register");
    await expect(card.getByRole("heading", { level: 1 })).toHaveText("Inscription");
    await expect(card.getByLabel("Confirmation du mot de passe", { exact: true })).toBeVisible();
    await expect.poll(async () => (await card.boundingBox())!.width).toBeCloseTo(800, 0);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/login");

    await card.getByRole("link", { name: "J'ai déjà un compte / connexion" }).click();
    await expect(card).toHaveAttribute("data-mode", "login");
    await expect.poll(async () => (await card.boundingBox())!.width).toBeCloseTo(500, 0);
    expect(await page.evaluate(() => (globalThis as unknown as { __sameDocument?: boolean }).__sameDocument))
      .toBe(true);
    expect(documents).toBe(0);
  });

  test("/login?mode=register est rendu côté serveur en mode inscription (800 px)", async ({ page }) => {
    const response = await page.goto("/login?mode=register");
    const html = await response!.text();
    const cardTag = html.match(/<div[^>]*data-testid="auth-card"[^>]*>/)?.[0];
    expect(cardTag).toContain('data-mode="register"');
    expect(cardTag).toContain("max-w-[800px]");
    const card = authCard(page);
    await expect(card).toHaveAttribute("data-mode", "register");
    expect((await card.boundingBox())!.width).toBeCloseTo(800, 0);
  });

  test("la page d'accueil charge l'îlot AuthDialog : 'Créer mon compte' et 'J'ai déjà un compte' ouvrent le formulaire", async ({ page }) => {
    const requests = recordRequests(page);
    const response = await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Un bar à cocktails sur mesure pour votre événement",
    );
    expect(scriptTags(await response!.text())).toEqual([
      expect.stringMatching(/^<script type="module" src="\/build\/islands\/AuthDialog-[A-Z0-9]+\.js">$/),
    ]);
    expect(islandBundles(requests)).toEqual(["AuthDialog"]);
    await expect(page.locator('[data-island="AuthDialog"]')).toHaveCount(1);
    await expect(page.getByRole("dialog")).toHaveCount(0);

    // 'Créer mon compte' opens the registration form in a dialog.
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    const dialog = page.getByRole("dialog", { name: "Connexion ou inscription" });
    await expect(dialog).toBeVisible();
    await expect(authCard(dialog)).toHaveAttribute("data-mode", "register");
    await expect(dialog.getByRole("heading", { level: 1 })).toHaveText("Inscription");
    await dialog.getByRole("button", { name: "Fermer" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    expect(new URL(page.url()).pathname).toBe("/");

    // 'J'ai déjà un compte' opens the login form; logging in there goes to the account's home.
    await page.getByRole("button", { name: "J'ai déjà un compte" }).click();
    await expect(dialog).toBeVisible();
    const card = authCard(dialog);
    await expect(card).toHaveAttribute("data-mode", "login");
    await card.getByLabel("Email", { exact: true }).fill(DEMO.client.email);
    await card.getByLabel("Mot de passe", { exact: true }).fill("Cocktail#2026");
    await Promise.all([
      page.waitForURL(/\/dashboard\/demandes-en-cours$/),
      card.getByRole("button", { name: "Se connecter" }).click(),
    ]);
    await expect(page.getByTestId("user-name")).toHaveText(DEMO.client.name);
  });

  test("'Mon profil' charge uniquement l'îlot ProfileForm, qui réagit sans appel au serveur", async ({ page }) => {
    await registerViaApi(page);
    const requests = recordRequests(page);
    const response = await page.goto("/dashboard/profil");
    expect(scriptTags(await response!.text())).toEqual([
      expect.stringMatching(/^<script type="module" src="\/build\/islands\/ProfileForm-[A-Z0-9]+\.js">$/),
    ]);
    expect(islandBundles(requests)).toEqual(["ProfileForm"]);
    await expect(page.locator('[data-island="ProfileForm"]')).toHaveCount(1);

    const form = page.getByTestId("profile-form");
    const before = requests.length;
    await form.locator("input[name=newEmail]").fill("bureau@example.test");
    await form.getByRole("button", { name: "Ajouter", exact: true }).click();
    await expect(form.getByTestId("additional-emails").locator("li")).toHaveCount(1);
    await expect(form.getByText("Aucun email supplémentaire ajouté")).toHaveCount(0);
    expect(requests.length).toBe(before);
  });

  test("/dashboard#/profil est redirigé vers /dashboard/profil par l'îlot DashboardHashLink", async ({ page }) => {
    await registerViaApi(page);
    const requests = recordRequests(page);
    await page.goto("/dashboard");
    expect(islandBundles(requests)).toEqual(["DashboardHashLink"]);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mon tableau de bord");
    // A link such as /dashboard#/profil opened from elsewhere (e.g. an email) loads /dashboard, whose
    // island moves on to the real page.
    await page.goto("/ville/paris");
    await page.goto("/dashboard#/profil");
    await expect(page).toHaveURL(/\/dashboard\/profil$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mon profil");
  });
});

test.describe("Tableau de bord par rôle", () => {
  const ADMIN_ONLY = ["Utilisateurs", "Emails envoyés"];
  const ROLES = [
    { account: DEMO.admin, landing: "Utilisateurs" },
    { account: DEMO.partner, landing: "Mon tableau de bord" },
    { account: DEMO.partner2, landing: "Mon tableau de bord" },
    { account: DEMO.client, landing: "Mes demandes de devis en cours" },
    { account: DEMO.client2, landing: "Mes demandes de devis en cours" },
  ];

  for (const { account, landing } of ROLES) {
    test(`${account.email} (${account.type}) se connecte et atteint son tableau de bord`, async ({ page }) => {
      await loginThroughForm(page, account.email);
      await expect(page).toHaveURL(new RegExp(`${account.home.replace(/\//g, "\\/")}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(landing);
      await expect(page.getByTestId("user-name")).toHaveText(account.name);
      await expect(page.getByTestId("admin-mode")).toHaveCount(0);

      // The role's menu: the shared first and last entries, the admin pages for admins only, the
      // customer's requests for customers only, and nothing else than the menu definition's.
      const expected = menuLabels(account.type);
      expect(expected[0]).toBe("Mon tableau de bord");
      expect(expected.at(-1)).toBe("Mon profil");
      for (const label of ADMIN_ONLY) expect(expected.includes(label), label).toBe(account.type === "Admin");
      expect(expected.includes("Mes demandes de devis en cours")).toBe(account.type === "Customer");
      const menu = dashboardMenu(page);
      await expect(menu.getByRole("link")).toHaveText(expected);
      await expect(menu.locator('[aria-current="page"]')).toHaveText(landing);

      await menu.getByRole("link", { name: "Mon tableau de bord" }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mon tableau de bord");
      await expect(menu.locator('[aria-current="page"]')).toHaveText("Mon tableau de bord");

      await menu.getByRole("link", { name: "Mon profil" }).click();
      await expect(page).toHaveURL(/\/dashboard\/profil$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mon profil");
      const form = page.getByTestId("profile-form");
      await expect(form.locator("input[name=email]")).toHaveValue(account.email);
      // Company details by type: none for the admin, SIREN + VAT for partners, company name and SIREN for
      // customers, and a VAT number once they are professionals (a company name or a SIREN typed: a
      // business customer's is printed on its invoices); the demo customers are private.
      await expect(form.getByRole("heading", { name: "Informations de la société" })).toHaveCount(
        account.type === "Admin" ? 0 : 1,
      );
      await expect(form.locator("input[name=vatNumber]")).toHaveCount(account.type === "Company" ? 1 : 0);
      await expect(form.locator("input[name=name]")).toHaveCount(account.type === "Customer" ? 1 : 0);
      if (account.type === "Customer") {
        await form.locator("input[name=name]").fill("Bernard Événements");
        await expect(form.locator("input[name=vatNumber]")).toHaveCount(1);
        await form.locator("input[name=name]").fill("");
        await expect(form.locator("input[name=vatNumber]")).toHaveCount(0);
      }
    });
  }
});

test.describe("Accès et messages flash", () => {
  test("une visite anonyme de /dashboard est redirigée vers /login, puis ramenée après connexion", async ({ page }) => {
    const response = await page.goto("/dashboard");
    expect(response?.request().redirectedFrom()?.url()).toMatch(/\/dashboard$/);
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard$/);
    await expect(authCard(page)).toHaveAttribute("data-mode", "login");

    await page.goto("/dashboard/profil");
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard%2Fprofil$/);
    const card = authCard(page);
    await card.getByLabel("Email", { exact: true }).fill(DEMO.partner.email);
    await card.getByLabel("Mot de passe", { exact: true }).fill("Cocktail#2026");
    await Promise.all([
      page.waitForURL(/\/dashboard\/profil$/),
      card.getByRole("button", { name: "Se connecter" }).click(),
    ]);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mon profil");
    await expect(page.getByTestId("user-name")).toHaveText(DEMO.partner.name);
  });

  test("après la déconnexion, 'Vous êtes déconnecté.' s'affiche en haut à droite puis disparaît", async ({ page }) => {
    await loginThroughForm(page, DEMO.client2.email);
    await page.getByRole("button", { name: "Déconnexion" }).click();
    await expect(page).toHaveURL(/\/$/);

    const message = flash(page, "Vous êtes déconnecté.");
    await expect(message).toBeVisible();
    await expect(message).toHaveAttribute("data-flash-type", "info");
    await expect(message).toHaveAttribute("role", "status");
    const viewport = page.viewportSize()!;
    // Let the entry animation settle, then check the position: 1 rem from the top and right edges.
    await page.waitForTimeout(400);
    const box = (await message.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(8);
    expect(box.y).toBeLessThanOrEqual(24);
    expect(viewport.width - (box.x + box.width)).toBeGreaterThanOrEqual(8);
    expect(viewport.width - (box.x + box.width)).toBeLessThanOrEqual(24);
    expect(box.x).toBeGreaterThan(viewport.width / 2);
    const position = await message.evaluate((el) => getComputedStyle(el.parentElement!).position);
    expect(position).toBe("fixed");

    // It fades out after about 4 seconds and is not shown again on the next page.
    await expect(message).toBeHidden({ timeout: 8_000 });
    await page.reload();
    await expect(page.locator("[data-flash-type]")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "J'ai déjà un compte" })).toBeVisible();
  });
});
