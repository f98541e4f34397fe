// The waiting list in the browser (issue 12): a date with one place is booked by a visitor, so it reads
// 'COMPLET' with the seat alert; a second visitor (on a phone) subscribes; the first one gives the place
// up (the line removed from the cart: the same freeing as an expired hold, which a browser test cannot
// wait 20 minutes for — the HTTP and pgTAP tests expire holds); the subscriber's email (read in the
// admins' 'Emails envoyés') holds the place, and its link puts it in the subscriber's cart. Then the
// organiser cancels the date from 'Ateliers cocktails' through the 500 px confirmation dialog.
import { expect, test } from "@playwright/test";
import { loginViaApi } from "./support/helpers.ts";

test("liste d'attente : une place libérée est gardée pour le premier inscrit, dont le lien la met dans son panier", async ({ browser }) => {
  // The organiser adds a date with one place, far ahead (its own date: no other test books it).
  const admin = await (await browser.newContext()).newPage();
  await loginViaApi(admin, "admin@example.fr");
  const sessions = (await (await admin.request.get("/api/admin/sessions")).json()).results;
  const mocktails = sessions.find((s: { slug: string }) => s.slug === "atelier-mocktails-lyon");
  const dtstart = Math.floor(Date.now() / 1000 / 3600) * 3600 +
    (200 + Math.floor(Math.random() * 100)) * 86400;
  const created = await admin.request.post(`/api/admin/session/${mocktails.id}/dates`, {
    data: { dtstart, places: 1, priceTTC: 44 },
  });
  expect(created.status(), await created.text()).toBe(200);
  const url = `/session/atelier-mocktails-lyon?date=${dtstart}`;

  // A first visitor books the only place.
  const holder = await (await browser.newContext()).newPage();
  await holder.goto(url);
  const holderRow = holder.getByTestId("session-date").filter({ hasText: "TON CHOIX" });
  await expect(holderRow).toContainText("1 place restante");
  await holderRow.getByRole("button", { name: "Réserver" }).click();
  await expect(holder.getByTestId("notice")).toContainText("Places réservées");

  // The subscriber, on a phone: 'COMPLET' and the alert, no quantity selector.
  const subscriberContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const subscriber = await subscriberContext.newPage();
  await subscriber.goto(url);
  const row = subscriber.getByTestId("session-date").filter({ hasText: "TON CHOIX" });
  await expect(row).toContainText("COMPLET");
  await expect(row.getByLabel("Quantité")).toHaveCount(0);
  const email = `attente.${Date.now()}@example.fr`;
  await row.getByRole("button", { name: "M'alerter si une place se libère" }).click();
  const dialog = subscriber.getByRole("dialog", { name: "M'alerter si une place se libère" });
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("checkbox").check();
  await dialog.getByRole("button", { name: "Valider" }).click();
  await expect(dialog).toContainText("Votre alerte a bien été prise en compte");

  // The holder gives the place up: it goes to the subscriber, not back on sale.
  await holder.goto("/panier");
  await expect(holder.locator("[data-testid=header-cart]:visible")).toContainText("1");
  await holder.getByTestId("cart-line").getByRole("button", { name: "Retirer" }).click();
  await expect(holder.getByText("Votre panier est vide.")).toBeVisible();
  await holder.goto(url);
  await expect(holder.getByTestId("session-date").filter({ hasText: "TON CHOIX" })).toContainText("COMPLET");

  // The waiting list's email, as the organiser sees it in the outbox (the worker writes it in seconds).
  let link = "";
  await expect(async () => {
    await admin.goto("/dashboard/admin/emails");
    const mail = admin.locator("li", { hasText: email }).filter({ hasText: "Une place s'est libérée" });
    await expect(mail).toHaveCount(1);
    link = /\/date\/alert\/offre\/\S+/.exec(await mail.locator("pre").textContent() ?? "")?.[0] ?? "";
    expect(link).not.toBe("");
  }).toPass({ timeout: 20_000 });

  await subscriber.goto(link);
  await expect(subscriber.getByRole("heading", { name: "Une place s'est libérée pour vous" })).toBeVisible();
  await expect(subscriber.getByTestId("seat-offer")).toContainText("Une place vous est gardée jusqu'à");
  await subscriber.getByRole("button", { name: "Ajouter cette place à mon panier" }).click();
  await expect(subscriber).toHaveURL(/\/panier$/);
  await expect(subscriber.getByTestId("cart-line")).toHaveCount(1);
  await expect(subscriber.getByTestId("cart-line")).toContainText("Atelier mocktails sans alcool");
  await expect(subscriber.locator("[data-testid=header-cart]:visible")).toContainText("1");
  // Single use.
  await subscriber.goto(link);
  await expect(subscriber.getByTestId("seat-offer")).toContainText("Ce lien a déjà servi");

  // The organiser cancels the date from the list, through the confirmation dialog (500 px).
  await admin.goto("/dashboard/admin/ateliers");
  const adminRow = admin.getByTestId("upcoming-dates").locator("tr", { hasText: "Atelier mocktails" }).last();
  await adminRow.getByRole("link", { name: /Annuler la date/ }).click();
  const confirm = admin.getByRole("dialog", { name: "Annuler cette date ?" });
  await expect(confirm).toBeVisible();
  expect((await confirm.boundingBox())?.width).toBeLessThanOrEqual(500);
  await confirm.getByRole("button", { name: "Annuler la date" }).click();
  await expect(admin.locator("[data-flash-type]", { hasText: "La date a été annulée" })).toBeVisible();
  await subscriber.goto("/panier");
  await expect(subscriber.getByText("Votre panier est vide.")).toBeVisible();
});
