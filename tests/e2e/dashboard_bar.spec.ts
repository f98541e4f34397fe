// The dashboard's top bar on a phone (390 px): the user's name stays in view (cut with an ellipsis when
// room is short, the whole name as its title), beside the logout button, also while an admin
// impersonates a customer ('Mode Administrateur'). Nothing in the bar overflows the screen.
import { expect, type Page, test } from "@playwright/test";
import { DEMO, loginThroughForm } from "./support/helpers.ts";

test.use({ viewport: { width: 390, height: 844 } });

async function expectBarFits(page: Page, name: string) {
  const userName = page.getByTestId("user-name");
  await expect(userName).toBeVisible();
  await expect(userName).toHaveAttribute("title", name);
  const box = await userName.boundingBox();
  expect(box).not.toBeNull();
  // A few letters at least, inside the screen, left of the logout button.
  expect(box!.width).toBeGreaterThan(40);
  const logout = await page.getByRole("button", { name: "Déconnexion" }).boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(logout!.x + 1);
  expect(logout!.x + logout!.width).toBeLessThanOrEqual(390);
  const overflow = await page.locator("header").first().evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBe(0);
}

test("le nom de l'utilisateur reste dans la barre sur un téléphone, aussi en mode administrateur", async (
  { page },
  testInfo,
) => {
  await loginThroughForm(page, DEMO.client.email);
  await expect(page).toHaveURL(/\/dashboard/);
  await expectBarFits(page, DEMO.client.name);
  await expect(page.getByTestId("user-name")).toHaveText(DEMO.client.name);
  await page.screenshot({ path: testInfo.outputPath("barre-client-390.png") });
  await page.context().clearCookies();

  await loginThroughForm(page, DEMO.admin.email);
  const row = page.locator(`tr[data-user-email="${DEMO.client.email}"]`);
  await Promise.all([
    page.waitForURL(/\/dashboard$/),
    row.getByRole("button", { name: "Se connecter en tant que" }).click(),
  ]);
  await expect(page.getByTestId("admin-mode")).toContainText("Mode Administrateur");
  await expect(page.getByTestId("admin-mode").getByRole("button", { name: "Revenir à mon compte" }))
    .toBeVisible();
  await expectBarFits(page, DEMO.client.name);
  await page.screenshot({ path: testInfo.outputPath("barre-impersonation-390.png") });
});
