// Money that cannot double, in the browser (simulated provider, 'Mode démo'): Camille Bernard's quote
// n°12 ('Devis accepté', a 30 % deposit). Her card is taken for the full payment, then she asks for the
// deposit in another tab and pays it; coming back from the bank for the full payment, the page never
// says 'succès': it says the payment is refunded, and the quote keeps its deposit only.
import { expect, test } from "@playwright/test";
import { DEMO, loginThroughForm } from "./support/helpers.ts";
import { PAYMENT_MESSAGES } from "../../lib/payments/rules.ts";
import { TEST_CARDS } from "../../lib/payments/simulated.ts";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test(
  "un paiement intégral remplacé par l'acompte est remboursé, jamais annoncé comme un succès",
  async ({ page }, testInfo) => {
    await loginThroughForm(page, DEMO.client.email);
    const api = page.request;
    const list = await (await api.get("/api/customer/deal/index")).json();
    const deal = (list.results as { token: string; status: string }[]).find((d) => d.status === "accepted");
    expect(deal, "Camille's accepted quote").toBeTruthy();
    const ask = async (paymentType: string) => {
      const res = await api.post("/api/payment/intent", { data: { dealToken: deal!.token, paymentType } });
      expect(res.status()).toBe(200);
      return (await res.json()).paymentIntentId as string;
    };
    const card = async (paymentIntentId: string) => {
      const res = await api.post("/api/payment/simulated/confirm", {
        data: { paymentIntentId, cardNumber: TEST_CARDS.succeeds },
      });
      expect(res.status()).toBe(200);
    };
    // The bank takes the full payment (the browser then leaves for the bank's page)…
    const full = await ask("full");
    await card(full);
    // … meanwhile, in another tab, the deposit is asked for and paid.
    const deposit = await ask("deposit");
    await card(deposit);
    const paid = await (await api.post("/api/payment/confirm", { data: { paymentIntentId: deposit } }))
      .json();
    expect(paid.message).toBe(PAYMENT_MESSAGES.depositPaid);

    // Back from the bank for the full payment: the deal keeps its deposit, the rest is refunded.
    await page.goto(`/deal/show/${deal!.token}?payment_intent=${full}&redirect_status=succeeded`);
    await expect(page.getByTestId("notice")).toHaveText(PAYMENT_MESSAGES.refunding);
    await expect(page.getByTestId("notice")).not.toContainText("succès");
    await expect(page.locator("[data-status]").first()).toHaveText("Accepté / paiement partiel");
    await expect(page.getByRole("button", { name: /Régler le solde/ })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("acompte-rembourse-390.png"), fullPage: true });
  },
);

test(
  "un devis refusé pendant le passage à la banque : le paiement est remboursé, la page le dit",
  async ({ page }, testInfo) => {
    // Camille's quote n°8 ('Devis envoyé', no deposit: paid in full at once).
    await loginThroughForm(page, DEMO.client.email);
    const api = page.request;
    const list = await (await api.get("/api/customer/deal/index")).json();
    const deal = (list.results as { token: string; status: string }[]).find((d) => d.status === "send");
    expect(deal, "Camille's sent quote").toBeTruthy();
    const asked = await api.post("/api/payment/intent", {
      data: { dealToken: deal!.token, paymentType: "full" },
    });
    expect(asked.status()).toBe(200);
    const full = (await asked.json()).paymentIntentId as string;
    // The bank takes the money; meanwhile the quote is refused (another tab).
    const taken = await api.post("/api/payment/simulated/confirm", {
      data: { paymentIntentId: full, cardNumber: TEST_CARDS.succeeds },
    });
    expect(taken.status()).toBe(200);
    const refused = await api.patch(`/api/customer/deal/refuse/${deal!.token}`, {
      data: { refusalReason: "budget" },
    });
    expect(refused.status()).toBe(200);

    await page.goto(`/deal/show/${deal!.token}?payment_intent=${full}&redirect_status=succeeded`);
    await expect(page.getByTestId("notice")).toHaveText(PAYMENT_MESSAGES.refunding);
    await expect(page.locator("[data-status]").first()).toContainText("Refusé");
    await page.screenshot({ path: testInfo.outputPath("refuse-rembourse-390.png"), fullPage: true });
  },
);
