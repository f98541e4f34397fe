// The settings forms that share one save hook (components/ui/useSave.ts): the partner's pricing grid,
// the admin's deviseur settings, the partner's cocktail catalogue. Each shows the server's message
// (or its own) once saved, and the server's refusal with the field it is about.
import { expect, type Page, test } from "@playwright/test";
import { DEMO, loginThroughForm, uniqueId } from "./support/helpers.ts";

test.use({ viewport: { width: 1280, height: 800 } });

const notice = (page: Page) => page.getByTestId("notice");

test("'Ma grille tarifaire' : la sauvegarde affiche le message du serveur", async ({ page }) => {
  await loginThroughForm(page, DEMO.partner2.email);
  await page.goto("/dashboard/partenaire/grille-tarifaire");
  const save = page.getByRole("button", { name: "Sauvegarder les tarifs" });
  await expect(save).toBeEnabled();
  await save.click();
  await expect(notice(page)).toHaveText("Grille tarifaire sauvegardée avec succès.");
  await expect(save).toBeEnabled();
});

test("'Paramètres' des devis : un refus du serveur sous son champ, puis la sauvegarde", async ({ page }) => {
  await loginThroughForm(page, DEMO.admin.email);
  await page.goto("/dashboard/admin/devis/parametres");
  const save = page.getByRole("button", { name: "Sauvegarder les paramètres" });
  const validity = page.getByLabel("Validité du devis", { exact: true });
  await expect(save).toBeEnabled();
  const original = await validity.inputValue();

  // Out of the server's bounds: its message, on the notice and under the field.
  await validity.fill("400");
  await save.click();
  const refused = "« Validité du devis » doit être compris entre 1 et 365.";
  await expect(notice(page)).toHaveText(refused);
  await expect(validity).toHaveAttribute("aria-invalid", "true");

  await validity.fill(String(Number(original) === 45 ? 46 : 45));
  await save.click();
  await expect(notice(page)).toHaveText("Les paramètres ont été sauvegardés.");
  await expect(validity).not.toHaveAttribute("aria-invalid", "true");

  // Back to the value other tests expect.
  await validity.fill(original);
  await save.click();
  await expect(notice(page)).toHaveText("Les paramètres ont été sauvegardés.");
});

test("'Mes cocktails' : ajout puis suppression d'un cocktail, chacun confirmé", async ({ page }) => {
  await loginThroughForm(page, DEMO.partner2.email);
  await page.goto("/dashboard/partenaire/cocktails");
  const name = `Essai ${uniqueId()}`;
  await page.getByRole("button", { name: "Ajouter un cocktail" }).click();
  const dialog = page.getByRole("dialog", { name: "Ajouter un cocktail" });
  await dialog.getByLabel("Nom du cocktail").fill(name);
  await dialog.getByLabel("Description").fill("Rhum, citron vert, menthe.");
  await dialog.getByRole("button", { name: "Enregistrer" }).click();
  await expect(notice(page)).toHaveText("Cocktail sauvegardé avec succès !");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("tabpanel")).toContainText(name);

  await page.getByRole("button", { name: `Supprimer ${name}` }).click();
  await page.getByRole("dialog", { name: "Supprimer le cocktail" }).getByRole("button", {
    name: "Supprimer",
    exact: true,
  })
    .click();
  await expect(notice(page)).toHaveText("Cocktail supprimé avec succès !");
  await expect(page.getByRole("tabpanel")).not.toContainText(name);
});
