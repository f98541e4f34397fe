// Booking a cocktail workshop in the browser (spec 000 §2 'Dates de la session', §5, §9): from the site
// menu to the catalogue, a session's dates, a quantity chosen with the selector (the price follows, as
// the server computes it), 'Réserver', the 3-second snackbar, and the cart showing the held line with
// its countdown; then a full date's seat alert with its validation messages. At 1280 px and 390 px.
import { expect, test } from "@playwright/test";

test("un visiteur choisit une date, une quantité, réserve, et retrouve la ligne dans son panier", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/");
  await page.getByRole("link", { name: "Ateliers cocktails" }).first().click();
  await expect(page).toHaveURL(/\/sessions$/);
  await page.getByRole("link", { name: "Atelier Gin tonic signature" }).click();
  await expect(page.getByRole("heading", { name: "Dates de la session" })).toBeVisible();

  const first = page.getByTestId("session-date").first();
  // 55 € + the 10 € HT kit at 20 % = 67 € a place.
  await expect(first.getByTestId("session-date-price")).toHaveText(/67,00\s€/);
  await first.getByRole("button", { name: "Une place de plus" }).click();
  await first.getByRole("button", { name: "Une place de plus" }).click();
  await expect(first.getByLabel("Quantité")).toHaveValue("3");
  await expect(first.getByTestId("session-date-price")).toHaveText(/201,00\s€/);
  await first.getByRole("button", { name: "Réserver" }).click();
  const notice = page.getByTestId("notice");
  await expect(notice).toContainText("Places réservées : elles vous sont gardées pendant 20 minutes.");
  await expect(first).toContainText("7 places restantes");
  // The snackbar lasts 3 s (§9).
  await expect(notice).toBeHidden({ timeout: 4500 });

  // The share dialog (§2, 500 px): the date's link, 'COPIER', then the 3-second snackbar.
  await first.getByRole("button", { name: "Partager cette date" }).click();
  const share = page.getByRole("dialog", { name: "Partage ta session !" });
  await expect(share.getByRole("textbox")).toHaveValue(/\/session\/atelier-gin-tonic-paris\?date=\d+$/);
  expect((await share.boundingBox())?.width).toBeLessThanOrEqual(500);
  await share.getByRole("button", { name: "COPIER" }).click();
  await expect(page.getByTestId("notice")).toContainText("Lien copié dans le presse-papiers !");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
    /\/session\/atelier-gin-tonic-paris\?date=/,
  );

  await page.goto("/panier");
  const line = page.getByTestId("cart-line");
  await expect(line).toHaveCount(1);
  await expect(line).toContainText("Atelier Gin tonic signature");
  await expect(line.getByRole("combobox")).toHaveValue("3");
  await expect(line.getByTestId("cart-line-total")).toHaveText(/201,00\s€/);
  await expect(line.getByTestId("cart-line-hold")).toHaveText(/Places gardées encore 1?\d:\d\d/);
  await expect(page.getByTestId("cart-total")).toHaveText(/201,00\s€/);
  // A visitor signs in before paying (the checkout is for customers).
  await expect(page.getByText("Veuillez vous connecter pour régler votre réservation.")).toBeVisible();
  await expect(page.getByRole("button", { name: /payer|régler/i })).toHaveCount(0);

  // Fewer places: the total follows and the places go back on sale.
  await line.getByRole("combobox").selectOption("1");
  await expect(line.getByTestId("cart-line-total")).toHaveText(/67,00\s€/);
  await line.getByRole("button", { name: "Retirer" }).click();
  await expect(page.getByText("Votre panier est vide.")).toBeVisible();
});

test("sur un téléphone, une date complète propose l'alerte, qui demande l'email et le consentement", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/session/atelier-mocktails-lyon");
  const full = page.getByTestId("session-date").filter({ hasText: "COMPLET" });
  await expect(full).toHaveCount(1);
  await expect(full.getByRole("button", { name: "Réserver" })).toHaveCount(0);
  await full.getByRole("button", { name: "M'alerter si une place se libère" }).click();
  const dialog = page.getByRole("dialog", { name: "M'alerter si une place se libère" });
  await dialog.getByRole("button", { name: "Valider" }).click();
  await expect(dialog).toContainText("Veuillez renseigner votre email");
  await expect(dialog).toContainText("Veuillez accepter d'être contacté");
  await dialog.getByLabel("Email").fill(`alerte.${Date.now()}@example.fr`);
  await dialog.getByRole("checkbox").check();
  await dialog.getByRole("button", { name: "Valider" }).click();
  await expect(dialog).toContainText("Votre alerte a bien été prise en compte");
  await expect(dialog).toContainText("spams");
});

// Scoped to the page's own content (<main>): the shared site header is another capability's.
test("la page d'une session et le panier passent les contrôles d'accessibilité (axe, WCAG 2 A et AA)", async ({ page }) => {
  const { AxeBuilder } = await import("@axe-core/playwright");
  await page.goto("/session/atelier-mojito-paris");
  await expect(page.getByTestId("session-date").first()).toBeVisible();
  const sessionPage = await new AxeBuilder({ page }).include("main").withTags(["wcag2a", "wcag2aa"])
    .analyze();
  expect(sessionPage.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);
  await page.getByTestId("session-date").first().getByRole("button", { name: "Réserver" }).click();
  await expect(page.getByTestId("notice")).toBeVisible();
  await page.goto("/panier");
  await expect(page.getByTestId("cart-line")).toHaveCount(1);
  const cart = await new AxeBuilder({ page }).include("main").withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(cart.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);
});
