// 'Mon profil': the result message shows inside the fixed Save bar, on screen at phone and desktop
// widths, for every demo account saving its profile untouched; every field is checked in the browser
// before sending, and a field's message goes as soon as the field is edited.
import { expect, type Locator, type Page, test } from "@playwright/test";
import { dashboardMenu, DEMO, loginViaApi, registerViaApi, requestsTo } from "./support/helpers.ts";

const SAVED = "Les données ont été sauvegardées.";
const INVALID = "Veuillez renseigner toutes les informations obligatoires";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const profileForm = (page: Page) => page.getByTestId("profile-form");
const saveBar = (page: Page) => page.locator(".save-bar");
const saveButton = (page: Page) => saveBar(page).getByRole("button", { name: "Enregistrer", exact: true });
const notice = (page: Page) => saveBar(page).getByTestId("profile-notice");
const fieldError = (page: Page, name: string) => profileForm(page).locator(`[data-error-for="${name}"]`);

/** Every value of the form's fields, by name (the read-only email included). */
function formValues(page: Page): Promise<Record<string, string | boolean>> {
  return profileForm(page).evaluate((form) =>
    Object.fromEntries(
      [...form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("input[name], select[name]")].map((
        el,
      ) => [el.name, el instanceof HTMLInputElement && el.type === "checkbox" ? el.checked : el.value]),
    )
  );
}

/** The element is entirely inside the viewport and is what the user sees at its centre (nothing
 * covers it). */
async function expectOnScreen(page: Page, element: Locator) {
  await expect(element).toBeInViewport({ ratio: 1 });
  const box = (await element.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  const onTop = await element.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !!hit && (hit === el || el.contains(hit));
  });
  expect(onTop, "the message is not covered by anything").toBe(true);
}

/** Saves the form as it is and checks the success message in the Save bar, on screen. */
async function saveUntouched(page: Page) {
  const response = page.waitForResponse((r) => r.url().endsWith("/api/user/update"));
  await saveButton(page).click();
  expect((await response).status()).toBe(200);
  await expect(notice(page)).toHaveText(SAVED);
  await expect(notice(page)).toHaveAttribute("role", "status");
  await expect(profileForm(page).locator("[data-error-for]")).toHaveCount(0);
  // The bar is fixed to the bottom of the viewport, the message is inside it and fully visible.
  const bar = (await saveBar(page).boundingBox())!;
  expect(bar.y + bar.height).toBeCloseTo(page.viewportSize()!.height, 0);
  expect(await saveBar(page).evaluate((el) => getComputedStyle(el).position)).toBe("fixed");
  await expectOnScreen(page, notice(page));
  await expectOnScreen(page, saveButton(page));
}

test.describe("Mon profil : enregistrer sans rien changer", () => {
  for (const account of Object.values(DEMO)) {
    test(`${account.email} (${account.type}) : le message de réussite s'affiche dans la barre d'enregistrement`, async ({ page }) => {
      await loginViaApi(page, account.email);

      // Desktop: 'Mon profil' from the side menu.
      await page.setViewportSize(DESKTOP);
      await page.goto(account.home);
      await dashboardMenu(page).getByRole("link", { name: "Mon profil" }).click();
      await expect(page).toHaveURL(/\/dashboard\/profil$/);
      await expect(profileForm(page).locator("input[name=email]")).toHaveValue(account.email);
      await expect(page.locator('[data-island="ProfileForm"]')).toHaveCount(1);
      await expect(notice(page)).toHaveCount(0);
      const before = await formValues(page);
      expect(before.phone).toMatch(/^0\d( \d{2}){4}$/); // shown the French way
      await saveUntouched(page);

      // Phone: 'Mon profil' from the drawer.
      await page.setViewportSize(PHONE);
      await page.goto(account.home);
      await page.getByTestId("drawer-open").click();
      await page.locator("#dashboard-drawer").getByRole("link", { name: "Mon profil" }).click();
      await expect(page).toHaveURL(/\/dashboard\/profil$/);
      await expect(profileForm(page).locator("input[name=email]")).toHaveValue(account.email);
      expect(await formValues(page)).toEqual(before);
      // Scrolled to the top: the Save bar is still there, the message with it.
      expect(await page.evaluate(() => globalThis.scrollY)).toBe(0);
      await saveUntouched(page);

      // Nothing changed.
      await page.reload();
      await expect(profileForm(page).locator("input[name=email]")).toHaveValue(account.email);
      expect(await formValues(page)).toEqual(before);
    });
  }

  test("le message reste 5 secondes, puis s'efface", async ({ page }) => {
    await loginViaApi(page, DEMO.client2.email);
    await page.goto("/dashboard/profil");
    await expect(page.locator('[data-island="ProfileForm"]')).toHaveCount(1);
    await saveButton(page).click();
    await expect(notice(page)).toHaveText(SAVED);
    const shown = Date.now();
    await expect(notice(page)).toBeHidden({ timeout: 10_000 });
    const elapsed = Date.now() - shown;
    expect(elapsed).toBeGreaterThan(4_500);
    expect(elapsed).toBeLessThan(7_000);
  });
});

test.describe("Mon profil : vérifications dans le navigateur", () => {
  for (const viewport of [PHONE, DESKTOP]) {
    test(`un champ obligatoire vidé est signalé sans appel au serveur, et son message part dès la saisie (${viewport.width} px)`, async ({ page }) => {
      await page.setViewportSize(viewport);
      const account = await registerViaApi(page);
      await page.goto("/dashboard/profil");
      await expect(page.locator('[data-island="ProfileForm"]')).toHaveCount(1);
      const form = profileForm(page);
      const lastname = form.getByLabel("Nom", { exact: true });
      await expect(lastname).toHaveValue(account.lastname);
      await expect(lastname).toHaveAttribute("id", "profile-lastname");
      const updates = requestsTo(page, "/api/user/update");

      // Nom, Ville and the birth day emptied.
      await lastname.fill("");
      await form.getByLabel("Ville", { exact: true }).fill("");
      await form.locator("select[name=birthDay]").selectOption("");
      await saveButton(page).click();
      await expect(fieldError(page, "lastname")).toHaveText("Votre nom est requis.");
      await expect(fieldError(page, "city")).toHaveText("Votre ville est requise.");
      await expect(fieldError(page, "birthDay")).toHaveText("Le jour est requis.");
      await expect(form.locator("[data-error-for]")).toHaveCount(3);
      await expect(lastname).toHaveAttribute("aria-invalid", "true");
      await expect(lastname).toHaveAttribute("aria-describedby", "profile-lastname-error");
      await expect(form.locator("#profile-lastname-error")).toHaveText("Votre nom est requis.");
      // Each message is its field's accessible description (read out after the field's name).
      await expect(lastname).toHaveAccessibleDescription("Votre nom est requis.");
      const day = form.getByRole("combobox", { name: "Jour", exact: true });
      await expect(day).toHaveAttribute("aria-invalid", "true");
      await expect(day).toHaveAccessibleDescription("Le jour est requis.");
      // The form-level message, in the Save bar, on screen.
      await expect(notice(page)).toHaveText(INVALID);
      await expect(notice(page)).toHaveAttribute("role", "alert");
      await expectOnScreen(page, notice(page));
      expect(updates, "no request to /api/user/update").toEqual([]);

      // Typing one letter in Nom removes its message at once; the others stay until edited.
      await lastname.pressSequentially("D");
      await expect(fieldError(page, "lastname")).toHaveCount(0, { timeout: 1_000 });
      await expect(lastname).not.toHaveAttribute("aria-invalid", "true");
      await expect(fieldError(page, "city")).toHaveText("Votre ville est requise.");
      await expect(fieldError(page, "birthDay")).toHaveText("Le jour est requis.");
      await form.getByLabel("Ville", { exact: true }).pressSequentially("Lyon");
      await expect(fieldError(page, "city")).toHaveCount(0, { timeout: 1_000 });
      await form.locator("select[name=birthDay]").selectOption("14");
      await expect(fieldError(page, "birthDay")).toHaveCount(0, { timeout: 1_000 });
      await expect(day).not.toHaveAttribute("aria-invalid", "true");
      await expect(day).toHaveAccessibleDescription("");
      expect(updates).toEqual([]);

      // Valid again: one request, saved.
      const response = page.waitForResponse((r) => r.url().endsWith("/api/user/update"));
      await saveButton(page).click();
      expect((await response).status()).toBe(200);
      await expect(notice(page)).toHaveText(SAVED);
      expect(updates).toHaveLength(1);
      await page.reload();
      await expect(lastname).toHaveValue("D");
      await expect(form.getByLabel("Ville", { exact: true })).toHaveValue("Lyon");
    });
  }
});

test("un client professionnel enregistre son numéro de TVA ; une clé fausse est signalée dans le navigateur", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await registerViaApi(page);
  await page.goto("/dashboard/profil");
  await expect(page.locator('[data-island="ProfileForm"]')).toHaveCount(1);
  const form = profileForm(page);
  const updates = requestsTo(page, "/api/user/update");
  await form.getByLabel("Nom de la société", { exact: true }).fill("Événements Réunis");
  await form.getByLabel("SIREN", { exact: true }).fill("404833048");
  const vat = form.getByLabel("Numéro de TVA intracommunautaire", { exact: true });
  // FR, a wrong key, the SIREN: refused without a request.
  await vat.fill("FR84 404 833 048");
  await saveButton(page).click();
  await expect(fieldError(page, "vatNumber")).toHaveText(
    "Ce numéro de TVA n'existe pas : sa clé (les 2 caractères après FR) ne correspond pas au SIREN qui le suit.",
  );
  await expect(vat).toHaveAccessibleDescription(/sa clé/);
  expect(updates).toEqual([]);
  // The right key: saved, and kept after a reload.
  await vat.fill("fr83 404 833 048");
  await expect(fieldError(page, "vatNumber")).toHaveCount(0, { timeout: 1_000 });
  const response = page.waitForResponse((r) => r.url().endsWith("/api/user/update"));
  await saveButton(page).click();
  expect((await response).status()).toBe(200);
  await expect(notice(page)).toHaveText(SAVED);
  await page.reload();
  await expect(vat).toHaveValue("FR83404833048");
});
