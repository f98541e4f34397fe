// The deal detail page as its users meet it (issue "Quotes and payments, second pass" §5):
// - on a phone the partner finds what the quote waits for ('À faire' and its button) on the first
//   screen, not 3 800 px down; the admin is offered 'Envoyer le devis au partenaire' there too;
// - a missing 'Création sur mesure' list leads to the deal's own cocktails, not to the catalogue;
// - the admin's five tabs (with 'Chat') all fit a 390 px screen; a greyed-out button says why in text;
// - deleting a photo asks in the app's dialog, never the browser's confirm().
// Each test works on a fresh quote request, so that other specs' changes to the demo deals do not matter.
import { type APIRequestContext, expect, type Page, request, test } from "@playwright/test";
import sharp from "sharp";
import { DEMO, DEMO_PASSWORD, quoteRequestData, uniqueId } from "./support/helpers.ts";

const PHONE = { width: 390, height: 844 };
const dealPath = (id: number) => `/dashboard/espace-partenaire/deal/${id}`;

async function apiAs(baseURL: string, email?: string): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL });
  if (email) {
    const login = await api.post("/api/security/login", {
      data: { username: email, password: DEMO_PASSWORD },
    });
    expect(login.status(), await login.text()).toBe(200);
  }
  return api;
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A visitor's quote request ('Création sur mesure' when asked); the admin gives it to partenaire@
 * and, when `send`, sends it to them (status 'Nouvelle demande'). */
async function freshDeal(baseURL: string, options: { creation?: boolean; send?: boolean } = {}) {
  const lastname = `Ux-${uniqueId()}`;
  const visitor = await apiAs(baseURL);
  const sent = await visitor.post("/api/deal/request", {
    data: quoteRequestData({
      deal_prestation_date: inDays(120),
      nombre_de_participants: 40,
      creation_de_recette: options.creation ?? false,
      firstname: "Léa",
      lastname,
    }),
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const token = (await sent.json()).results.token as string;
  await visitor.dispose();
  const admin = await apiAs(baseURL, DEMO.admin.email);
  const list = await admin.get(`/api/deal/index?search=${encodeURIComponent(lastname)}`);
  const id = ((await list.json()).results as { id: number; token: string }[])
    .find((d) => d.token === token)!.id;
  const companies = (await (await admin.get("/api/company/index")).json()).results as {
    id: string;
    email: string;
  }[];
  const partner = companies.find((c) => c.email === DEMO.partner.email)!;
  const patched = await admin.patch(`/api/deal/${id}`, { data: { company: partner.id } });
  expect(patched.status(), await patched.text()).toBe(200);
  if (options.send) {
    const toPartner = await admin.post(`/api/deal/${id}/send-to-partner`);
    expect(toPartner.status(), await toPartner.text()).toBe(200);
  }
  await admin.dispose();
  return id;
}

async function signIn(page: Page, email: string): Promise<void> {
  const login = await page.request.post("/api/security/login", {
    data: { username: email, password: DEMO_PASSWORD },
  });
  expect(login.status()).toBe(200);
}

/** The element lies entirely inside the window as it is, without scrolling. */
async function expectOnFirstScreen(page: Page, testId: string): Promise<void> {
  const box = await page.getByTestId(testId).boundingBox();
  const size = page.viewportSize()!;
  expect(box, testId).toBeTruthy();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(size.width);
  expect(box!.y + box!.height).toBeLessThanOrEqual(size.height);
}

test.describe("Fiche devis sur téléphone (390 px)", () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test("le partenaire voit en haut ce que le devis attend de lui ; la création sur mesure mène aux cocktails du devis", async ({ page, baseURL }) => {
    const id = await freshDeal(baseURL!, { creation: true, send: true });
    await signIn(page, DEMO.partner.email);
    await page.goto(dealPath(id));
    const step = page.getByTestId("next-step");
    await expect(step).toContainText("À faire");
    await expect(step.getByTestId("next-step-action")).toHaveText(
      "Valider ma disponibilité et les cocktails",
    );
    await expectOnFirstScreen(page, "next-step-action");

    await step.getByTestId("next-step-action").click();
    const dialog = page.getByTestId("cocktail-validation-dialog");
    await expect(dialog.locator("[data-validation]")).toHaveAttribute(
      "data-validation",
      "incomplete_creation",
    );
    await dialog.getByTestId("manage-cocktails").click();
    await expect(page).toHaveURL(new RegExp(`${dealPath(id)}#settings$`));
    await expect(page.getByTestId("add-custom-cocktail")).toBeInViewport();
    await expect(page.getByTestId("add-custom-cocktail")).toBeFocused();
  });

  test("l'administrateur voit ses cinq onglets, l'envoi au partenaire en haut, et pourquoi un bouton est grisé", async ({ page, baseURL }) => {
    const id = await freshDeal(baseURL!);
    await signIn(page, DEMO.admin.email);
    await page.goto(dealPath(id));
    const tabs = page.getByRole("tablist", { name: "Sections du devis" }).getByRole("tab");
    await expect(tabs).toHaveCount(5);
    for (const tab of await tabs.all()) {
      const box = (await tab.boundingBox())!;
      expect(box.x, await tab.textContent() ?? "").toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, await tab.textContent() ?? "").toBeLessThanOrEqual(PHONE.width);
    }
    await tabs.filter({ hasText: "Paramètres admin" }).click();
    await expect(page).toHaveURL(/#admin-settings$/);
    await page.goto(dealPath(id));

    const step = page.getByTestId("next-step");
    await expectOnFirstScreen(page, "next-step-action");
    await expect(step.getByTestId("next-step-action")).toHaveText("Envoyer le devis au partenaire");
    await step.getByTestId("next-step-action").click();
    await expect(step).toHaveAttribute("data-tone", "waiting");
    await expect(step).toContainText("En attente de la validation du partenaire.");
    await expect(page.getByTestId("next-step-action")).toHaveCount(0);

    // 'Marquer devis accepté' is greyed out on a new request: the reason is written, not a tooltip.
    const accept = page.getByTestId("mark-accepted");
    await expect(accept).toBeDisabled();
    await expect(accept).not.toHaveAttribute("title");
    const why = page.getByTestId("accept-why");
    await expect(why).toBeVisible();
    await expect(why).toContainText(
      "Cette action n'est pas possible pour un devis au statut « Nouvelle demande ».",
    );
    await expect(accept).toHaveAttribute("aria-describedby", "deal-actions-accept-why");
  });
});

test("supprimer une photo se confirme dans la fenêtre de l'application, pas celle du navigateur", async ({ page, baseURL }) => {
  const id = await freshDeal(baseURL!);
  const nativeDialogs: string[] = [];
  page.on("dialog", (d) => {
    nativeDialogs.push(d.message());
    d.dismiss();
  });
  await signIn(page, DEMO.admin.email);
  await page.goto(`${dealPath(id)}#description`);
  const gallery = page.getByTestId("photo-gallery");
  const png = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#c8412f" } })
    .png().toBuffer();
  await gallery.locator('input[type="file"]').setInputFiles({
    name: "bar.png",
    mimeType: "image/png",
    buffer: png,
  });
  await expect(gallery.getByTestId("photo-tile")).toHaveCount(1);

  await gallery.getByRole("button", { name: "Supprimer la photo 1" }).click();
  const dialog = page.getByTestId("photo-delete-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Supprimer cette photo ?");
  await dialog.getByRole("button", { name: "Annuler" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(gallery.getByTestId("photo-tile")).toHaveCount(1);

  await gallery.getByRole("button", { name: "Supprimer la photo 1" }).click();
  await page.getByTestId("photo-delete-dialog").getByTestId("confirm").click();
  await expect(gallery.getByTestId("photo-tile")).toHaveCount(0);
  expect(nativeDialogs).toEqual([]);
});

test("changer le nombre de participants propose les lignes du calculateur, appliquées seulement si acceptées", async ({ page, baseURL }) => {
  const id = await freshDeal(baseURL!, { send: true });
  await signIn(page, DEMO.admin.email);
  await page.goto(dealPath(id));
  const totalHt = page.getByTestId("figure-total-ht");
  const before = (await totalHt.textContent())!;
  const linesBefore = await page.getByTestId("deal-lines").textContent();

  const changeGuests = async (guests: number) => {
    const card = page.getByTestId("deal-main-info");
    await card.getByTestId("deal-main-info-edit").click();
    await page.locator("#deal-prop-nombre_de_participants").fill(String(guests));
    await card.getByTestId("deal-main-info-save").click();
  };

  // Kept: the proposal showed the new total, nothing changed.
  await changeGuests(120);
  let dialog = page.getByTestId("repricing-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("120 participants");
  await expect(dialog.getByTestId("repricing-total-ht")).toContainText(
    before.replace(/^Total HT/, "").trim(),
  );
  await dialog.getByTestId("repricing-keep").click();
  await expect(dialog).toHaveCount(0);
  await expect(totalHt).toHaveText(before);
  expect(await page.getByTestId("deal-lines").textContent()).toBe(linesBefore);

  // Applied: the lines and the totals are the proposal's.
  await changeGuests(150);
  dialog = page.getByTestId("repricing-dialog");
  const proposed = (await dialog.getByTestId("repricing-total-ht").locator("strong").textContent())!;
  await dialog.getByTestId("repricing-apply").click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("notice")).toContainText(
    "Le devis a été recalculé pour la demande actuelle.",
  );
  await expect(totalHt).toContainText(proposed);
  expect(proposed).not.toBe(before);
});
