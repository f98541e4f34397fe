// Paying workshop places in the browser (issue 12, simulated provider 'Mode démo'): a new customer
// picks a date, reserves, pays the cart with the quote page's card form, reads the success screen,
// finds the booking 'Facturé' in 'Vos sessions' and downloads its receipt. At 1280 px and 390 px.
import { expect, test } from "@playwright/test";
import { registerViaApi } from "./support/helpers.ts";
import { CHECKOUT_MESSAGES } from "../../lib/orders/rules.ts";

test(
  "un client choisit une date, paie son panier, retrouve la session et télécharge son reçu",
  async ({ page }, testInfo) => {
    await registerViaApi(page);
    await page.goto("/session/atelier-mocktails-lyon");
    const first = page.getByTestId("session-date").first();
    // 39 € + 5 € of travel a place.
    await expect(first.getByTestId("session-date-price")).toHaveText(/44,00\s€/);
    await first.getByRole("button", { name: "Une place de plus" }).click();
    await first.getByRole("button", { name: "Réserver" }).click();
    await expect(page.getByTestId("notice")).toContainText("Places réservées");
    // The header's cart link follows without a reload.
    await expect(page.locator("[data-testid=header-cart]:visible")).toHaveAttribute(
      "aria-label",
      "Mon panier : 2 places",
    );

    await page.goto("/panier");
    await expect(page.getByTestId("cart-total")).toHaveText(/88,00\s€/);
    await page.getByTestId("cart-pay").click();
    const payment = page.getByTestId("cart-payment");
    await expect(payment.getByTestId("demo-card-form")).toBeVisible();
    await expect(payment.getByTestId("pay-submit")).toHaveText(/Payer 88,00\s€/);
    await page.screenshot({ path: testInfo.outputPath("panier-paiement-1280.png"), fullPage: true });
    await payment.getByRole("button", { name: /4242 4242 4242 4242/ }).click();
    // On a phone the cart collapses into the success block: it is brought into view, the header's
    // cart link goes.
    await page.setViewportSize({ width: 390, height: 844 });
    await payment.getByTestId("pay-submit").click();
    const done = page.getByTestId("checkout-done");
    await expect(done).toContainText(CHECKOUT_MESSAGES.successTitle);
    await expect(done).toContainText(CHECKOUT_MESSAGES.paid);
    await expect(done.getByRole("link", { name: CHECKOUT_MESSAGES.toSessions })).toBeInViewport();
    await expect(page.locator("[data-testid=header-cart]:visible")).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath("panier-paye-390.png"), fullPage: true });

    await done.getByRole("link", { name: CHECKOUT_MESSAGES.toSessions }).click();
    await expect(page).toHaveURL(/\/dashboard\/client\/sessions$/);
    const row = page.getByTestId("customer-registrations").locator("tbody tr").first();
    await expect(row).toContainText("Atelier mocktails sans alcool");
    await expect(row).toContainText("Facturé");
    await expect(row).toContainText(/88,00\s€/);
    await page.screenshot({ path: testInfo.outputPath("vos-sessions-390.png"), fullPage: true });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      row.getByTestId("registration-receipt").click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^recu-de-paiement-RE-\d{4}-CC-\d{5}\.pdf$/);
    const bytes =
      await (await page.request.get(await row.getByTestId("registration-receipt").getAttribute("href") ?? ""))
        .body();
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  },
);
