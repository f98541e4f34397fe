// Gift vouchers in the browser (issue 12; spec 000 §2 'Vos bons cadeaux'): a customer reaches
// 'Bons cadeaux' from the site menu, buys a voucher with the simulated card, finds it with its code in
// 'Vos bons cadeaux', then redeems it on two workshop bookings: the first it pays whole (no card), the
// second takes its last 5 € (the cart shows the discount and what is left) and the card pays the rest;
// the voucher is used up. Then the pages pass axe
// (WCAG 2.1 AA) at 390 px.
import { AxeBuilder } from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { DEMO, DEMO_PASSWORD, flash, registerViaApi } from "./support/helpers.ts";

test("un client offre un bon cadeau par carte, puis l'utilise sur une réservation d'atelier", async ({ page }) => {
  await registerViaApi(page);
  await page.goto("/");
  await page.getByRole("link", { name: "Bons cadeaux" }).first().click();
  await expect(page).toHaveURL(/\/bons-cadeaux$/);
  const form = page.getByTestId("voucher-form");
  await expect(form.getByTestId("voucher-price")).toHaveText(/50,00\s€/);
  await form.getByLabel("Nom du bénéficiaire").fill("Julie Martin");
  await form.getByLabel("Email du bénéficiaire").fill("julie.e2e@example.fr");
  await form.getByLabel("Message (facultatif)").fill("Joyeux anniversaire !");
  await form.getByTestId("voucher-submit").click();

  const payment = page.getByTestId("voucher-payment");
  await payment.getByRole("button", { name: /4242 4242 4242 4242/ }).click();
  await payment.getByTestId("pay-submit").click();
  await expect(page).toHaveURL(/\/dashboard\/client\/bons-cadeaux/);
  await expect(flash(page, "Votre bon cadeau est payé : il sera envoyé à la date choisie.")).toBeVisible();
  const row = page.getByTestId("vouchers-bought").locator("tbody tr").first();
  await expect(row).toContainText("julie.e2e@example.fr");
  await expect(row.getByTestId("voucher-remaining")).toHaveText(/50,00\s€/);
  const code = (await row.getByTestId("voucher-code").textContent())!.trim();
  expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);

  // A 45 € place: the voucher pays it whole, no card; 5 € are left on it.
  await page.goto("/sessions");
  await page.getByRole("link", { name: "Atelier Mojito et rhums du monde" }).click();
  await page.getByTestId("session-date").first().getByRole("button", { name: "Réserver" }).click();
  await expect(page.getByTestId("notice")).toContainText("Places réservées");
  await page.goto("/panier");
  await expect(page.getByTestId("cart-total")).toHaveText(/45,00\s€/);
  const voucherForm = page.getByTestId("cart-voucher-form");
  await voucherForm.getByLabel("Vous avez un bon cadeau ?").fill("ZZZZ-ZZZZ-ZZZZ-ZZZZ");
  await voucherForm.getByRole("button", { name: "Appliquer" }).click();
  await expect(page.getByTestId("cart-voucher-error")).toHaveText(
    "Ce code est inconnu. Vérifiez-le et réessayez.",
  );
  await voucherForm.getByLabel("Vous avez un bon cadeau ?").fill(code.toLowerCase());
  await voucherForm.getByRole("button", { name: "Appliquer" }).click();
  await expect(page.getByTestId("cart-voucher")).toContainText(/50,00\s€ disponibles/);
  await expect(page.getByTestId("cart-to-pay")).toHaveText(/0,00\s€/);
  await page.getByRole("button", { name: "Régler avec mon bon cadeau" }).click();
  await expect(page.getByTestId("checkout-done")).toContainText(
    "Votre bon cadeau couvre toute votre réservation",
  );

  // A 67 € place (55 € + a 10 € HT kit at 20 %): the voucher's last 5 €, the card 62 €.
  await page.goto("/sessions");
  await page.getByRole("link", { name: "Atelier Gin tonic signature" }).click();
  await page.getByTestId("session-date").first().getByRole("button", { name: "Réserver" }).click();
  await expect(page.getByTestId("notice")).toContainText("Places réservées");
  await page.goto("/panier");
  await expect(page.getByTestId("cart-total")).toHaveText(/67,00\s€/);
  await page.getByLabel("Vous avez un bon cadeau ?").fill(code);
  await page.getByRole("button", { name: "Appliquer" }).click();
  await expect(page.getByTestId("cart-voucher")).toContainText(/5,00\s€ disponibles/);
  await expect(page.getByTestId("cart-discount")).toHaveText(/−5,00\s€/);
  await expect(page.getByTestId("cart-to-pay")).toHaveText(/62,00\s€/);
  await page.getByTestId("cart-pay").click();
  const cartPayment = page.getByTestId("cart-payment");
  await cartPayment.getByRole("button", { name: /4242 4242 4242 4242/ }).click();
  await expect(cartPayment.getByTestId("pay-submit")).toHaveText(/62,00\s€/);
  await cartPayment.getByTestId("pay-submit").click();
  await expect(page.getByTestId("checkout-done")).toContainText("Merci, votre réservation est confirmée !");

  await page.goto("/dashboard/client/bons-cadeaux");
  const used = page.getByTestId("vouchers-bought").locator("tbody tr").first();
  await expect(used.getByTestId("voucher-remaining")).toHaveText(/0,00\s€/);
  await expect(used).toContainText("Utilisé");
});

async function axe(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("les pages des bons cadeaux passent les contrôles d'accessibilité (axe, WCAG 2.1 AA)", async ({ page }) => {
  const login = await page.request.post("/api/security/login", {
    data: { username: DEMO.client.email, password: DEMO_PASSWORD },
  });
  expect(login.status()).toBe(200);
  // At 390 px, where the tables scroll and the dialog takes the screen's width (1280 px: the same markup).
  for (const width of [390]) {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
    await page.goto("/bons-cadeaux", { waitUntil: "networkidle" });
    expect(await axe(page), `/bons-cadeaux à ${width} px`).toEqual([]);
    await page.goto("/dashboard/client/bons-cadeaux", { waitUntil: "networkidle" });
    // The demo customer bought one voucher and received one.
    await expect(page.getByTestId("vouchers-bought").locator("tbody tr")).toHaveCount(1);
    await expect(page.getByTestId("vouchers-received").locator("tbody tr")).toHaveCount(1);
    // One pass with the purchase dialog open checks the page and the dialog's form together.
    await page.getByTestId("voucher-offer").click();
    const dialog = page.getByRole("dialog", { name: "Offrir un bon cadeau" });
    await expect(dialog).toBeVisible();
    expect((await dialog.boundingBox())!.width).toBeLessThanOrEqual(800);
    expect(await axe(page), `Vos bons cadeaux et le formulaire d'achat à ${width} px`).toEqual([]);
  }
});
