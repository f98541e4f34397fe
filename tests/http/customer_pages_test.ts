// A customer's pages (spec 000 §2): 'Mes devis' (/dashboard/client/devis), 'Vos règlements de devis'
// (/dashboard/client/reglements), the landing page 'Mes demandes de devis en cours', the quote payment
// page /devis/{slug} by payment type, and the public partner page /bar/{slug}. Deals are created and
// paid through the API (deals_fixtures_test.ts; the simulated payment provider).
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, testEnv, type TestResponse } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import {
  ADMIN,
  anonymous,
  dealForPartner,
  dealOf,
  loggedIn,
  PARTNER,
  readCatalogue,
  registeredCustomer,
  requestDeal,
  userIdOf,
} from "./deals_fixtures_test.ts";
import { TEST_CARDS } from "../../lib/payments/simulated.ts";
import type { SimulatedProvider } from "../../lib/payments/simulated.ts";
import { recordProviderIntent } from "../../lib/payments/use_cases/record_card_payment.ts";
import { companySlug } from "../../lib/deals/rules.ts";
import { clearPageCache } from "../../lib/http/page_cache.ts";
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

function text(res: TestResponse): string {
  return res.text.replaceAll("&#39;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

function islandProps(res: TestResponse, name: string): Record<string, unknown> | null {
  const match = new RegExp(`data-island="${name}" data-props="([^"]*)"`).exec(res.text);
  if (!match) return null;
  return JSON.parse(match[1].replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&amp;", "&"));
}

const scriptCount = (res: TestResponse) => (res.text.match(/<script\b/g) ?? []).length;

/** A signed-in customer's request, sent by the demo partner (status 'send'). */
async function sentDealOf(customer: Client, settings?: Record<string, unknown>) {
  const admin = await loggedIn(ADMIN);
  const deal = await dealForPartner(admin, PARTNER, { client: customer });
  const partner = await loggedIn(PARTNER);
  if (settings) dealOf(await partner.patch(`/api/deal/${deal.id}`, { settings }));
  assertEquals(dealOf(await partner.post(`/api/deal/${deal.id}/validate-availability`)).status, "send");
  return deal;
}

async function pay(customer: Client, token: string, paymentType: string) {
  const intent = await customer.post("/api/payment/intent", { dealToken: token, paymentType });
  assertEquals(intent.status, 200, intent.text);
  const id = String(intent.json().paymentIntentId);
  const card = await customer.post("/api/payment/simulated/confirm", {
    paymentIntentId: id,
    cardNumber: TEST_CARDS.succeeds,
  });
  assertEquals(card.status, 200, card.text);
  const { deps } = await testEnv();
  await recordProviderIntent(
    deps,
    "simulated",
    await (deps.payments as SimulatedProvider).retrieveIntent(id),
  );
}

async function paymentIdsOf(dealId: number): Promise<{ id: string; kind: string }[]> {
  const { db } = await testEnv();
  return await systemQuery<{ id: string; kind: string }>(
    db,
    "select id::text as id, kind from public.deal_payments where deal_id = $1 order by paid_at",
    [dealId],
  );
}

httpTest("the customer pages serve customers only", async () => {
  for (const path of ["/dashboard/client/devis", "/dashboard/client/reglements"]) {
    const visitor = await anonymous().get(path);
    assertEquals(visitor.status, 303, path);
    assertEquals(visitor.headers.get("location"), `/login?redirect=${encodeURIComponent(path)}`);
    assertEquals((await (await loggedIn(PARTNER)).get(path)).status, 403, path);
    assertEquals((await (await loggedIn(ADMIN)).get(path)).status, 403, path);
  }
});

httpTest(
  "'Mes devis' and 'Vos règlements de devis': empty states, then rows with links and invoices",
  async () => {
    const customer = await registeredCustomer();
    const emptyDeals = await customer.client.get("/dashboard/client/devis");
    assertEquals(emptyDeals.status, 200);
    assert(
      text(emptyDeals).includes("Mes devis</h1>") && text(emptyDeals).includes("Aucun devis pour l'instant"),
    );
    const emptyPayments = await customer.client.get("/dashboard/client/reglements");
    assert(text(emptyPayments).includes("Vos règlements de devis</h1>"));
    assert(text(emptyPayments).includes("Aucun règlement de devis pour l'instant"));

    const waiting = await requestDeal({ client: customer.client });
    const paid = await sentDealOf(customer.client);
    await pay(customer.client, paid.token, "deposit");

    const deals = await customer.client.get("/dashboard/client/devis");
    const html = text(deals);
    assertEquals(scriptCount(deals), 0, "no JavaScript");
    for (
      const header of [
        "Date de demande",
        "Statut",
        "Bar partenaire",
        "Date de prestation",
        "Montant HT",
        "Actions",
      ]
    ) {
      assert(html.includes(header), header);
    }
    assert(html.includes(`href="/deal/show/${paid.token}"`) && html.includes("Voir le devis"));
    assert(html.includes(`/api/customer/deal/download/quote/${paid.token}`));
    assert(html.includes("Accepté / paiement partiel") && html.includes("Shaker & Co"));
    assert(
      html.includes("Factures (1)") &&
        html.includes(`/api/customer/deal/download/invoice/${paid.token}/deposit`),
    );
    assert(!html.includes(`/invoice/${paid.token}/final`));
    // A request still being prepared: listed, but no quote to open yet.
    assert(html.includes("Devis en préparation") && !html.includes(`/deal/show/${waiting.token}`));

    const payments = await customer.client.get("/dashboard/client/reglements");
    const list = text(payments);
    const [deposit] = await paymentIdsOf(paid.id);
    assertEquals(deposit.kind, "deposit");
    assert(list.includes(`href="/devis/${paid.token}"`), "the quote links to its payment page");
    assert(list.includes("Acompte"));
    assert(
      list.includes(`href="/quote/invoice/${deposit.id}" target="_blank"`),
      "the invoice opens in a new tab",
    );
    assertEquals(scriptCount(payments), 0);
    // Another customer's pages never list them.
    const other = await registeredCustomer();
    assert(!text(await other.client.get("/dashboard/client/devis")).includes(paid.token));
    assert(!text(await other.client.get("/dashboard/client/reglements")).includes(paid.token));
  },
);

httpTest("'Mes demandes de devis en cours' lists the customer's open requests", async () => {
  const customer = await registeredCustomer();
  const empty = await customer.client.get("/dashboard/demandes-en-cours");
  assert(text(empty).includes("Aucune demande de devis en cours pour l'instant."));
  const waiting = await requestDeal({ client: customer.client });
  const sent = await sentDealOf(customer.client);
  const refused = await sentDealOf(customer.client);
  dealOf(
    await customer.client.patch(`/api/customer/deal/refuse/${refused.token}`, { refusalReason: "budget" }),
  );
  const res = await customer.client.get("/dashboard/demandes-en-cours");
  const html = text(res);
  assertEquals(scriptCount(res), 0);
  assert(html.includes(`data-deal-id="${waiting.id}"`) && html.includes("Votre devis est en préparation"));
  assert(html.includes(`data-deal-id="${sent.id}"`) && html.includes(`href="/deal/show/${sent.token}"`));
  assert(!html.includes(`data-deal-id="${refused.id}"`), "a refused quote is no longer in progress");
  // Other users keep the empty page.
  assert(
    text(await (await loggedIn(PARTNER)).get("/dashboard/demandes-en-cours")).includes("Aucune demande"),
  );
});

httpTest(
  "the quote payment page /devis/{slug}: lines, totals, download, buttons by payment type",
  async () => {
    const customer = await registeredCustomer();
    const deal = await sentDealOf(customer.client);
    const res = await customer.client.get(`/devis/${deal.token}`);
    assertEquals(res.status, 200);
    const html = text(res);
    assert(html.includes('data-quote-type="deposit"'));
    assert(html.includes("Gestion de projet") && html.includes("Total TTC") && html.includes("TVA 20 %"));
    assert(html.includes(`/quote/download/${deal.token}`), "the quote download link");
    const props = islandProps(res, "PaymentSection")!;
    assertEquals(props.mode, "pay");
    assertEquals((props.options as { type: string }[]).map((o) => o.type), ["deposit", "full"]);

    // A visitor: the same buttons open the login dialog with the message of each payment.
    const visitor = await anonymous().get(`/devis/${deal.token}`);
    const login = islandProps(visitor, "PaymentSection")!;
    assertEquals(login.mode, "login");
    assertEquals((login.loginButtons as { message: string }[]).map((b) => b.message), [
      "Vous pouvez désormais régler votre acompte",
      "Vous pouvez désormais régler votre devis",
    ]);
    assert(!text(visitor).includes("/quote/download/"), "no download for a visitor");

    // After the deposit: the balance ('remaining') and the deposit invoice.
    await pay(customer.client, deal.token, "deposit");
    const balance = await customer.client.get(`/devis/${deal.token}`);
    assert(text(balance).includes('data-quote-type="balance"'));
    assertEquals((islandProps(balance, "PaymentSection")!.options as { type: string }[]).map((o) => o.type), [
      "remaining",
    ]);
    assert(text(balance).includes(`/api/customer/deal/download/invoice/${deal.token}/deposit`));
    const visitorBalance = islandProps(await anonymous().get(`/devis/${deal.token}`), "PaymentSection")!;
    assertEquals(
      (visitorBalance.loginButtons as { message: string }[])[0].message,
      "Vous pouvez désormais régler votre solde",
    );

    // Paid: two invoices, no button.
    await pay(customer.client, deal.token, "remaining");
    const paid = await customer.client.get(`/devis/${deal.token}`);
    assert(text(paid).includes('data-quote-type="paid"'));
    assertEquals(islandProps(paid, "PaymentSection"), null);
    assert(
      text(paid).includes(`/invoice/${deal.token}/deposit`) &&
        text(paid).includes(`/invoice/${deal.token}/final`),
    );

    // A quote without deposit: 'total' only; one invoice once paid.
    const total = await sentDealOf(customer.client, { hasDeposit: false });
    const totalPage = await customer.client.get(`/devis/${total.token}`);
    assert(text(totalPage).includes('data-quote-type="total"'));
    assertEquals(
      (islandProps(totalPage, "PaymentSection")!.options as { type: string }[]).map((o) => o.type),
      ["full"],
    );
    await pay(customer.client, total.token, "full");
    const totalPaid = text(await customer.client.get(`/devis/${total.token}`));
    assert(
      totalPaid.includes(`/invoice/${total.token}/full`) &&
        !totalPaid.includes(`/invoice/${total.token}/deposit`),
    );

    // Partners see the customers-only message; a quote not sent yet is not available.
    assert(
      text(await (await loggedIn(PARTNER)).get(`/devis/${deal.token}`)).includes(
        "Les options de paiement ne sont disponibles que pour les clients.",
      ),
    );
    const notSent = await requestDeal();
    const missing = await anonymous().get(`/devis/${notSent.token}`);
    assertEquals(missing.status, 404);
    assert(text(missing).includes("Devis non disponible"));
  },
);

httpTest(
  "/bar/{slug}: the partner's public card, never its contact details; 404 in French otherwise",
  async () => {
    const { db } = await testEnv();
    const partnerId = await userIdOf(PARTNER);
    const [partner] = await systemQuery<
      { name: string; email: string; phone: string | null; siren: string | null; address1: string | null }
    >(
      db,
      "select coalesce(name, trim(firstname || ' ' || lastname)) as name, email, phone, siren, address1 from public.users where id = $1",
      [partnerId],
    );
    const slug = companySlug(partner.name, partnerId);
    clearPageCache();
    const res = await anonymous().get(`/bar/${slug}`);
    assertEquals(res.status, 200);
    const html = text(res);
    assert(html.includes(`${partner.name}</h1>`), "the partner's name");
    const catalogue = await readCatalogue(await loggedIn(ADMIN), partnerId) as {
      signature: { name: string }[];
    };
    for (const cocktail of catalogue.signature) assert(html.includes(cocktail.name), cocktail.name);
    // The page's own content (the site footer carries the platform's phone number).
    const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    assert(main.includes(partner.name));
    for (const secret of [partner.email, partner.phone, partner.siren, partner.address1]) {
      if (secret) assert(!main.includes(secret), `never shows ${secret}`);
    }
    assertEquals(scriptCount(res), 0, "no JavaScript");
    // Cached like the other public pages: the same bytes for the next visitor.
    assertEquals((await anonymous().get(`/bar/${slug}`)).text, res.text);

    for (const wrong of [`${slug.slice(0, -8)}00000000`, "inconnu", `autre-nom-${partnerId.slice(0, 8)}`]) {
      const missing = await anonymous().get(`/bar/${wrong}`);
      assertEquals(missing.status, 404, wrong);
      assert(text(missing).includes("Ce partenaire n'existe pas ou n'est plus référencé."), wrong);
    }
    // A customer is not a partner.
    const customerId = await userIdOf("client@example.fr");
    assertEquals((await anonymous().get(`/bar/${companySlug("Camille Bernard", customerId)}`)).status, 404);
  },
);

httpTest(
  "'Mes devis' offers the proformas in the row's invoices menu when the quote page does (showProformaInvoice)",
  async () => {
    const customer = await registeredCustomer();
    const deal = await sentDealOf(customer.client);
    const admin = await loggedIn(ADMIN);
    const proformaOf = (stage: string) => `/api/customer/deal/download/proforma/${deal.token}/${stage}`;

    // The admin setting off (the default): no proforma, on the page nor in the list.
    let html = text(await customer.client.get("/dashboard/client/devis"));
    assert(!html.includes(proformaOf("deposit")) && !html.includes("Factures ("));

    dealOf(await admin.patch(`/api/deal/${deal.id}`, { adminSettings: { showProformaInvoice: true } }));
    const page = text(await customer.client.get(`/deal/show/${deal.token}`));
    html = text(await customer.client.get("/dashboard/client/devis"));
    for (const stage of ["deposit", "final"]) {
      assert(page.includes(proformaOf(stage)), `the quote page offers the ${stage} proforma`);
      assert(html.includes(proformaOf(stage)), `the list offers the ${stage} proforma`);
    }
    assert(html.includes("Factures (2)"));
    assert(html.includes("Facture proforma d'acompte") && html.includes("Facture proforma de solde"));
    // The link downloads.
    const pdf = await customer.client.get(proformaOf("deposit"));
    assertEquals(pdf.status, 200);

    // Once something is paid, the page shows the invoice and no proforma: so does the list.
    await pay(customer.client, deal.token, "deposit");
    html = text(await customer.client.get("/dashboard/client/devis"));
    assert(!html.includes(proformaOf("deposit")) && !html.includes(proformaOf("final")));
    assert(html.includes("Factures (1)") && html.includes(`/invoice/${deal.token}/deposit`));
  },
);
