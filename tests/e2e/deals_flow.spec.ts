// The quote (deal) workflow as its users click through it, each step on a deal of its own (created
// and moved to the step's starting point through the API, so that every test stands alone):
// - a visitor asks for a quote on /demande-de-devis from a phone and reads the instant estimate;
// - the admin finds the request by the customer's name in 'Liste des devis', gives it to
//   partenaire@ (Shaker & Co) through 'Changer de partenaire' and sends it to the partner;
// - the partner opens it from 'Mes devis', validates its availability, changes a quote line (the
//   totals follow), is asked to revalidate and does so;
// - another partner (partenaire2@) cannot open it;
// - the admin records the deposit by hand: the deal page and the admin list show the new status;
// - the customer (client@, linked to the deal by opening its link while signed in, as the product
//   does) sees the quote, its amounts and the deposit paid, from a phone.
// Never demo deals: the other specs rely on them. The file sends 7 quote requests per run, and the
// server takes 10 an hour from one address (lib/deals/use_cases/request_quote.ts, REQUESTS_PER_CLIENT): do not
// --repeat-each it on one server.
import { type APIRequestContext, expect, type Locator, type Page, request, test } from "@playwright/test";
import {
  DEMO,
  DEMO_PASSWORD,
  loginThroughForm,
  quoteRequestData,
  uniqueId,
  uniquePhone,
} from "./support/helpers.ts";
import { euros } from "../../lib/deals/format.ts";

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } as const;
const DESKTOP = { viewport: { width: 1280, height: 800 } } as const;

const SEARCH = "Recherche par client, partenaire ou ID...";
const PARTNER_NAME = "Shaker & Co";

/** "1 234,50 €" → 1234.5 */
function amountOf(text: string): number {
  const cleaned = text.replace(/[^\d,-]/g, "").replace(",", ".");
  const value = Number(cleaned);
  if (cleaned === "" || Number.isNaN(value)) throw new Error(`pas un montant : ${JSON.stringify(text)}`);
  return value;
}

async function amountIn(locator: Locator): Promise<number> {
  return amountOf(await locator.innerText());
}

/** A date `days` from today, YYYY-MM-DD. */
function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

// ---------------------------------------------------------------------------------------------------
// Setup through the API: the steps before the one a test clicks through.

interface Requested {
  id: number;
  token: string;
  firstname: string;
  lastname: string;
  email: string;
}

class Backstage {
  private contexts: APIRequestContext[] = [];
  constructor(private baseURL: string) {}

  async as(email?: string): Promise<APIRequestContext> {
    const api = await request.newContext({ baseURL: this.baseURL });
    this.contexts.push(api);
    if (email) {
      const login = await api.post("/api/security/login", {
        data: { username: email, password: DEMO_PASSWORD },
      });
      expect(login.status(), await login.text()).toBe(200);
    }
    return api;
  }

  /** A quote request as a visitor sends it; its id as the admin list finds it. */
  async requestDeal(
    contact: { firstname?: string; lastname?: string; email?: string } = {},
  ): Promise<Requested> {
    const firstname = contact.firstname ?? "Margaux";
    const lastname = contact.lastname ?? `Flux-${uniqueId()}`;
    const email = contact.email ?? `${lastname.toLowerCase()}@example.test`;
    const visitor = await this.as();
    const sent = await visitor.post("/api/deal/request", {
      data: quoteRequestData({ deal_prestation_date: inDays(90), firstname, lastname, email }),
    });
    expect(sent.status(), await sent.text()).toBe(200);
    const token = (await sent.json()).results.token as string;
    const admin = await this.as(DEMO.admin.email);
    const list = await admin.get(`/api/deal/index?search=${encodeURIComponent(lastname)}`);
    expect(list.status()).toBe(200);
    const found = ((await list.json()).results as { id: number; token: string }[])
      .find((d) => d.token === token);
    expect(found, `deal of ${lastname}`).toBeTruthy();
    return { id: found!.id, token, firstname, lastname, email };
  }

  /** The admin gives the deal to partenaire@ and sends it to them (status 'Nouvelle demande'). */
  async sendToPartner(id: number): Promise<void> {
    const admin = await this.as(DEMO.admin.email);
    const companies = (await (await admin.get("/api/company/index")).json()).results as {
      id: string;
      email: string;
    }[];
    const partner = companies.find((c) => c.email === DEMO.partner.email);
    expect(partner, "partenaire@ in /api/company/index").toBeTruthy();
    const patched = await admin.patch(`/api/deal/${id}`, { data: { company: partner!.id } });
    expect(patched.status(), await patched.text()).toBe(200);
    const sent = await admin.post(`/api/deal/${id}/send-to-partner`);
    expect(sent.status(), await sent.text()).toBe(200);
  }

  /** The partner validates its availability (status 'Devis envoyé'). */
  async validate(id: number): Promise<void> {
    const partner = await this.as(DEMO.partner.email);
    const validated = await partner.post(`/api/deal/${id}/validate-availability`);
    expect(validated.status(), await validated.text()).toBe(200);
  }

  async recordDeposit(id: number, amount: number): Promise<void> {
    const admin = await this.as(DEMO.admin.email);
    const paid = await admin.post(`/api/deal/${id}/payments`, { data: { kind: "deposit", amount } });
    expect(paid.status(), await paid.text()).toBe(200);
  }

  /** The deal as the admin reads it (amounts in euros). */
  async deal(id: number): Promise<{
    company: { id: string } | null;
    totals: { totalInvoiceByPartner: number; totalTTC: number };
  }> {
    const admin = await this.as(DEMO.admin.email);
    const answer = await admin.get(`/api/deal/get/${id}`);
    expect(answer.status()).toBe(200);
    return (await answer.json()).results;
  }

  async dispose(): Promise<void> {
    await Promise.all(this.contexts.map((c) => c.dispose()));
  }
}

let backstage: Backstage;
test.beforeEach(({ baseURL }) => {
  backstage = new Backstage(baseURL!);
});
test.afterEach(async () => {
  await backstage.dispose();
});

// ---------------------------------------------------------------------------------------------------
// Pages.

/** Goes to a dashboard page through the side menu. */
async function openMenu(page: Page, label: string, path: string): Promise<void> {
  await Promise.all([
    page.waitForURL((url) => url.pathname === path),
    page.getByRole("navigation", { name: "Menu du tableau de bord" }).getByRole("link", {
      name: label,
      exact: true,
    })
      .click(),
  ]);
}

/** Searches the admin list (Enter submits: in place once the island runs, by the form before). */
async function searchAdminList(page: Page, text: string): Promise<Locator> {
  const box = page.getByRole("searchbox", { name: SEARCH });
  await box.fill(text);
  await box.press("Enter");
  // One deal found, and nothing loading any more.
  await expect(page.getByTestId("deals-range")).toHaveText("1–1 sur 1");
  const row = page.getByTestId("deals-table").getByRole("row").filter({ hasText: text });
  await expect(row).toHaveCount(1);
  return row;
}

/** 'Changer de partenaire' from a row of the admin list: partenaire@ (searched by email) takes the deal. */
async function giveToPartner(page: Page, row: Locator, id: number): Promise<void> {
  await row.getByRole("button", { name: `Plus d'actions pour le devis #${id}` }).click();
  await page.getByRole("menuitem", { name: "Changer de partenaire" }).click();
  const dialog = page.getByRole("dialog", { name: "Changer de partenaire" });
  await expect(dialog).toContainText(`Devis #${id} — partenaire actuel : aucun`);
  await dialog.getByRole("searchbox", { name: "Rechercher un partenaire par nom ou email" }).fill(
    DEMO.partner.email,
  );
  const choice = dialog.getByRole("button", { name: new RegExp(PARTNER_NAME) });
  await expect(choice).toHaveCount(1);
  await expect(choice).toContainText(DEMO.partner.email);
  await choice.click();
  // The change waits for the admin's confirmation, with the total the server computes.
  await expect(dialog.getByTestId("partner-preview")).toBeVisible();
  await dialog.getByRole("button", { name: "Confirmer le changement" }).click();
  await expect(dialog).toBeHidden();
  await expect(notice(page)).toHaveText(`Le partenaire du devis est maintenant ${PARTNER_NAME}.`);
  await expect(row.getByTestId("deal-partner")).toHaveText(PARTNER_NAME);
}

/** The 'Montant HT' cell of a row of the deals table (7th column). */
const amountCell = (row: Locator) => row.getByRole("cell").nth(6);

/** A full-page screenshot from the top (the top bar is sticky: scrolled, it would show mid-page). */
async function screenshot(page: Page, path: string): Promise<void> {
  await page.evaluate(() => globalThis.scrollTo(0, 0));
  await page.screenshot({ path, fullPage: true });
}

/** The status chip of the deal page's 'Statut en cours' section. */
const statusChip = (page: Page) =>
  page.getByRole("region", { name: "Statut en cours" }).locator("[data-status]");

const notice = (page: Page) => page.getByTestId("notice");

/** Opens a deal page from a list's link and waits for its island. */
async function openDealFrom(page: Page, link: Locator, id: number): Promise<void> {
  await Promise.all([
    page.waitForURL((url) => url.pathname === `/dashboard/espace-partenaire/deal/${id}`),
    link.click(),
  ]);
  await expect(page.getByTestId("deal-detail")).toHaveAttribute("data-deal-id", String(id));
}

// ---------------------------------------------------------------------------------------------------

test.describe("Demande de devis d'un visiteur (390 px, tactile)", () => {
  test.use(PHONE);

  test("le visiteur remplit le formulaire, envoie sa demande et lit l'estimation immédiate", async ({ page }) => {
    const lastname = `Flux-${uniqueId()}`;
    await page.goto("/demande-de-devis");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demander un devis");
    const form = page.getByTestId("deal-request-form");

    await form.getByLabel("Type d'événement").selectOption("Anniversaire");
    await form.getByLabel("Date de l'événement (facultatif)").fill(inDays(120));
    await form.getByLabel("Horaire souhaité (facultatif)").selectOption({ label: "19h30" });
    await form.getByLabel("Nombre d'invités").fill("80");
    await form.getByLabel("Durée du service").selectOption({ label: "4h00" });
    await form.getByLabel("Ville", { exact: true }).fill("Lyon");
    await form.getByRole("radio", { name: /Oui, il nous faut un bar/ }).check();
    await form.getByRole("radio", { name: /Cocktails classiques/ }).check();
    await form.getByLabel("Prénom").fill("Léa");
    await form.getByLabel("Nom", { exact: true }).fill(lastname);
    await form.getByLabel("Email").fill(`${lastname.toLowerCase()}@example.test`);
    await form.getByLabel("Téléphone").fill(uniquePhone());
    await form.getByLabel("Votre message (facultatif)").fill("Anniversaire surprise dans un jardin.");
    await form.getByRole("checkbox", { name: /J'accepte d'être contacté/ }).check();
    await form.getByRole("button", { name: "Envoyer ma demande" }).tap();

    const estimate = page.getByTestId("request-estimate");
    await expect(estimate.getByRole("status")).toContainText(
      "Merci Léa, votre demande de devis est bien envoyée !",
    );
    await expect(estimate.getByRole("status")).toContainText(`${lastname.toLowerCase()}@example.test`);
    await expect(estimate.getByRole("heading", { name: "Votre estimation immédiate" })).toBeVisible();
    const facts = estimate.getByRole("list", { name: "Votre événement" });
    await expect(facts).toContainText("Anniversaire");
    await expect(facts).toContainText("à partir de 19h30");
    await expect(facts).toContainText("80 invités");
    await expect(facts).toContainText("4h00 de service");
    await expect(facts).toContainText("Lyon");
    await expect(estimate.getByRole("row", { name: /Gestion de projet/ })).toBeVisible();

    // The totals add up: the lines and 'Gestion de projet' make the total HT; HT + TVA = TTC.
    const table = estimate.getByRole("table", { name: /Détail de l'estimation/ });
    const bodyAmounts = await table.locator("tbody tr td:last-child").allInnerTexts();
    expect(bodyAmounts.length).toBeGreaterThan(1);
    const ht = await amountIn(estimate.getByTestId("estimate-total-ht"));
    const ttc = await amountIn(estimate.getByTestId("estimate-total-ttc"));
    const vat = await amountIn(table.getByRole("row", { name: /^TVA/ }).getByRole("cell"));
    expect(ht).toBeGreaterThan(0);
    expect(bodyAmounts.map(amountOf).reduce((a, b) => a + b, 0)).toBeCloseTo(ht, 2);
    expect(ht + vat).toBeCloseTo(ttc, 2);
    const perPerson = await amountIn(estimate.getByTestId("estimate-per-person"));
    expect(perPerson).toBeCloseTo(ht / 80, 1);

    // Nothing spills sideways on the phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - globalThis.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test.describe("Back-office (1280 px)", () => {
  test.use(DESKTOP);

  test("l'admin retrouve la demande par le nom du client, la confie à partenaire@ et la lui envoie", async ({ page }) => {
    const deal = await backstage.requestDeal();
    await loginThroughForm(page, DEMO.admin.email);
    await openMenu(page, "Devis", "/dashboard/admin/devis");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Devis");

    const row = await searchAdminList(page, deal.lastname);
    await expect(row).toContainText(`#${deal.id}`);
    await expect(row).toContainText(`${deal.firstname} ${deal.lastname}`);
    await expect(row.getByTestId("deal-partner")).toHaveText("Aucun partenaire");
    await expect(row.locator("[data-status]")).toHaveText("Devis généré");

    await giveToPartner(page, row, deal.id);

    await openDealFrom(page, row.getByRole("link", { name: `Éditer le devis #${deal.id}` }), deal.id);
    await expect(page.getByTestId("deal-partner")).toHaveText(`Partenaire : ${PARTNER_NAME}`);
    await expect(statusChip(page)).toHaveText("Devis généré");
    // What the deal waits for sits at the top of the page ('À faire'), the same button as the action row's.
    const send = page.getByTestId("next-step").getByRole("button", {
      name: "Envoyer le devis au partenaire",
    });
    await expect(send).toBeEnabled();
    await send.click();
    await expect(notice(page)).toContainText("Le devis a été envoyé au partenaire.");
    await expect(statusChip(page)).toHaveText("Nouvelle demande");
    await expect(page.getByRole("button", { name: "Devis déjà envoyé au partenaire" })).toBeDisabled();
    await expect(page.getByTestId("status-history")).toContainText("Devis généré → Nouvelle demande");

    // The list says so too.
    await page.reload();
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/dashboard/admin/devis"),
      page.getByRole("link", { name: "Retour à la liste des devis" }).click(),
    ]);
    const again = await searchAdminList(page, deal.lastname);
    await expect(again.locator("[data-status]")).toHaveText("Nouvelle demande");
    await expect(again.getByTestId("deal-partner")).toHaveText(PARTNER_NAME);
  });

  // DEFECT: the server prices the quote again with the new partner's grid (lib/deals/use_cases/update_deal.ts,
  // updateDeal), but islands/AdminDealsList.tsx (choosePartner) only updates the partner's name in the
  // row: 'Montant HT' keeps the old amount until the list is loaded again.
  test("après 'Changer de partenaire', la liste affiche le montant HT recalculé du devis", async ({ page }) => {
    const deal = await backstage.requestDeal();
    const before = (await backstage.deal(deal.id)).totals.totalInvoiceByPartner;
    await loginThroughForm(page, DEMO.admin.email);
    await openMenu(page, "Devis", "/dashboard/admin/devis");
    const row = await searchAdminList(page, deal.lastname);
    await expect(amountCell(row)).toHaveText(euros(before));

    await giveToPartner(page, row, deal.id);
    // Shaker & Co's own grid gives another price than the default one.
    const after = (await backstage.deal(deal.id)).totals.totalInvoiceByPartner;
    expect(after).not.toBe(before);
    await expect(amountCell(row), "le montant HT du devis recalculé, sans recharger la page").toHaveText(
      euros(after),
    );
  });

  test("'Changer de partenaire' demande confirmation en montrant le nouveau montant calculé par le serveur", async ({ page }) => {
    const deal = await backstage.requestDeal();
    const before = (await backstage.deal(deal.id)).totals;
    await loginThroughForm(page, DEMO.admin.email);
    await openMenu(page, "Devis", "/dashboard/admin/devis");
    const row = await searchAdminList(page, deal.lastname);
    await expect(amountCell(row)).toHaveText(euros(before.totalInvoiceByPartner));

    const pick = async () => {
      await row.getByRole("button", { name: `Plus d'actions pour le devis #${deal.id}` }).click();
      await page.getByRole("menuitem", { name: "Changer de partenaire" }).click();
      const dialog = page.getByRole("dialog", { name: "Changer de partenaire" });
      await dialog.getByRole("searchbox", { name: "Rechercher un partenaire par nom ou email" }).fill(
        DEMO.partner.email,
      );
      await dialog.getByRole("button", { name: new RegExp(PARTNER_NAME) }).click();
      return dialog;
    };

    // A tap on the partner only asks: the current and the new totals, nothing changed yet.
    let dialog = await pick();
    await expect(dialog.getByTestId("partner-confirmation")).toContainText(
      `Nouveau partenaire : ${PARTNER_NAME}`,
    );
    await expect(dialog).toContainText("Le devis sera recalculé avec la grille tarifaire de ce partenaire.");
    const ht = dialog.getByTestId("partner-preview-ht");
    await expect(ht).toContainText(euros(before.totalInvoiceByPartner));
    const announced = await ht.textContent();
    const announcedTtc = await dialog.getByTestId("partner-preview-ttc").textContent();
    expect((await backstage.deal(deal.id)).company, "rien n'est changé avant la confirmation").toBeNull();

    // 'Retour' goes back to the partners; closing the dialog changes nothing either.
    await dialog.getByRole("button", { name: "Retour" }).click();
    await expect(dialog.getByTestId("partner-options")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    const untouched = await backstage.deal(deal.id);
    expect(untouched.company).toBeNull();
    expect(untouched.totals).toEqual(before);
    await expect(row.getByTestId("deal-partner")).toHaveText("Aucun partenaire");

    // Confirmed: the deal gets exactly the totals announced.
    dialog = await pick();
    await expect(dialog.getByTestId("partner-preview-ht")).toHaveText(announced!);
    await dialog.getByRole("button", { name: "Confirmer le changement" }).click();
    await expect(dialog).toBeHidden();
    await expect(notice(page)).toHaveText(`Le partenaire du devis est maintenant ${PARTNER_NAME}.`);
    const after = (await backstage.deal(deal.id)).totals;
    expect(after.totalInvoiceByPartner).not.toBe(before.totalInvoiceByPartner);
    expect(announced).toBe(`${euros(before.totalInvoiceByPartner)} → ${euros(after.totalInvoiceByPartner)}`);
    expect(announcedTtc).toBe(`${euros(before.totalTTC)} → ${euros(after.totalTTC)}`);
    await expect(amountCell(row)).toHaveText(euros(after.totalInvoiceByPartner));
    await expect(row.getByTestId("deal-partner")).toHaveText(PARTNER_NAME);
  });

  test(
    "le partenaire ouvre le devis depuis 'Mes devis', valide sa dispo, modifie une ligne puis revalide",
    async ({ page }, testInfo) => {
      const deal = await backstage.requestDeal();
      await backstage.sendToPartner(deal.id);
      await loginThroughForm(page, DEMO.partner.email);
      await openMenu(page, "Mes devis", "/dashboard/partenaire/devis");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mes devis");
      const row = page.getByTestId("deals-table").getByRole("row").filter({ hasText: `#${deal.id}` });
      await expect(row).toHaveCount(1);
      await expect(row.locator("[data-status]")).toHaveText("Nouvelle demande");
      await openDealFrom(page, row.getByRole("link", { name: "Editer/Détails" }), deal.id);

      // Availability first: the quote goes to the customer.
      await expect(statusChip(page)).toHaveText("Nouvelle demande");
      await page.getByTestId("next-step").getByRole("button", {
        name: "Valider ma disponibilité et les cocktails",
      })
        .click();
      let dialog = page.getByRole("dialog", { name: "Valider ma disponibilité et les cocktails" });
      await dialog.getByRole("button", { name: "Valider la disponibilité" }).click();
      await expect(dialog).toBeHidden();
      await expect(notice(page)).toContainText("Disponibilité validée ! Le devis a été envoyé au client.");
      await expect(statusChip(page)).toHaveText("Devis envoyé");

      // One more guest's worth on the first line: its total, the lines' total and the key figures follow.
      const lines = page.getByRole("region", { name: "Lignes du devis" });
      const figures = page.getByRole("region", { name: "Indicateurs clés" });
      const qty = lines.getByRole("spinbutton", { name: /Quantité.*ligne 1/ });
      const unit = lines.getByRole("spinbutton", { name: /Coût unitaire.*ligne 1/ });
      const before = {
        qty: Number(await qty.inputValue()),
        unitCents: Math.round(Number(await unit.inputValue()) * 100),
        lines: await amountIn(lines.getByTestId("lines-total")),
        ht: await amountIn(figures.getByTestId("figure-total-ht")),
      };
      const save = lines.getByRole("button", { name: "Enregistrer les lignes" });
      await expect(save).toBeDisabled();
      const newQty = before.qty + 10;
      await qty.fill(String(newQty));
      const lineTotal = (newQty * before.unitCents) / 100;
      const linesTotal = before.lines + (10 * before.unitCents) / 100;
      await expect(lines.getByTestId("line-total").first()).toContainText(euros(lineTotal));
      await expect(lines.getByTestId("lines-total")).toHaveText(euros(linesTotal));
      await expect(save).toBeEnabled();
      await save.click();
      await expect(notice(page)).toContainText(
        "Informations mises à jour ! Vous devez relavider votre devis.",
      );
      await expect(statusChip(page)).toHaveText("Attente revalidation partenaire");
      await expect(save).toBeDisabled();
      await expect(qty).toHaveValue(String(newQty));

      // The key figures: lines HT + 'Gestion de projet' = total HT; total HT + TVA = total TTC.
      const figure = (label: RegExp) =>
        figures.locator("div").filter({ has: page.getByRole("term").filter({ hasText: label }) })
          .getByRole("definition");
      await expect(figure(/^Prestations \(lignes\) HT$/)).toHaveText(euros(linesTotal));
      const management = await amountIn(figure(/^Gestion de projet$/));
      const vat = await amountIn(figure(/^TVA/));
      await expect(figures.getByTestId("figure-total-ht")).toContainText(euros(linesTotal + management));
      expect(linesTotal + management).toBeGreaterThan(before.ht);
      await expect(figures.getByTestId("figure-total-ttc")).toContainText(
        euros(linesTotal + management + vat),
      );

      // Revalidation: the updated quote goes to the customer.
      await page.getByTestId("next-step").getByRole("button", { name: "(Re)valider ma dispo" }).click();
      dialog = page.getByRole("dialog", { name: "(Re)valider ma dispo" });
      await dialog.getByRole("button", { name: "Valider la disponibilité" }).click();
      await expect(dialog).toBeHidden();
      await expect(notice(page)).toContainText(
        "Disponibilité revalidée ! Le devis mis à jour a été envoyé au client.",
      );
      await expect(statusChip(page)).toHaveText("Devis modifié et envoyé");
      await expect(page.getByTestId("status-history")).toContainText(
        "Attente revalidation partenaire → Devis modifié et envoyé",
      );

      // After a reload too, and in 'Mes devis' with the new amount.
      await page.reload();
      await expect(statusChip(page)).toHaveText("Devis modifié et envoyé");
      await expect(qty).toHaveValue(String(newQty));
      await screenshot(page, testInfo.outputPath("partenaire-devis-1280.png"));
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, testInfo.outputPath("partenaire-devis-390.png"));
      await page.setViewportSize({ width: 1280, height: 800 });
      await Promise.all([
        page.waitForURL((url) => url.pathname === "/dashboard/partenaire/devis"),
        page.getByRole("link", { name: "Retour à mes devis" }).click(),
      ]);
      await expect(row.locator("[data-status]")).toHaveText("Devis modifié et envoyé");
      await expect(row).toContainText(euros(linesTotal + management));
    },
  );

  test("un autre partenaire (partenaire2@) ne peut pas ouvrir ce devis", async ({ page }) => {
    const deal = await backstage.requestDeal();
    await backstage.sendToPartner(deal.id);
    await loginThroughForm(page, DEMO.partner2.email);
    await openMenu(page, "Mes devis", "/dashboard/partenaire/devis");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mes devis");
    await expect(page.getByText(`#${deal.id}`, { exact: true })).toHaveCount(0);

    const response = await page.goto(`/dashboard/espace-partenaire/deal/${deal.id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page introuvable");
    await expect(page.getByTestId("error-message")).toHaveText(
      "Ce devis n'existe pas ou vous n'y avez pas accès.",
    );
    await expect(page.getByText(deal.lastname)).toHaveCount(0);
    await expect(page.getByTestId("deal-detail")).toHaveCount(0);
  });

  test(
    "l'admin enregistre l'acompte à la main : le devis et la liste affichent le nouveau statut",
    async ({ page }, testInfo) => {
      const deal = await backstage.requestDeal();
      await backstage.sendToPartner(deal.id);
      await backstage.validate(deal.id);
      await loginThroughForm(page, DEMO.admin.email);
      await openMenu(page, "Devis", "/dashboard/admin/devis");
      const row = await searchAdminList(page, deal.lastname);
      await expect(row.locator("[data-status]")).toHaveText("Devis envoyé");
      await openDealFrom(page, row.getByRole("link", { name: `Éditer le devis #${deal.id}` }), deal.id);

      const payments = page.getByRole("region", { name: "État des paiements" });
      await expect(payments).toContainText("Aucun paiement reçu pour le moment.");
      const ttc = await amountIn(page.getByTestId("figure-total-ttc"));
      await payments.getByRole("button", { name: "Marquer l'acompte payé" }).click();
      const dialog = page.getByRole("dialog", { name: "Marquer l'acompte payé" });
      const amount = dialog.getByLabel("Montant reçu");
      // The suggestion is a share of the total TTC.
      const suggested = Number(await amount.inputValue());
      expect(suggested).toBeGreaterThan(0);
      expect(suggested).toBeLessThan(ttc);
      const confirm = dialog.getByRole("button", { name: "Confirmer" });
      await amount.fill("0");
      await expect(dialog.getByText("Le montant doit être supérieur à 0")).toBeVisible();
      await expect(confirm).toBeDisabled();
      await amount.fill("250.50");
      await expect(confirm).toBeEnabled();
      await confirm.click();
      await expect(dialog).toBeHidden();
      await expect(notice(page)).toContainText(
        `Acompte de ${euros(250.5)} enregistré. Statut mis à jour vers : Accepté / paiement partiel`,
      );
      await expect(statusChip(page)).toHaveText("Accepté / paiement partiel");
      await expect(payments).toContainText("Acompte payé — solde en attente");
      await expect(payments).toContainText(`Acompte de ${euros(250.5)} reçu le`);
      await expect(payments.getByRole("button", { name: "Marquer le solde payé" })).toBeVisible();
      await expect(payments.getByRole("button", { name: "Marquer l'acompte payé" })).toHaveCount(0);

      await page.reload();
      await expect(statusChip(page)).toHaveText("Accepté / paiement partiel");
      await expect(payments).toContainText(`Acompte de ${euros(250.5)} reçu le`);

      await Promise.all([
        page.waitForURL((url) => url.pathname === "/dashboard/admin/devis"),
        page.getByRole("link", { name: "Retour à la liste des devis" }).click(),
      ]);
      const again = await searchAdminList(page, deal.lastname);
      await expect(again.locator("[data-status]")).toHaveText("Accepté / paiement partiel");
      await expect(again.getByTestId("deal-paid")).toHaveText(`Acompte payé : ${euros(250.5)}`);
      await screenshot(page, testInfo.outputPath("admin-liste-1280.png"));
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(page.getByTestId("deals-cards").locator(`[data-deal-id="${deal.id}"]`)).toBeVisible();
      await screenshot(page, testInfo.outputPath("admin-liste-390.png"));
    },
  );
});

test.describe("Le client voit son devis (390 px, tactile)", () => {
  test.use(PHONE);

  test("le client ouvre le lien du devis, se connecte et voit les montants et l'acompte réglé", async ({ page }) => {
    const deal = await backstage.requestDeal({
      firstname: "Camille",
      lastname: `Bernard-${uniqueId()}`,
      email: DEMO.client.email,
    });
    await backstage.sendToPartner(deal.id);
    await backstage.validate(deal.id);
    await backstage.recordDeposit(deal.id, 120);
    const { totals } = await backstage.deal(deal.id);

    // The link of the quote's email, opened before signing in.
    await page.goto(`/deal/show/${deal.token}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Votre devis");
    await expect(page.getByTestId("addressee")).toHaveText(
      `Adressé à ${deal.firstname} ${deal.lastname} · proposé par ${PARTNER_NAME}`,
    );
    await expect(page.getByTestId("fact-guests")).toHaveText("60");
    await expect(page.getByTestId("fact-duration")).toHaveText("3h00");
    await page.getByRole("button", {
      name: "Veuillez-vous connecter pour télécharger ou accepter votre devis",
    })
      .tap();
    const card = page.getByTestId("login-dialog").getByTestId("auth-card");
    await card.getByLabel("Email", { exact: true }).fill(DEMO.client.email);
    await card.getByLabel("Mot de passe", { exact: true }).fill(DEMO_PASSWORD);
    await Promise.all([page.waitForEvent("load"), card.getByRole("button", { name: "Se connecter" }).tap()]);

    // Signed in: the quote is theirs, with its amounts and the deposit the admin recorded.
    await expect(page.getByRole("heading", { name: "Régler votre prestation" })).toBeVisible();
    await expect(page.locator("header [data-status]")).toHaveText("Accepté / paiement partiel");
    await expect(page.getByTestId("amount-ttc")).toContainText(euros(totals.totalTTC));
    await expect(page.getByTestId("total-ht")).toHaveText(euros(totals.totalInvoiceByPartner));
    await expect(page.getByTestId("total-ttc")).toHaveText(euros(totals.totalTTC));
    await expect(page.getByTestId("quote-lines")).toContainText("Gestion de projet");
    await expect(page.getByTestId("paid-lines")).toContainText(`Acompte de ${euros(120)} réglé le`);
    const balance = (Math.round(totals.totalTTC * 100) - 12_000) / 100;
    await expect(page.getByRole("button", { name: /Régler le solde/ })).toContainText(euros(balance));
    await expect(page.getByRole("button", { name: /Régler l'acompte/ })).toHaveCount(0);

    // And among their requests in progress.
    await page.goto("/dashboard/demandes-en-cours");
    const request = page.getByTestId("open-requests").getByRole("listitem").filter({
      hasText: deal.lastname,
    });
    await expect(request).toHaveCount(1);
    await expect(request.locator("[data-status]")).toHaveText("Accepté / paiement partiel");
    await expect(request).toContainText(PARTNER_NAME);
    await expect(request).toContainText(euros(totals.totalInvoiceByPartner));
    await expect(request.getByRole("link", { name: "Voir le devis" })).toHaveAttribute(
      "href",
      `/deal/show/${deal.token}`,
    );
  });
});
