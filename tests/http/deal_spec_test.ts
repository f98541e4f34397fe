// Where the deals code differed from the spec (issue "Quotes and payments, second pass", section 4):
// GET /api/deal/index answers `results` as the list (001 §7) with the paging beside it; new deals store
// hasDeposit false (001 §3); the customer's deal payload carries the spec's company block and
// totalAmount (000 §3); editedAt follows every edit; the partner list shows the HubSpot id (001 §2.9)
// and the admin search finds it; flash messages are kept on the server per session and read once, by
// the page shell or by GET /api/user/flash-messages (000 §2, §7), which is how a card payment's
// success message survives the page's reload.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { PAYMENT_MESSAGES } from "../../lib/payments/rules.ts";
import {
  ADMIN,
  body,
  CUSTOMER,
  dealForPartner,
  dealOf,
  freshIp,
  type Json,
  loggedIn,
  PARTNER,
  requestDeal,
  sentDealForCustomer,
  unique,
} from "./deals_fixtures_test.ts";

httpTest("GET /api/deal/index: results is the list, the paging beside it", async () => {
  const admin = await loggedIn(ADMIN);
  const lastname = unique("Liste");
  const a = await requestDeal({ overrides: { lastname } });
  const b = await requestDeal({ overrides: { lastname } });
  const res = await admin.get(`/api/deal/index?search=${lastname}&perPage=1&page=2`);
  assertEquals(res.status, 200, res.text);
  const json = body(res);
  assertEquals(json.status, "success");
  assert(Array.isArray(json.results), `results is a list: ${res.text.slice(0, 200)}`);
  assertEquals(json.results.map((d: Json) => d.id), [a.id], "newest first: page 2 holds the older one");
  assertEquals([json.total, json.page, json.perPage], [2, 2, 1]);
  assert(b.id > a.id);
});

httpTest("a new deal stores hasDeposit false (001 §3): no deposit is offered", async () => {
  const deal = await requestDeal();
  const { db } = await testEnv();
  const [row] = await systemQuery<{ settings: Json }>(db, "select settings from public.deals where id = $1", [
    deal.id,
  ]);
  assertEquals(row.settings.hasDeposit, false);
  const admin = await loggedIn(ADMIN);
  assertEquals(dealOf(await admin.get(`/api/deal/get/${deal.id}`)).settings.hasDeposit, false);
});

httpTest("the customer's deal payload: company block, totalAmount, editedAt after edits", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const deal = await sentDealForCustomer(admin, partner);
  const customer = await loggedIn(CUSTOMER);
  const before = dealOf(await customer.get(`/api/customer/deal/get/${deal.token}`));
  assertEquals(before.totalAmount, before.totals.totalTTC, "totalAmount is the total TTC in euros");
  assertEquals(before.totalAmount * 100, deal.totalTTC);
  const company = before.company;
  assert(company, "the partner's block");
  assert(/^[a-z0-9-]+-[0-9a-f]{8}$/.test(company.slug), `company.slug: ${company.slug}`);
  assertEquals(typeof company.summary, "string");
  assert(Array.isArray(company.photos), "company.photos");
  assertEquals(company.vatExemption, false);
  for (const list of ["signature", "classic", "mocktail"]) {
    assert(Array.isArray(company.cocktails?.[list]), `company.cocktails.${list}`);
  }
  assert(company.cocktails.signature.length > 0, "the partner's signature cocktails");
  assertEquals(company.email, undefined, "the partner's email is not the customer's to read");

  // An edit other than lines or properties dates the quote too.
  const { db } = await testEnv();
  await systemQuery(db, "update public.deals set edited_at = null where id = $1", [deal.id]);
  assertEquals(dealOf(await customer.get(`/api/customer/deal/get/${deal.token}`)).editedAt, null);
  dealOf(await partner.patch(`/api/deal/${deal.id}`, { description: "<p>Notre carte d'été</p>" }));
  const after = dealOf(await customer.get(`/api/customer/deal/get/${deal.token}`));
  assert(
    typeof after.editedAt === "number" && after.editedAt >= before.createdAt,
    `editedAt ${after.editedAt}`,
  );
  assertEquals(after.company.summary, "Notre carte d'été", "the partner's word, as plain text");
  assertEquals(dealOf(await admin.get(`/api/deal/get/${deal.id}`)).editedAt, after.editedAt);
});

httpTest("the HubSpot id: in the partner's list ('# Demande'), found by the admin's search", async () => {
  const admin = await loggedIn(ADMIN);
  const deal = await dealForPartner(admin);
  const hubspotId = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  dealOf(await admin.patch(`/api/deal/${deal.id}`, { hubspotId }));

  const partner = await loggedIn(PARTNER);
  const row = (dealOf(await partner.get("/api/deal/index")) as unknown as Json[]).find((d) =>
    d.id === deal.id
  );
  assertEquals(row?.hubspotId, hubspotId, "the partner's list carries it");
  const page = await partner.get("/dashboard/partenaire/devis");
  assertEquals(page.status, 200);
  assert(page.text.includes(`HubSpot ${hubspotId}`), "'# Demande' shows it");

  const found = body(await admin.get(`/api/deal/index?search=${hubspotId}`));
  assertEquals(found.results.map((d: Json) => d.id), [deal.id], "the admin's search finds it");
  const html = await admin.get(`/dashboard/admin/devis?search=${hubspotId}`);
  assert(html.text.includes(`HubSpot ${hubspotId}`));
});

async function payFullByCard(customer: Client, token: string) {
  const intent = await customer.post("/api/payment/intent", { dealToken: token, paymentType: "full" });
  assertEquals(intent.status, 200, intent.text);
  const paymentIntentId = String(body(intent).paymentIntentId);
  const card = await customer.post("/api/payment/simulated/confirm", {
    paymentIntentId,
    cardNumber: "4242424242424242",
  });
  assertEquals(card.status, 200, card.text);
  const confirmed = await customer.post("/api/payment/confirm", { paymentIntentId });
  assertEquals([confirmed.status, body(confirmed).paymentStatus], [200, "succeeded"], confirmed.text);
  return confirmed;
}

httpTest("a full payment's success message is kept for the next page, once, with the invoice", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const deal = await sentDealForCustomer(admin, partner);
  const customer = await loggedIn(CUSTOMER);
  const otherSession = await loggedIn(CUSTOMER);
  const confirmed = await payFullByCard(customer, deal.token);
  // Kept on the server: the cookie carries no message.
  const cookies = confirmed.headers.getSetCookie().join("\n");
  assert(!cookies.includes("Paiement"), `no message in a cookie: ${cookies}`);

  // The page reloaded after the payment shows the message and a link to the new invoice, once.
  const page = await customer.get(`/deal/show/${deal.token}`);
  assertEquals(page.status, 200);
  assert(page.text.includes(PAYMENT_MESSAGES.fullPaid), "the spec's success message");
  const invoice = `/api/customer/deal/download/invoice/${deal.token}/full`;
  const banner = page.text.slice(page.text.indexOf('data-testid="payment-success"'));
  assert(banner.startsWith('data-testid="payment-success"'), "the success banner");
  assert(banner.slice(0, 2000).includes(invoice), "the banner links the new invoice");
  assert(
    page.text.indexOf('data-testid="payment-success"') < page.text.indexOf('data-testid="quote-detail"'),
    "above the quote's detail",
  );
  const again = await customer.get(`/deal/show/${deal.token}`);
  assert(!again.text.includes(PAYMENT_MESSAGES.fullPaid), "read once");
  assert(again.text.includes(invoice), "the invoice stays in the payment card");
  assertEquals((await otherSession.get("/api/user/flash-messages")).json(), [], "per session");
});

httpTest("GET /api/user/flash-messages returns what happened, then nothing", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const deal = await sentDealForCustomer(admin, partner);
  const customer = await loggedIn(CUSTOMER);
  await payFullByCard(customer, deal.token);
  assertEquals((await customer.get("/api/user/flash-messages")).json(), [
    { type: "success", message: PAYMENT_MESSAGES.fullPaid },
  ]);
  assertEquals((await customer.get("/api/user/flash-messages")).json(), []);
  // A signed-out visitor's message (logout) reaches the next page without any session.
  const visitor = new Client({ ip: freshIp() });
  await visitor.login(CUSTOMER);
  assertEquals((await visitor.request("POST", "/logout")).status, 303);
  assert(!(visitor.cookies.get("flash") ?? "").includes("connect"), "the cookie is only an id");
  assertEquals((await visitor.get("/api/user/flash-messages")).json(), [
    { type: "info", message: "Vous êtes déconnecté." },
  ]);
});
