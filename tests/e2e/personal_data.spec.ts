// 'Mon profil' → 'Télécharger mes données': the browser downloads mes-donnees-<date>.json holding the
// signed-in user's own profile (GET /api/user/export).
import { expect, test } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { registerViaApi } from "./support/helpers.ts";

test("'Télécharger mes données' downloads the user's data as a JSON file", async ({ page }) => {
  const account = await registerViaApi(page);
  await page.goto("/dashboard/profil");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Télécharger mes données" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^mes-donnees-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await readFile((await file.path())!, "utf8"));
  expect(data.profile.email).toBe(account.email.toLowerCase());
  expect(data.consents.find((c: { kind: string }) => c.kind === "cgu").given).toBe(true);
});
