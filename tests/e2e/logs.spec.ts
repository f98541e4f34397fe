// 'Gestion des Logs' in the browser (spec 001 §2.13, §8): 'Nettoyer les anciens' after its confirmation
// (the cleanup writes a row of its own), the service and type filters answering in place and kept in
// the URL, the empty state, and deleting a row after 'Voulez-vous vraiment supprimer ce log ?'.
import { expect, test } from "@playwright/test";
import { DEMO, loginViaApi } from "./support/helpers.ts";

test("logs page: cleanup, filters and delete", async ({ page }) => {
  await loginViaApi(page, DEMO.admin.email);
  await page.goto("/dashboard/admin/logs");
  await expect(page.getByRole("heading", { name: "Gestion des Logs" })).toBeVisible();
  await expect(page.getByTestId("hubspot-sync")).toContainText("Synchronisation HubSpot désactivée");
  const rows = page.locator("tbody tr");

  await page.getByRole("button", { name: "Nettoyer les anciens" }).click();
  const cleanup = page.getByRole("dialog", { name: "Nettoyer les anciens" });
  await expect(cleanup).toContainText("Voulez-vous vraiment supprimer les logs de plus de 30 jours ?");
  await cleanup.getByRole("button", { name: "Nettoyer" }).click();
  await expect(page.getByTestId("notice")).toContainText("de plus de 30 jours");
  await expect(rows.filter({ hasText: "Nettoyage des logs de plus de 30 jours" }).first()).toBeVisible();

  await page.getByLabel("Service").selectOption("logs");
  await expect(page).toHaveURL(/service=logs/);
  // The French name of the service; the URL and the API keep its id.
  await expect(rows.first()).toContainText("Logs");
  const count = await rows.count();
  expect(count).toBeGreaterThan(0);
  await page.getByLabel("Type").selectOption("error");
  await expect(page.getByText("Aucun log ne correspond à ces filtres.")).toBeVisible();
  await page.getByLabel("Type").selectOption("");
  await expect(rows).toHaveCount(count);

  await rows.first().getByRole("button", { name: "Supprimer le log" }).click();
  const confirm = page.getByRole("dialog", { name: "Supprimer le log" });
  await expect(confirm).toContainText("Voulez-vous vraiment supprimer ce log ?");
  await confirm.getByRole("button", { name: "Supprimer" }).click();
  await expect(page.getByTestId("notice")).toHaveText("Log supprimé avec succès");
  await expect(rows).toHaveCount(count - 1);
});
