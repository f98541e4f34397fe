// The customer quote page /deal/show/{token} for a visitor on a phone (issue "Quotes and payments,
// second pass" §5): the login button is not a three-line red block, and the registration form in its
// dialog, refused, puts the focus on its first field in error, scrolled into view (the errors were
// out of sight, the focus left on the button). Demo data: one of Camille Bernard's sent quotes.
import { expect, request, test } from "@playwright/test";
import { DEMO, DEMO_PASSWORD } from "./support/helpers.ts";

const LOGIN_PROMPT = "Veuillez-vous connecter pour télécharger ou accepter votre devis";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

let token = "";
test.beforeAll(async ({ baseURL }) => {
  const api = await request.newContext({ baseURL });
  const login = await api.post("/api/security/login", {
    data: { username: DEMO.client.email, password: DEMO_PASSWORD },
  });
  expect(login.status()).toBe(200);
  const list = (await (await api.get("/api/customer/deal/index")).json()).results as {
    token: string;
    status: string;
    companyName: string;
  }[];
  await api.dispose();
  // A sent quote (other specs may have paid or refused some of the demo quotes by now).
  token = list.find((d) => ["edited", "send"].includes(d.status))!.token;
});

test("le premier écran d'un visiteur montre le montant et un bouton de connexion sur deux lignes au plus", async ({ page }) => {
  await page.goto(`/deal/show/${token}`);
  const button = page.getByRole("button", { name: LOGIN_PROMPT });
  await expect(button).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId("amount-ttc")).toBeInViewport({ ratio: 1 });
  const lineHeight = await button.evaluate((b) => parseFloat(getComputedStyle(b).lineHeight));
  const { height } = (await button.boundingBox())!;
  const padding = await button.evaluate((b) =>
    parseFloat(getComputedStyle(b).paddingTop) + parseFloat(getComputedStyle(b).paddingBottom)
  );
  expect(Math.round((height - padding) / lineHeight)).toBeLessThanOrEqual(2);
});

test("l'inscription refusée met le focus sur le premier champ en erreur, visible", async ({ page }) => {
  await page.goto(`/deal/show/${token}`);
  await page.getByRole("button", { name: LOGIN_PROMPT }).click();
  const dialog = page.getByTestId("login-dialog");
  const card = dialog.getByTestId("auth-card");
  await card.getByRole("link", { name: "Pas encore de compte / inscription" }).click();
  await expect(card).toHaveAttribute("data-mode", "register");
  await card.getByLabel("Prénom", { exact: true }).fill("Léa");
  await card.getByRole("button", { name: "S'inscrire" }).click();
  // 'Prénom' is filled: the first field in error is 'Nom'.
  const lastname = card.getByLabel("Nom", { exact: true });
  await expect(lastname).toBeFocused();
  await expect(lastname).toHaveAttribute("aria-invalid", "true");
  await expect(lastname).toBeInViewport({ ratio: 1 });
  await expect(card.getByLabel("Prénom", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
});

test.describe("sur un grand écran (1280 px)", () => {
  test.use({ viewport: { width: 1280, height: 800 }, hasTouch: false, isMobile: false });

  test("la fenêtre de connexion a la largeur de sa carte : la croix de fermeture est sur la carte", async ({ page }) => {
    await page.goto(`/deal/show/${token}`);
    await page.getByRole("button", { name: LOGIN_PROMPT }).click();
    const dialog = page.getByTestId("login-dialog");
    const card = dialog.locator("[data-mode]");
    await expect(card).toHaveAttribute("data-mode", "login");
    const inside = async () => {
      const close = (await dialog.getByRole("button", { name: "Fermer" }).boundingBox())!;
      const box = (await card.boundingBox())!;
      expect(close.x + close.width).toBeLessThanOrEqual(box.x + box.width);
      expect(close.x).toBeGreaterThanOrEqual(box.x);
    };
    await inside();
    expect(Math.round((await dialog.boundingBox())!.width)).toBe(500);
    // Registration is 800 px wide (spec): the dialog follows its card.
    await card.getByText("Pas encore de compte / inscription").click();
    await expect(card).toHaveAttribute("data-mode", "register");
    await expect.poll(async () => Math.round((await dialog.boundingBox())!.width)).toBe(800);
    await inside();
  });
});
