// The customer deal page /deal/show/{token} in a phone-sized browser (390 px; it is opened from an
// email): a visitor sees the quote and the login prompt, and logging in from the page shows the
// payment block; the customer chooses cocktails (capped at the authorised number, saved on each click)
// and pays the deposit with the simulated provider's test card ('Mode démo'), then sees the success
// message and the new status; another customer refuses a quote after its confirmation. Demo data:
// Camille Bernard's quote n°11 ('Devis modifié et envoyé', Mixologie Events, 3 cocktails to choose)
// and Hugo Petit's quote n°9 ('Devis envoyé', mocktails).
import { expect, type Page, request, test } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { DEMO, DEMO_PASSWORD, loginThroughForm } from "./support/helpers.ts";

const LOGIN_PROMPT = "Veuillez-vous connecter pour télécharger ou accepter votre devis";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** The token of one of a demo customer's quotes, read through the customer API. */
async function demoToken(
  baseURL: string,
  email: string,
  match: { status: string; companyName: string },
): Promise<string> {
  const api = await request.newContext({ baseURL });
  const login = await api.post("/api/security/login", { data: { username: email, password: DEMO_PASSWORD } });
  expect(login.status()).toBe(200);
  const list = await (await api.get("/api/customer/deal/index")).json();
  await api.dispose();
  const deal = (list.results as { token: string; status: string; companyName: string }[])
    .find((d) => d.status === match.status && d.companyName === match.companyName);
  expect(deal, `demo quote ${JSON.stringify(match)} of ${email}`).toBeTruthy();
  return deal!.token;
}

/** The island bundles and chunks the page loaded, from now on. */
function scriptUrls(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") urls.push(new URL(r.url()).href);
  });
  return urls;
}

test.describe.configure({ mode: "serial" });

test.describe("Page devis client (390 px)", () => {
  let camilleQuote = "";
  let hugoQuote = "";

  test.beforeAll(async ({ baseURL }) => {
    camilleQuote = await demoToken(baseURL!, DEMO.client.email, {
      status: "edited",
      companyName: "Mixologie Events",
    });
    hugoQuote = await demoToken(baseURL!, DEMO.client2.email, {
      status: "send",
      companyName: "Mixologie Events",
    });
  });

  test(
    "un visiteur voit le devis et l'invitation à se connecter ; la connexion depuis la page ouvre le paiement",
    async ({ page }, testInfo) => {
      const scripts = scriptUrls(page);
      await page.goto(`/deal/show/${camilleQuote}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Votre devis");
      await expect(page.getByTestId("deal-facts")).toContainText("Participants");
      await expect(page.getByTestId("quote-detail")).toContainText("Gestion de projet");
      await expect(page.getByTestId("quote-detail")).toContainText("Total TTC");
      await expect(page.locator('a[href*="/api/customer/deal/download/"]')).toHaveCount(0);
      await expect(page.getByRole("heading", { name: "Régler votre prestation" })).toHaveCount(0);
      await expect(page.getByTestId("cocktails").locator('input[type="checkbox"]')).toHaveCount(0);
      // No payment code, no Stripe.js before anything is opened.
      expect(scripts.some((u) => u.includes("stripe.com"))).toBe(false);
      await page.screenshot({ path: testInfo.outputPath("visiteur-390.png"), fullPage: true });

      await page.getByRole("button", { name: LOGIN_PROMPT }).click();
      const dialog = page.getByTestId("login-dialog");
      await expect(dialog).toBeVisible();
      // Before the login the dialog invites; 'Vous pouvez désormais…' is said once it is true.
      await expect(dialog.getByTestId("login-invitation")).toHaveText(
        "Connectez-vous ou créez votre compte client pour régler votre acompte.",
      );
      await expect(dialog).not.toContainText("Vous pouvez désormais");
      const card = dialog.getByTestId("auth-card");
      await card.getByLabel("Email", { exact: true }).fill(DEMO.client.email);
      await card.getByLabel("Mot de passe", { exact: true }).fill(DEMO_PASSWORD);
      await Promise.all([
        page.waitForEvent("load"),
        card.getByRole("button", { name: "Se connecter" }).click(),
      ]);
      await expect(page.getByRole("heading", { name: "Régler votre prestation" })).toBeVisible();
      await expect(page.getByTestId("notice")).toHaveText("Vous pouvez désormais régler votre acompte");
      await expect(page.getByRole("button", { name: LOGIN_PROMPT })).toHaveCount(0);
      await expect(page.locator(`a[href="/api/customer/deal/download/quote/${camilleQuote}"]`)).toBeVisible();
    },
  );

  test(
    "le client choisit ses cocktails (plafonnés) puis règle l'acompte par carte",
    async ({ page }, testInfo) => {
      await loginThroughForm(page, DEMO.client.email);
      const scripts = scriptUrls(page);
      await page.goto(`/deal/show/${camilleQuote}`);
      await expect(page.getByTestId("deal-facts")).toBeVisible();
      const before = scripts.length;

      // Cocktails: three at most, saved on each click.
      const choice = page.getByTestId("cocktail-choice");
      const boxes = choice.locator('input[type="checkbox"]');
      expect(await boxes.count()).toBeGreaterThan(3);
      await expect(page.getByTestId("cocktail-count")).toContainText("0 / 3");
      for (let i = 0; i < 3; i++) {
        await boxes.nth(i).check();
        await expect(page.getByTestId("notice")).toHaveText("Votre choix de cocktails est enregistré.");
      }
      await expect(page.getByTestId("cocktail-count")).toContainText("3 / 3");
      await expect(boxes.nth(3)).toBeDisabled();
      await expect(page.getByTestId("cocktail-cap")).toBeVisible();
      await expect(page.getByTestId("cocktail-count")).not.toContainText("enregistrement");
      await page.reload();
      await expect(choice.locator('input[type="checkbox"]:checked')).toHaveCount(3);

      // The deposit, in the 'Paiement sécurisé' dialog: its form is loaded only now.
      await page.getByRole("button", { name: /Régler l'acompte/ }).click();
      const dialog = page.getByTestId("payment-dialog");
      await expect(dialog.getByRole("heading", { name: "Paiement sécurisé" })).toBeVisible();
      await expect(dialog).toContainText("SSL 256 bits");
      await expect(dialog).toContainText("Mode démo");
      expect(scripts.length).toBeGreaterThan(before);
      expect(scripts.some((u) => u.includes("stripe.com"))).toBe(false);
      const box = await dialog.boundingBox();
      expect(box!.width).toBeLessThanOrEqual(600);
      await dialog.getByLabel("Numéro de carte").fill("4242 4242 4242 4242");
      await page.screenshot({ path: testInfo.outputPath("paiement-390.png") });
      await Promise.all([
        page.waitForEvent("load"),
        dialog.getByTestId("pay-submit").click(),
      ]);
      // The success message, kept by the server across the reload, right under the title with a
      // link to the new invoice: on the first screen of a phone.
      const success = page.getByTestId("payment-success");
      await expect(success).toContainText(
        "Acompte payé avec succès ! Vous recevrez un email de confirmation.",
      );
      const invoiceButton = success.getByTestId("payment-success-invoice");
      await expect(invoiceButton).toHaveAttribute(
        "href",
        `/api/customer/deal/download/invoice/${camilleQuote}/deposit`,
      );
      const buttonBox = await invoiceButton.boundingBox();
      expect(buttonBox!.y + buttonBox!.height).toBeLessThanOrEqual(844);
      await page.screenshot({ path: testInfo.outputPath("acompte-message-390.png") });
      await expect(page.locator("[data-status]").first()).toHaveText("Accepté / paiement partiel");
      await expect(page.getByTestId("paid-lines")).toContainText("Acompte de");
      await expect(page.getByRole("button", { name: /Régler le solde/ })).toBeVisible();
      await expect(page.getByRole("button", { name: /Régler l'acompte/ })).toHaveCount(0);
      // The deposit invoice: in the success message, beside the paid line and in the documents.
      await expect(page.locator(`a[href$="/invoice/${camilleQuote}/deposit"]`)).toHaveCount(3);
      await expect(page.getByTestId("paid-lines").getByRole("link", { name: "Facture d'acompte" }))
        .toBeVisible();
      await page.screenshot({ path: testInfo.outputPath("acompte-paye-390.png"), fullPage: true });

      // The deposit invoice downloads as a numbered PDF (Factur-X).
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.locator(`a[href$="/invoice/${camilleQuote}/deposit"]`).first().click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^facture-d-acompte-FA-\d{4}-[0-9A-F]{6}-\d{5}\.pdf$/);
      const pdf = await readFile(await download.path());
      expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(pdf.includes("factur-x.xml")).toBe(true);
    },
  );

  test("un client refuse un devis après confirmation", async ({ page }) => {
    await loginThroughForm(page, DEMO.client2.email);
    await page.goto(`/deal/show/${hugoQuote}`);
    await expect(page.getByTestId("cocktails")).toContainText("Mocktails (sans alcool)");
    await page.getByTestId("refuse-open").click();
    const dialog = page.getByTestId("refusal-dialog");
    await expect(dialog.getByRole("heading", { name: "Refuser le devis" })).toBeVisible();
    await dialog.getByRole("menuitem", { name: "Le budget est trop élevé" }).click();
    await expect(dialog.getByTestId("refusal-confirmation")).toHaveText(
      'Êtes-vous sûr de vouloir refuser ce devis avec la raison : "Le budget est trop élevé" ? Cette action ne peut pas être annulée.',
    );
    await dialog.getByTestId("refusal-confirm").click();
    // The page reloads at once; the server kept the message for it: a deal snackbar of 5000 ms.
    const snackbar = page.locator("[data-flash-type]", { hasText: "Le devis a été refusé." });
    await expect(snackbar).toBeVisible();
    expect(await snackbar.evaluate((el) => getComputedStyle(el).animationDuration)).toBe("5s");
    await expect(page.getByTestId("refused-banner")).toHaveText(
      "Devis refusé par le client : Le budget est trop élevé",
    );
    await expect(page.getByRole("heading", { name: "Régler votre prestation" })).toHaveCount(0);
    await expect(page.getByTestId("refuse-open")).toHaveCount(0);
  });
});
