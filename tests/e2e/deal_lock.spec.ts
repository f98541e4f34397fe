// The admin's edit lock in the partner's 'Paramètres' tab: the deposit and the cocktail list are shown
// but not editable while the admin locks edits (the server refuses them too: tests/http/
// deal_lock_test.ts), and editable again once unlocked. A deal of its own, made through the API (never
// a demo deal).
import { expect, request, test } from "@playwright/test";
import { DEMO, DEMO_PASSWORD, loginThroughForm, quoteRequestData, uniqueId } from "./support/helpers.ts";

async function api(baseURL: string, email?: string) {
  const context = await request.newContext({ baseURL });
  if (email) {
    const login = await context.post("/api/security/login", {
      data: { username: email, password: DEMO_PASSWORD },
    });
    expect(login.status(), await login.text()).toBe(200);
  }
  return context;
}

test("a partner cannot touch the deposit of a locked deal", async ({ page, baseURL }) => {
  const visitor = await api(baseURL!);
  const lastname = `Verrou-${uniqueId()}`;
  const sent = await visitor.post("/api/deal/request", { data: quoteRequestData({ lastname }) });
  expect(sent.status(), await sent.text()).toBe(200);
  const admin = await api(baseURL!, DEMO.admin.email);
  const list = await (await admin.get(`/api/deal/index?search=${encodeURIComponent(lastname)}`)).json();
  const id = list.results[0].id as number;
  const companies = (await (await admin.get("/api/company/index")).json()).results as {
    id: string;
    email: string;
  }[];
  const partnerId = companies.find((c) => c.email === DEMO.partner.email)!.id;
  expect((await admin.patch(`/api/deal/${id}`, { data: { company: partnerId } })).status()).toBe(200);
  expect((await admin.post(`/api/deal/${id}/send-to-partner`)).status()).toBe(200);
  const locked = await admin.patch(`/api/deal/${id}`, {
    data: { adminSettings: { disableQuoteEdits: true } },
  });
  expect(locked.status(), await locked.text()).toBe(200);

  await loginThroughForm(page, DEMO.partner.email);
  await page.goto(`/dashboard/espace-partenaire/deal/${id}#settings`);
  const tab = page.getByTestId("settings-tab");
  await expect(tab).toBeVisible();
  await expect(page.locator("#settings-hasDeposit")).toBeDisabled();
  await expect(page.locator("#settings-depositPercentage")).toBeDisabled();

  // Unlocked by the admin: the partner edits the deposit again.
  const unlocked = await admin.patch(`/api/deal/${id}`, {
    data: { adminSettings: { disableQuoteEdits: false } },
  });
  expect(unlocked.status()).toBe(200);
  await page.reload();
  // New quotes offer no deposit (spec 001 §3 'hasDeposit: false'): the partner turns it on first.
  await expect(page.locator("#settings-hasDeposit")).toBeEnabled();
  await page.locator("#settings-hasDeposit").check();
  await expect(page.locator("#settings-depositPercentage")).toBeEnabled();
  await page.locator("#settings-depositPercentage").fill("40");
  await page.getByTestId("save-settings").click();
  await expect(page.getByText("Paramètres du devis sauvegardés.")).toBeVisible();
  await admin.dispose();
  await visitor.dispose();
});
