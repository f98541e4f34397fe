// The customer deal page GET /deal/show/{token} (spec 000 §2, §4, §6): what an anonymous visitor, the
// deal's partner, another partner, an admin, the deal's customer and another customer see and do not
// see (download link, payment section, refuse menu, cocktail choice, contact details); linking on the
// first visit of a signed-in customer; a deal linked to someone else stays theirs (read-only page, and
// the API refuses payment, choices, refusal and downloads); 'Devis non disponible'; the page's scripts;
// the payment options by payment stage. Deals are created through the API (deals_fixtures_test.ts).
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { Client, httpTest, testEnv, type TestResponse } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import {
  ADMIN,
  anonymous,
  assertError,
  CUSTOMER,
  CUSTOMER2,
  dealForPartner,
  dealOf,
  loggedIn,
  PARTNER,
  PARTNER2,
  readCatalogue,
  registeredCustomer,
  requestDeal,
  userIdOf,
} from "./deals_fixtures_test.ts";
import { TEST_CARDS } from "../../lib/payments/simulated.ts";
import { recordProviderIntent } from "../../lib/payments/use_cases/record_card_payment.ts";
import type { SimulatedProvider } from "../../lib/payments/simulated.ts";
import { DEMO_TEST_CARDS } from "../../components/payments/test_cards.ts";
import { documentLinks, payableOf, paymentOptions } from "../../components/deals/show/view.ts";
import type { DealPayload } from "../../lib/deals/payload.ts";
import { dealShowRoutes } from "../../routes/deal_show.tsx";
import { partnerPublicRoutes } from "../../routes/partner_public.tsx";
import { customerPageRoutes } from "../../routes/customer_pages.tsx";
import { quotePaymentRoutes } from "../../routes/quote_payment.tsx";

/** Until routes/_app.tsx mounts them, the customer pages are mounted here, before any request. */
async function mountCustomerRoutes() {
  const { app } = await testEnv();
  const has = (path: string) => app.routes.some((r) => r.path.startsWith(path));
  if (!has("/deal/show")) app.route("/deal", dealShowRoutes);
  if (!has("/bar")) app.route("/bar", partnerPublicRoutes);
  if (!has("/dashboard/client")) app.route("/dashboard/client", customerPageRoutes);
  if (!has("/devis")) app.route("/devis", quotePaymentRoutes);
}
await mountCustomerRoutes();

const LOGIN_PROMPT = "Veuillez-vous connecter pour télécharger ou accepter votre devis";
const CUSTOMERS_ONLY =
  "Les options de paiement ne sont disponibles que pour les clients. Veuillez vous connecter avec un compte client pour effectuer un paiement.";
const LINKED_ELSEWHERE =
  "Ce devis est rattaché à un autre compte client : connectez-vous avec le compte qui l'a demandé.";
const DEPOSIT_UNAVAILABLE = "Le paiement par acompte n'est pas disponible pour ce devis";

/** HTML text with its entities decoded (Preact escapes apostrophes and quotes). */
function text(res: TestResponse): string {
  return res.text.replaceAll("&#39;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

/** The islands the page hydrates, from its <script> tags. */
function scripts(res: TestResponse): string[] {
  return [...res.text.matchAll(/<script[^>]*src="\/build\/islands\/([A-Za-z]+)-[A-Z0-9]+\.js"/g)].map((m) =>
    m[1]
  )
    .sort();
}

/** The props of the island `name` (the first one on the page). */
function islandProps(res: TestResponse, name: string): Record<string, unknown> | null {
  const match = new RegExp(`data-island="${name}" data-props="([^"]*)"`).exec(res.text);
  if (!match) return null;
  return JSON.parse(match[1].replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&amp;", "&"));
}

const page = (client: Client, token: string) => client.get(`/deal/show/${token}`);

interface SentDeal {
  id: number;
  token: string;
  request: Record<string, unknown>;
  partnerId: string;
  /** The partner's signature cocktails: what the quote proposes. */
  cocktails: { id: string; name: string }[];
}

/** A quote sent to the customer (status 'send') by the demo partner, from a visitor's request (no
 * customer linked yet) or a signed-in customer's. */
async function sentDeal(
  options: { client?: Client; settings?: Record<string, unknown>; overrides?: Record<string, unknown> } = {},
): Promise<SentDeal> {
  const admin = await loggedIn(ADMIN);
  const deal = await dealForPartner(admin, PARTNER, { client: options.client, overrides: options.overrides });
  const partner = await loggedIn(PARTNER);
  if (options.settings) dealOf(await partner.patch(`/api/deal/${deal.id}`, { settings: options.settings }));
  const validated = dealOf(await partner.post(`/api/deal/${deal.id}/validate-availability`));
  assertEquals(validated.status, "send");
  const catalogue = await readCatalogue(admin, deal.partnerId) as {
    signature: { id: string; name: string }[];
  };
  assert(catalogue.signature.length >= 2, "the partner proposes at least two signature cocktails");
  return { ...deal, cocktails: catalogue.signature.map((c) => ({ id: c.id, name: c.name })) };
}

/** Pays through the simulated provider as the browser does: intent, test card, then the payment is
 * recorded as the provider reports it. */
async function pay(customer: Client, token: string, paymentType: string, card: string = TEST_CARDS.succeeds) {
  const intent = await customer.post("/api/payment/intent", { dealToken: token, paymentType });
  assertEquals(intent.status, 200, intent.text);
  const id = String(intent.json().paymentIntentId);
  const confirmed = await customer.post("/api/payment/simulated/confirm", {
    paymentIntentId: id,
    cardNumber: card,
  });
  assertEquals(confirmed.status, 200, confirmed.text);
  const { deps } = await testEnv();
  await recordProviderIntent(
    deps,
    "simulated",
    await (deps.payments as SimulatedProvider).retrieveIntent(id),
  );
  return id;
}

async function customerIdOf(dealId: number): Promise<string | null> {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ customer_id: string | null }>(
    db,
    "select customer_id from public.deals where id = $1",
    [dealId],
  );
  return row.customer_id;
}

httpTest(
  "anonymous visitor: the quote without download, payment or choice; a login prompt; no contact details",
  async () => {
    const deal = await sentDeal();
    const res = await page(anonymous(), deal.token);
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("cache-control"), "no-store");
    assertMatch(res.headers.get("x-robots-tag") ?? "", /noindex/);
    const html = text(res);
    assert(html.includes("<h1") && html.includes("Votre devis</h1>"), "title");
    const shownTexts = [
      "Participants",
      "Horaire souhaité",
      "Durée du service",
      "Prix moyen par cocktail",
      "Prix par personne",
      "Gestion de projet",
      "Total HT",
      "TVA 20 %",
      "Total TTC",
      ...deal.cocktails.map((c) => c.name),
    ];
    for (const shown of shownTexts) {
      assert(html.includes(shown), `shows ${shown}`);
    }
    assert(html.includes(String(deal.request.lastname)), "the addressee's name");
    assert(html.includes(LOGIN_PROMPT), "the login prompt");
    assert(!html.includes("/api/customer/deal/download/"), "no download link");
    assert(!html.includes("Régler votre prestation"), "no payment block");
    assert(!html.includes('data-island="CocktailChoice"') && !html.includes('data-island="DealRefusal"'));
    assert(!html.includes("Modifier le devis"));
    for (const secret of [deal.request.email, deal.request.phone, deal.request.adresse_precise]) {
      assert(!html.includes(String(secret)), `never shows ${secret}`);
    }
    // Only the island it needs: the login prompt (its form is loaded when the dialog opens).
    assertEquals(scripts(res), ["PaymentSection"]);
    const props = islandProps(res, "PaymentSection")!;
    assertEquals(props.mode, "login");
    assertEquals(props.loginButtons, [{
      label: LOGIN_PROMPT,
      message: "Vous pouvez désormais régler votre acompte",
    }]);
    assertEquals(await customerIdOf(deal.id), null, "a visit links nobody");
  },
);

httpTest(
  "the deal's partner, another partner and an admin: no payment (customers only), no contact details",
  async () => {
    const deal = await sentDeal();
    const edit = `/dashboard#/espace-partenaire/deal/${deal.id}`;
    const partnerPage = text(await page(await loggedIn(PARTNER), deal.token));
    assert(partnerPage.includes("Modifier le devis") && partnerPage.includes(`href="${edit}"`), "edit link");
    assert(
      partnerPage.includes(`/api/customer/deal/download/quote/${deal.token}`),
      "the partner downloads the quote",
    );
    assert(partnerPage.includes(CUSTOMERS_ONLY));
    const otherPartner = text(await page(await loggedIn(PARTNER2), deal.token));
    assert(
      !otherPartner.includes("Modifier le devis") && !otherPartner.includes("/api/customer/deal/download/"),
    );
    assert(otherPartner.includes(CUSTOMERS_ONLY));
    const adminRes = await page(await loggedIn(ADMIN), deal.token);
    const adminPage = text(adminRes);
    assert(adminPage.includes(`href="${edit}"`) && adminPage.includes("/api/customer/deal/download/quote/"));
    assert(adminPage.includes(CUSTOMERS_ONLY));
    for (const html of [partnerPage, otherPartner, adminPage]) {
      assert(!html.includes("Régler votre prestation") && !html.includes(LOGIN_PROMPT));
      assert(!html.includes('data-island="CocktailChoice"') && !html.includes('data-island="DealRefusal"'));
      assert(!html.includes('data-island="PaymentSection"'), "no payment island");
      for (const secret of [deal.request.email, deal.request.phone, deal.request.adresse_precise]) {
        assert(!html.includes(String(secret)), `never shows ${secret}`);
      }
    }
    assertEquals(scripts(adminRes), ["DealChat"], "no JavaScript without photos but the chat's");
    assertEquals(await customerIdOf(deal.id), null, "partners and admins are never linked");
  },
);

httpTest(
  "a customer opening a sent quote is linked to it and gets payment, choice, refusal and downloads",
  async () => {
    const deal = await sentDeal();
    const customer = await registeredCustomer();
    const res = await page(customer.client, deal.token);
    assertEquals(res.status, 200);
    assertEquals(await customerIdOf(deal.id), customer.id, "linked on the first visit");
    const html = text(res);
    assert(html.includes("Régler votre prestation"));
    assert(html.includes(`/api/customer/deal/download/quote/${deal.token}`));
    assert(
      !html.includes(LOGIN_PROMPT) && !html.includes(CUSTOMERS_ONLY) && !html.includes("Modifier le devis"),
    );
    assertEquals(scripts(res), ["CocktailChoice", "DealChat", "DealRefusal", "PaymentSection"]);
    const payment = islandProps(res, "PaymentSection")!;
    assertEquals(payment.mode, "pay");
    assertEquals((payment.options as { type: string }[]).map((o) => o.type), ["deposit", "full"]);
    const choice = islandProps(res, "CocktailChoice")!;
    assertEquals(choice.max, 3);
    assertEquals((choice.cocktails as { id: string }[]).map((c) => c.id), deal.cocktails.map((c) => c.id));
    assertEquals(islandProps(res, "DealRefusal"), { token: deal.token });
    // The island props carry nothing of the customer.
    for (const secret of [customer.email, customer.phone, deal.request.email]) {
      assert(!JSON.stringify([payment, choice]).includes(String(secret)));
    }
    // Opening again changes nothing; the API reads the same deal.
    assertEquals((await page(customer.client, deal.token)).status, 200);
    assertEquals(dealOf(await customer.client.get(`/api/customer/deal/get/${deal.token}`)).id, deal.id);
  },
);

httpTest(
  "a deal linked to client2 opened by client@: read-only, and the API refuses everything to client@",
  async () => {
    const deal = await sentDeal();
    const owner = await loggedIn(CUSTOMER2);
    assertEquals((await page(owner, deal.token)).status, 200);
    const ownerId = await userIdOf(CUSTOMER2);
    assertEquals(await customerIdOf(deal.id), ownerId);

    const other = await loggedIn(CUSTOMER);
    const res = await page(other, deal.token);
    assertEquals(res.status, 200);
    const html = text(res);
    assert(html.includes(LINKED_ELSEWHERE), "explains why");
    assert(!html.includes("Régler votre prestation") && !html.includes("/api/customer/deal/download/"));
    assert(!html.includes('data-island="CocktailChoice"') && !html.includes('data-island="DealRefusal"'));
    assert(!html.includes('data-island="PaymentSection"'));
    assertEquals(scripts(res), []);
    assertEquals(await customerIdOf(deal.id), ownerId, "never handed over");

    const refused = [
      await other.post("/api/payment/intent", { dealToken: deal.token, paymentType: "deposit" }),
      await other.patch(`/api/customer/deal/save/choices/${deal.token}`, {
        choices: { cocktails: [deal.cocktails[0].id] },
      }),
      await other.patch(`/api/customer/deal/refuse/${deal.token}`, { refusalReason: "budget" }),
      await other.get(`/api/customer/deal/download/quote/${deal.token}`),
      await other.get(`/api/customer/deal/download/proforma/${deal.token}/full`),
      await other.get(`/api/customer/deal/get/${deal.token}`),
    ];
    for (const r of refused) {
      assert(
        r.status === 403 || r.status === 404,
        `refused: ${r.status} ${r.text.slice(0, 200)}`,
      );
    }
    const { db } = await testEnv();
    const [row] = await systemQuery<{ status: string; choices: { cocktails?: string[] } }>(
      db,
      "select status, choices from public.deals where id = $1",
      [deal.id],
    );
    assertEquals(row.status, "send");
    assertEquals(row.choices.cocktails ?? [], []);
  },
);

httpTest("'Devis non disponible': a quote not sent yet, an unknown token, a malformed one", async () => {
  const notSent = await requestDeal();
  const customer = await loggedIn(CUSTOMER);
  for (const client of [anonymous(), customer]) {
    for (const token of [notSent.token, "0".repeat(64), "pas-un-jeton"]) {
      const res = await page(client, token);
      assertEquals(res.status, 404, token);
      assert(text(res).includes("Devis non disponible"), token);
      assert(!text(res).includes("Votre devis</h1>"));
    }
  }
  assertEquals(await customerIdOf(notSent.id), null, "a quote not sent yet is never linked");
});

httpTest(
  "payment stages: deposit and total, then the balance only, then nothing; invoices follow",
  async () => {
    const customer = await registeredCustomer();
    const deal = await sentDeal({ client: customer.client });
    const props = async () => islandProps(await page(customer.client, deal.token), "PaymentSection");
    const before = (await props())!.options as { type: string; amount: number }[];
    assertEquals(before.map((o) => o.type), ["deposit", "full"]);

    await pay(customer.client, deal.token, "deposit");
    const afterDeposit = await page(customer.client, deal.token);
    const remaining = islandProps(afterDeposit, "PaymentSection")!.options as {
      type: string;
      amount: number;
    }[];
    assertEquals(remaining.map((o) => o.type), ["remaining"]);
    assertEquals(
      remaining[0].amount,
      before[1].amount - before[0].amount,
      "the balance is the total less the deposit",
    );
    assert(text(afterDeposit).includes(`/api/customer/deal/download/invoice/${deal.token}/deposit`));
    assert(text(afterDeposit).includes("Accepté / paiement partiel"));
    assertError(
      await customer.client.post("/api/payment/intent", { dealToken: deal.token, paymentType: "deposit" }),
      409,
      DEPOSIT_UNAVAILABLE,
    );

    await pay(customer.client, deal.token, "remaining");
    const paid = await page(customer.client, deal.token);
    const html = text(paid);
    assertEquals(islandProps(paid, "PaymentSection"), null, "nothing left to pay");
    assert(html.includes("Votre prestation est entièrement réglée. Merci !"));
    assert(html.includes(`/invoice/${deal.token}/deposit`) && html.includes(`/invoice/${deal.token}/final`));
    assert(!html.includes('data-island="DealRefusal"'), "a paid quote cannot be refused");
  },
);

httpTest(
  "a quote without deposit offers the total only; the server refuses the deposit in French",
  async () => {
    const customer = await registeredCustomer();
    const deal = await sentDeal({ client: customer.client, settings: { hasDeposit: false } });
    const res = await page(customer.client, deal.token);
    const options = islandProps(res, "PaymentSection")!.options as { type: string }[];
    assertEquals(options.map((o) => o.type), ["full"]);
    assertError(
      await customer.client.post("/api/payment/intent", { dealToken: deal.token, paymentType: "deposit" }),
      409,
      DEPOSIT_UNAVAILABLE,
    );
    // A visitor's prompt says the whole quote.
    assertEquals(
      (islandProps(await page(anonymous(), deal.token), "PaymentSection")!.loginButtons as {
        message: string;
      }[])[0]
        .message,
      "Vous pouvez désormais régler votre devis",
    );
  },
);

httpTest("the cocktail choice is capped; a refused quote shows its banner and no payment", async () => {
  const customer = await registeredCustomer();
  const deal = await sentDeal({ client: customer.client, settings: { nbCocktailsAuthorized: 1 } });
  const res = await page(customer.client, deal.token);
  assertEquals(islandProps(res, "CocktailChoice")!.max, 1);
  const [first, second] = deal.cocktails;
  const saved = await customer.client.patch(`/api/customer/deal/save/choices/${deal.token}`, {
    choices: { cocktails: [second.id] },
  });
  assertEquals(saved.json().message, "Votre choix de cocktails est enregistré.");
  assertError(
    await customer.client.patch(`/api/customer/deal/save/choices/${deal.token}`, {
      choices: { cocktails: [second.id, first.id] },
    }),
    422,
    "Vous pouvez choisir 1 cocktail au plus.",
  );
  assertEquals(islandProps(await page(customer.client, deal.token), "CocktailChoice")!.chosen, [second.id]);

  const refused = await customer.client.patch(`/api/customer/deal/refuse/${deal.token}`, {
    refusalReason: "budget",
  });
  assertEquals(refused.json().message, "Le devis a été refusé.");
  const after = await page(customer.client, deal.token);
  const html = text(after);
  assert(html.includes("Devis refusé par le client : Le budget est trop élevé"));
  assert(!html.includes("Régler votre prestation") && !html.includes('data-island="PaymentSection"'));
  assert(!html.includes('data-island="DealRefusal"') && !html.includes('data-island="CocktailChoice"'));
  assert(html.includes(second.name) && html.includes('data-chosen="true"'), "the choice stays readable");
  // A visitor sees the banner too, and no payment prompt message.
  const visitor = text(await page(anonymous(), deal.token));
  assert(visitor.includes("Devis refusé par le client : Le budget est trop élevé"));
});

Deno.test("the 'Mode démo' form lists the simulated provider's test cards", () => {
  assertEquals(DEMO_TEST_CARDS.map((c) => c.number).sort(), Object.values(TEST_CARDS).sort());
});

Deno.test("payment options and documents by payment stage (view.ts)", () => {
  const base = {
    token: "t",
    status: "send",
    totals: { totalTTC: 1000 },
    settings: {
      hasDeposit: true,
      depositPercentage: 30,
      cocktailListType: "signature",
      customCocktails: [],
      nbCocktailsAuthorized: 3,
    },
    adminSettings: { showProformaInvoice: true },
    depositPaidAt: null,
    depositAmount: null,
    paidAt: null,
    totalAmountPaid: null,
  } as unknown as DealPayload;
  // The amounts in cents, as the server reads them from the deal (PublicDeal.cents).
  const types = (deal: Partial<DealPayload>, depositAmount: number | null = null) =>
    paymentOptions(
      payableOf({
        deal: { ...base, ...deal } as DealPayload,
        cents: { totalTTC: 100000, depositAmount, totalAmountPaid: null },
      }),
    ).map((o) => [o.type, o.amount]);
  assertEquals(types({}), [["deposit", 30000], ["full", 100000]]);
  assertEquals(types({ settings: { ...base.settings, hasDeposit: false } }), [["full", 100000]]);
  assertEquals(types({ status: "pay_partial", depositPaidAt: 1 }, 30000), [["remaining", 70000]]);
  assertEquals(types({ status: "pay_partial" }), [], "pay_partial without a recorded deposit");
  assertEquals(types({ status: "pay_total", depositPaidAt: 1, paidAt: 2 }, 30000), []);
  assertEquals(types({ status: "refused_client" }), []);
  assertEquals(types({ status: "win" }), []);
  assertEquals(types({ status: "new" }), [], "not sent yet");
  const docs = (deal: Partial<DealPayload>) =>
    documentLinks({ ...base, ...deal } as DealPayload).map((d) => d.href);
  assertEquals(docs({}), [
    "/api/customer/deal/download/quote/t",
    "/api/customer/deal/download/proforma/t/deposit",
    "/api/customer/deal/download/proforma/t/final",
  ]);
  assertEquals(docs({ depositPaidAt: 1 }).slice(1), ["/api/customer/deal/download/invoice/t/deposit"]);
  assertEquals(docs({ depositPaidAt: 1, paidAt: 2 }).slice(1), [
    "/api/customer/deal/download/invoice/t/deposit",
    "/api/customer/deal/download/invoice/t/final",
  ]);
  assertEquals(docs({ paidAt: 2 }).slice(1), ["/api/customer/deal/download/invoice/t/full"]);
});
