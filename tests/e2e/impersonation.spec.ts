// Admin impersonation: 'Se connecter en tant que' from the user list, the 'Mode Administrateur' bar,
// and switching back to the admin account.
import { expect, test } from "@playwright/test";
import { dashboardMenu, DEMO, loginThroughForm, menuLabels } from "./support/helpers.ts";

test("un administrateur se connecte en tant que client puis revient à son compte", async ({ page }) => {
  await loginThroughForm(page, DEMO.admin.email);
  await expect(page).toHaveURL(/\/dashboard\/admin\/utilisateurs$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Utilisateurs");
  await expect(page.getByTestId("user-name")).toHaveText(DEMO.admin.name);
  await expect(page.getByTestId("admin-mode")).toHaveCount(0);
  const menu = dashboardMenu(page);
  await expect(menu.getByRole("link", { name: "Utilisateurs" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Emails envoyés" })).toBeVisible();

  // The admin's own row has no impersonation button; the client's row has one.
  await expect(
    page.locator(`tr[data-user-email="${DEMO.admin.email}"]`).getByRole("button", {
      name: "Se connecter en tant que",
    }),
  ).toHaveCount(0);
  const row = page.locator(`tr[data-user-email="${DEMO.client.email}"]`);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(DEMO.client.name);
  await expect(row).toContainText("Client");
  await Promise.all([
    page.waitForURL(/\/dashboard$/),
    row.getByRole("button", { name: "Se connecter en tant que" }).click(),
  ]);

  // Now acting as the client.
  const adminMode = page.getByTestId("admin-mode");
  await expect(adminMode).toBeVisible();
  await expect(adminMode).toContainText("Mode Administrateur");
  await expect(page.getByTestId("user-name")).toHaveText(DEMO.client.name);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mon tableau de bord");
  await expect(menu.getByRole("link", { name: "Utilisateurs" })).toHaveCount(0);
  await expect(menu.getByRole("link", { name: "Emails envoyés" })).toHaveCount(0);
  await expect(menu.getByRole("link")).toHaveText(menuLabels("Customer"));
  await expect(menu.getByRole("link", { name: "Mes demandes de devis en cours" })).toBeVisible();

  // The client's profile is shown, and the admin pages are closed while impersonating.
  await menu.getByRole("link", { name: "Mon profil" }).click();
  await expect(page.getByTestId("profile-form").locator("input[name=email]")).toHaveValue(DEMO.client.email);
  await expect(page.getByTestId("admin-mode")).toContainText("Mode Administrateur");
  const forbidden = await page.goto("/dashboard/admin/utilisateurs");
  expect(forbidden?.status()).toBe(403);
  await expect(page.getByTestId("error-message")).toHaveText("Vous n'avez pas accès à cette page.");

  // Switch back.
  await page.goto("/dashboard");
  await Promise.all([
    page.waitForURL(/\/dashboard\/admin\/utilisateurs$/),
    page.getByTestId("admin-mode").getByRole("button", { name: "Revenir à mon compte" }).click(),
  ]);
  await expect(page.getByTestId("admin-mode")).toHaveCount(0);
  await expect(page.getByText("Mode Administrateur")).toHaveCount(0);
  await expect(page.getByTestId("user-name")).toHaveText(DEMO.admin.name);
  await expect(menu.getByRole("link", { name: "Utilisateurs" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Emails envoyés" })).toBeVisible();
  await expect(page.locator(`tr[data-user-email="${DEMO.client.email}"]`)).toHaveCount(1);
});

test("un client ne peut pas se connecter en tant qu'un autre utilisateur", async ({ page }) => {
  await loginThroughForm(page, DEMO.client2.email);
  const usersPage = await page.goto("/dashboard/admin/utilisateurs");
  expect(usersPage?.status()).toBe(403);
  await expect(page.getByTestId("error-message")).toHaveText("Vous n'avez pas accès à cette page.");
  await page.goto("/dashboard");
  await expect(page.getByTestId("user-name")).toHaveText(DEMO.client2.name);
  await expect(dashboardMenu(page).getByRole("link", { name: "Utilisateurs" })).toHaveCount(0);
  // Impersonation itself is refused to a non-admin.
  const attempt = await page.request.post("/admin/switch/00000000-0000-4000-8000-000000000000", {
    headers: { accept: "application/json", origin: new URL(page.url()).origin },
  });
  expect(attempt.status()).toBe(403);
  await page.reload();
  await expect(page.getByTestId("admin-mode")).toHaveCount(0);
  await expect(page.getByTestId("user-name")).toHaveText(DEMO.client2.name);
  // And the switch-back address refuses someone who is not impersonating.
  const switchBack = await page.goto("/admin/switch-back");
  expect(switchBack?.status()).toBe(400);
  await expect(page.getByTestId("error-message")).toHaveText("Vous n'êtes pas en mode administrateur.");
});
