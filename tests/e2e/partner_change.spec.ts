// 'Changer de partenaire' on a quote the customer already received (issue "Invoices…" §3): the dialog
// says, before confirming, that the deal goes back to 'Nouvelle demande' and that both partners are
// emailed; once confirmed, the row shows the new partner and status, and the notice says so.
import { expect, test } from "@playwright/test";
import { DEMO, loginViaApi } from "./support/helpers.ts";

test("changing the partner of a sent quote warns first, then sends it back to 'Nouvelle demande'", async ({ page }) => {
  await loginViaApi(page, DEMO.admin.email);
  await page.goto("/dashboard/admin/devis?status=send");
  const first = page.getByTestId("deals-table").getByRole("row").filter({ hasText: "Devis envoyé" }).first();
  // Held by its id: once changed, the row no longer reads 'Devis envoyé'.
  const row = page.getByTestId("deals-table").locator(
    `tr[data-deal-id="${await first.getAttribute("data-deal-id")}"]`,
  );
  const current = (await row.getByTestId("deal-partner").textContent())?.trim() ?? "";
  await row.getByRole("button", { name: /Plus d'actions pour le devis #\d+/ }).click();
  await page.getByRole("menuitem", { name: "Changer de partenaire" }).click();

  const dialog = page.getByRole("dialog", { name: "Changer de partenaire" });
  // Another partner than the current one.
  const other = dialog.getByTestId("partner-options").getByRole("button", { disabled: false }).first();
  const name = (await other.locator("span.font-semibold").textContent())!.trim();
  expect(name).not.toBe(current);
  await other.click();
  await expect(dialog.getByTestId("partner-change-notice")).toContainText(
    "il repassera en « Nouvelle demande » pour que le nouveau partenaire valide sa disponibilité",
  );
  await expect(dialog.getByTestId("partner-change-notice")).toContainText(
    "l'ancien et le nouveau partenaire seront prévenus par email",
  );
  await dialog.getByRole("button", { name: "Confirmer le changement" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("notice")).toHaveText(
    `Partenaire changé pour ${name} : le devis repasse en « Nouvelle demande » et les deux partenaires ont été prévenus par email.`,
  );
  await expect(row.getByTestId("deal-partner")).toHaveText(name);
  await expect(row).toContainText("Nouvelle demande");
});
