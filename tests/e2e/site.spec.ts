// The public site's menus: 'Nos villes' (/villes) and 'Devenir partenaire' (/devenir-partenaire, an
// application an admin turns into a partner account from /dashboard/admin/candidatures); the home page
// of a logged-in visitor.
import { expect, type Page, test } from "@playwright/test";
import {
  DEMO,
  DEMO_CITIES,
  displayedPhone,
  flash,
  loginThroughForm,
  uniqueEmail,
  uniqueId,
  uniquePhone,
} from "./support/helpers.ts";

const mainMenu = (page: Page) => page.getByRole("navigation", { name: "Menu principal" });

test("le menu principal propose 'Nos villes', 'Ateliers cocktails' et 'Devenir partenaire', sans les entrées retirées", async ({ page }) => {
  await page.goto("/");
  // (Other entries may come and go; these two are the ones of this week.)
  await expect(mainMenu(page).getByRole("link", { name: "Nos villes", exact: true })).toHaveAttribute(
    "href",
    "/villes",
  );
  await expect(mainMenu(page).getByRole("link", { name: "Devenir partenaire", exact: true }))
    .toHaveAttribute("href", "/devenir-partenaire");
  // 'Ateliers cocktails' leads to the workshops' catalogue, 'Bons cadeaux' to the gift vouchers' page.
  await expect(mainMenu(page).getByRole("link", { name: "Ateliers cocktails", exact: true }))
    .toHaveAttribute("href", "/sessions");
  await expect(mainMenu(page).getByRole("link", { name: "Bons cadeaux", exact: true }))
    .toHaveAttribute("href", "/bons-cadeaux");

  // On a phone the menu folds into 'Menu' (a <details>): 'Nos villes' is there too.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(mainMenu(page)).toBeHidden();
  const phoneMenu = page.locator("header details");
  await phoneMenu.getByText("Menu", { exact: true }).click();
  await Promise.all([
    page.waitForURL(/\/villes$/),
    phoneMenu.getByRole("link", { name: "Nos villes", exact: true }).click(),
  ]);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Nos villes");
});

test("'Nos villes' mène à /villes, qui liste les villes, chacune vers /ville/<slug>", async ({ page }) => {
  await page.goto("/");
  await mainMenu(page).getByRole("link", { name: "Nos villes" }).click();
  await expect(page).toHaveURL(/\/villes$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Nos villes");
  await expect(page).toHaveTitle(/^Nos villes/);

  // Every city, in order, each linking to its page.
  const links = page.getByRole("main").locator('a[href^="/ville/"]');
  await expect(links).toHaveText(DEMO_CITIES.map((c) => c.name));
  expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual(
    DEMO_CITIES.map((c) => `/ville/${c.slug}`),
  );

  // Each page exists and is the city's.
  for (const city of DEMO_CITIES) {
    const response = await page.request.get(`/ville/${city.slug}`);
    expect(response.status(), city.slug).toBe(200);
    expect(await response.text(), city.slug).toContain(`Bar à cocktails événementiel à ${city.name}</h1>`);
  }

  // And a click opens one.
  await links.filter({ hasText: "Aix-en-Provence" }).click();
  await expect(page).toHaveURL(/\/ville\/aix-en-provence$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Bar à cocktails événementiel à Aix-en-Provence",
  );
});

test("une candidature 'Devenir partenaire' devient un compte partenaire créé par l'administrateur", async ({ page }) => {
  const id = uniqueId();
  const application = {
    companyName: `Shakers ${id}`,
    siren: "732829320",
    firstname: "Noé",
    lastname: `Candidat-${id}`,
    email: uniqueEmail("candidat"),
    phone: uniquePhone(),
    city: "Nantes",
    message: "Bar mobile, 2 bartenders, mariages et séminaires en Loire-Atlantique.",
  };

  // The visitor, from the main menu.
  await page.goto("/");
  await mainMenu(page).getByRole("link", { name: "Devenir partenaire" }).click();
  await expect(page).toHaveURL(/\/devenir-partenaire$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Devenir partenaire");
  const form = page.locator('form[action="/devenir-partenaire"]');
  for (
    const [label, value] of [
      ["Nom de la société", application.companyName],
      ["SIREN", application.siren],
      ["Prénom", application.firstname],
      ["Nom", application.lastname],
      ["Email", application.email],
      ["Téléphone", application.phone],
      ["Ville", application.city],
    ]
  ) await form.getByLabel(label, { exact: true }).fill(value);
  await form.getByLabel("Votre message (facultatif)").fill(application.message);
  await Promise.all([
    page.waitForURL(/\/devenir-partenaire\?envoye=1$/),
    form.getByRole("button", { name: "Envoyer ma candidature" }).click(),
  ]);
  await expect(page.getByTestId("application-sent")).toContainText(
    "Merci ! Votre candidature a bien été envoyée.",
  );
  await expect(page.locator('form[action="/devenir-partenaire"]')).toHaveCount(0);

  // The admin.
  await loginThroughForm(page, DEMO.admin.email);
  await page.goto("/dashboard/admin/candidatures");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Candidatures partenaires");
  const card = page.locator(`[data-application="${application.email}"]`);
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(application.companyName);
  await expect(card).toContainText(`${application.firstname} ${application.lastname}`);
  await expect(card).toContainText(displayedPhone(application.phone));
  await expect(card).toContainText(`SIREN ${application.siren}`);
  await expect(card).toContainText(application.message);
  await expect(card).toContainText("En attente");
  await expect(card.getByRole("button", { name: "Refuser" })).toBeVisible();

  await Promise.all([
    page.waitForURL(/\/dashboard\/admin\/candidatures$/),
    card.getByRole("button", { name: "Créer le compte partenaire" }).click(),
  ]);
  await expect(flash(page, "Le compte partenaire est créé : un email l'invite à choisir son mot de passe."))
    .toBeVisible();
  await expect(card).toContainText("Acceptée");
  await expect(card).not.toContainText("En attente");
  await expect(card.getByRole("button")).toHaveCount(0);

  // The account exists, as a partner.
  await page.goto("/dashboard/admin/utilisateurs");
  const row = page.locator(`tr[data-user-email="${application.email}"]`);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Partenaire");
});

test("la page d'accueil montre 'Mon espace' à un visiteur connecté, au lieu de la connexion et de l'inscription", async ({ page }) => {
  await loginThroughForm(page, DEMO.client.email);
  const response = await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Un bar à cocktails sur mesure pour votre événement",
  );
  const hero = page.locator("section").first();
  await expect(hero.getByRole("link", { name: "Mon espace" })).toHaveAttribute("href", "/dashboard");
  await expect(page.getByRole("button", { name: "Créer mon compte" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "J'ai déjà un compte" })).toHaveCount(0);
  await expect(page.locator('[data-island="AuthDialog"]')).toHaveCount(0);
  expect(await response!.text()).not.toContain("AuthDialog");
  await hero.getByRole("link", { name: "Mon espace" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("user-name")).toHaveText(DEMO.client.name);
});
