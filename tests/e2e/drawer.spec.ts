// The dashboard drawer works without JavaScript: on a phone the side menu is a native popover (the
// top bar's button opens it; its close button, Escape and a tap outside close it); on a desktop it sits
// beside the page and the top bar's toggle (a checkbox label) folds it away and back. These tests run
// with JavaScript turned off in the browser, so whatever works here needs none.
import { expect, type Page, test } from "@playwright/test";
import { DEMO, loginViaApi, menuLabels } from "./support/helpers.ts";

const MENU = "Menu du tableau de bord";
const PAGE = "/dashboard/demandes-en-cours";

/** The phone drawer (the native popover). */
const popover = (page: Page) => page.locator("#dashboard-drawer");
/** The desktop drawer, beside the page. */
const sideMenu = (page: Page) => page.locator("nav.drawer");

const isOpen = (page: Page) => popover(page).evaluate((el) => el.matches(":popover-open"));

async function expectPopoverClosed(page: Page) {
  await expect(popover(page)).toBeHidden();
  expect(await isOpen(page)).toBe(false);
}

/** On a phone: no menu at all until the popover opens. */
async function expectClosed(page: Page) {
  await expectPopoverClosed(page);
  await expect(page.getByRole("navigation", { name: MENU })).toHaveCount(0);
}

async function expectOpen(page: Page) {
  await expect(popover(page)).toBeVisible();
  expect(await isOpen(page)).toBe(true);
  // The only menu in the accessibility tree is the popover's, 255 px wide along the left edge.
  const menu = page.getByRole("navigation", { name: MENU });
  await expect(menu).toHaveCount(1);
  await expect(menu).toHaveAttribute("id", "dashboard-drawer");
  await expect(menu.getByRole("link")).toHaveText(menuLabels("Customer"));
  await expect(menu.locator('[aria-current="page"]')).toHaveText("Mes demandes de devis en cours");
  const box = (await popover(page).boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x).toBe(0);
  expect(box.y).toBe(0);
  expect(box.width).toBe(255);
  expect(box.height).toBe(viewport.height);
}

test.describe("Tiroir du tableau de bord, sans JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("la page n'a aucun <script>", async ({ page }) => {
    await loginViaApi(page, DEMO.client.email);
    const response = await page.goto(PAGE);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mes demandes de devis en cours");
    expect((await response!.text()).match(/<script\b/gi) ?? []).toEqual([]);
    await expect(page.locator("script")).toHaveCount(0);
  });

  test.describe("téléphone (390 × 844)", () => {
    test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

    test("ouvrir et fermer le menu (bouton, Échap, toucher à côté), puis naviguer", async ({ page }) => {
      await loginViaApi(page, DEMO.client.email);
      await page.goto(PAGE);
      await expect(page.getByTestId("drawer-fold")).toBeHidden();
      await expect(sideMenu(page)).toBeHidden();
      await expectClosed(page);
      const open = page.getByTestId("drawer-open");
      await expect(open).toBeVisible();
      await expect(open).toHaveAccessibleName("Ouvrir le menu");

      // The close button.
      await open.tap();
      await expectOpen(page);
      const close = page.getByTestId("drawer-close");
      await expect(close).toHaveAccessibleName("Fermer le menu");
      await close.tap();
      await expectClosed(page);

      // Escape.
      await open.tap();
      await expectOpen(page);
      await page.keyboard.press("Escape");
      await expectClosed(page);

      // A tap outside the menu (on the dimmed page to its right).
      await open.tap();
      await expectOpen(page);
      await page.touchscreen.tap(330, 500);
      await expectClosed(page);
      expect(new URL(page.url()).pathname).toBe(PAGE);

      // A menu link.
      await open.tap();
      await expectOpen(page);
      await Promise.all([
        page.waitForURL(/\/dashboard\/profil$/),
        popover(page).getByRole("link", { name: "Mon profil" }).tap(),
      ]);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mon profil");
      await expectClosed(page);
      await open.tap();
      await expect(popover(page).locator('[aria-current="page"]')).toHaveText("Mon profil");
    });
  });

  test.describe("ordinateur (1280 × 800)", () => {
    test.use({ viewport: { width: 1280, height: 800 } });

    test("le bouton de la barre du haut replie et déplie le menu", async ({ page }) => {
      await loginViaApi(page, DEMO.client.email);
      await page.goto(PAGE);
      await expect(page.getByTestId("drawer-open")).toBeHidden();
      await expectPopoverClosed(page); // the popover is the phone's
      const menu = page.getByRole("navigation", { name: MENU });
      const main = page.getByRole("main");
      const fold = page.getByTestId("drawer-fold");
      await expect(fold).toBeVisible();

      // Beside the page.
      await expect(menu).toBeVisible();
      await expect(menu.getByRole("link", { name: "Mon profil" })).toBeVisible();
      expect((await menu.boundingBox())!.width).toBe(255);
      expect((await main.boundingBox())!.x).toBe(255);

      // Folded away: the page takes the whole width.
      await fold.click();
      await expect(menu).toBeHidden();
      expect((await main.boundingBox())!.x).toBe(0);
      expect((await main.boundingBox())!.width).toBe(1280);

      // And back.
      await fold.click();
      await expect(menu).toBeVisible();
      expect((await main.boundingBox())!.x).toBe(255);

      // With the keyboard: the toggle is the page's first stop (a checkbox behind the label); its
      // focus shows on the label, and Space folds and unfolds.
      await page.reload();
      await expect(menu).toBeVisible();
      await page.keyboard.press("Tab");
      await expect(page.getByRole("checkbox", { name: "Replier le menu" })).toBeFocused();
      const ring = await fold.evaluate((el) => {
        const style = getComputedStyle(el);
        return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
      });
      expect(ring.style, "focus ring on the toggle").not.toBe("none");
      expect(ring.width).toBeGreaterThanOrEqual(2);
      await page.keyboard.press("Space");
      await expect(menu).toBeHidden();
      await page.keyboard.press("Space");
      await expect(menu).toBeVisible();
      await page.mouse.click(640, 400); // focus leaves the toggle: no ring
      expect(await fold.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("none");

      // On 'Mon profil' the fixed Save bar follows the menu.
      await menu.getByRole("link", { name: "Mon profil" }).click();
      await expect(page).toHaveURL(/\/dashboard\/profil$/);
      const saveBar = page.locator(".save-bar");
      await expect(saveBar.getByRole("button", { name: "Enregistrer" })).toBeVisible();
      expect((await saveBar.boundingBox())!.x).toBe(255);
      await fold.click();
      await expect(menu).toBeHidden();
      expect((await saveBar.boundingBox())!.x).toBe(0);
      await fold.click();
      await expect(menu).toBeVisible();
      expect((await saveBar.boundingBox())!.x).toBe(255);
    });
  });
});
