// The admin's 'send email' (spec 001 §2.12, §8): from a row of 'Liste des devis', the dialog (700 px)
// lists the manual templates, those that do not apply to the deal disabled with the reason; 'Rappel
// client' is sent, the list says so, and the email shows in
// 'Emails envoyés' (the embedded default keeps mail) once the worker has written it.
import { expect, test } from "@playwright/test";
import { DEMO, loginViaApi } from "./support/helpers.ts";

test("the admin sends 'Rappel client' from the deals list and finds it in 'Emails envoyés'", async ({ page }) => {
  await loginViaApi(page, DEMO.admin.email);
  await page.goto("/dashboard/admin/devis");
  // A quote sent to its customer: the reminder links a page they can open.
  const row = page.getByTestId("deals-table").getByRole("row").filter({ hasText: "Devis envoyé" }).first();
  await row.getByRole("button", { name: /Plus d'actions pour le devis #\d+/ }).click();
  await page.getByRole("menuitem", { name: "Envoyer un email" }).click();

  const dialog = page.getByRole("dialog", { name: "Envoyer un email" });
  await expect(dialog.getByText("Rappel partenaire")).toBeVisible();
  await expect(dialog.getByText("Facture client")).toBeVisible();
  // A partner who validated and a quote without payment: those two say why they cannot be sent.
  await expect(dialog.locator('[data-unavailable="deal-reminder-manual-partner"]')).toHaveText(
    "Indisponible : Le partenaire a déjà validé sa disponibilité : il n'a rien à faire sur ce devis.",
  );
  await expect(dialog.locator('[data-template="deal-reminder-manual-partner"]')).toBeDisabled();
  await expect(dialog.locator('[data-unavailable="deal-invoice-customer"]')).toContainText("Aucune facture");
  await expect(dialog.locator('[data-template="deal-invoice-customer"]')).toBeDisabled();
  await expect(dialog.locator('[data-unavailable="deal-reminder-manual-customer"]')).toHaveCount(0);
  expect((await dialog.boundingBox())!.width).toBeLessThanOrEqual(700);
  await dialog.locator('[data-template="deal-reminder-manual-customer"]').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("notice")).toHaveText('Email "Rappel client" envoyé avec succès !');

  await expect(async () => {
    await page.goto("/dashboard/admin/emails");
    await expect(page.getByText("Rappel : votre devis vous attend").first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
});
