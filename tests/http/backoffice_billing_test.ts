// Billing in the back office (spec 001 §2.1 header 'download-quote link', §2.9 the partner's invoices
// menu, §2.12 the admin list's 'download quote' and invoice downloads; refunds in 'État des
// paiements'): a deal created through the API, its customer linked, a deposit paid by card with the
// simulated provider. What the pages render (their HTML and their islands' props) for the admin, the
// deal's partner and another partner; that each link answers the right people; and a refund through
// the API path the page's dialog uses, from pending to succeeded with its credit note once the refunds
// and billing queues drained.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, ORIGIN, testEnv, type TestResponse } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { drainBilling, drainRefunds } from "../support/stripe_app.ts";
import {
  ADMIN,
  assertError,
  body,
  CUSTOMER,
  dealOf,
  freshIp,
  type Json,
  MSG,
  PARTNER,
  PARTNER2,
  payDepositByCard,
  sentDealForCustomer,
} from "./deals_fixtures_test.ts";
import { DEAL_MESSAGES } from "../../lib/deals/rules.ts";
import { REFUND_MESSAGES, refundableOf } from "../../lib/payments/rules.ts";
import { dealDocumentLinks, QUOTE_DOWNLOAD_LABEL } from "../../lib/billing/links.ts";
import { type DealListRow, rowDocuments, rowFromJson } from "../../components/deals/list/rows.ts";
import { amountFieldText, checkRefundAmount } from "../../components/deals/detail/PaymentLedger.tsx";

// ---------------------------------------------------------------------------------------------------
// Helpers.

async function as(email: string | null): Promise<Client> {
  const client = new Client({ ip: freshIp() });
  if (email) await client.login(email);
  return client;
}

/** preact-render-to-string escapes text and attributes: read them back as the browser would. */
function decode(html: string): string {
  return html.replace(/&quot;/g, '"').replace(/&#39;|&#x27;|&apos;/g, "'").replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

function islandProps(page: TestResponse, name: string): Json {
  const match = new RegExp(`data-island="${name}" data-props="([^"]*)"`).exec(page.text);
  assert(match, `the page has the island ${name}`);
  return JSON.parse(decode(match[1]));
}

/** The HTML of a deal's row in a list's table (the cards repeat it). */
function tableRow(html: string, dealId: number): string | null {
  const start = html.search(new RegExp(`<tr[^>]*data-deal-id="${dealId}"`));
  if (start < 0) return null;
  return html.slice(start, html.indexOf("</tr>", start));
}

/** The hrefs of a row's invoices menu, in order ([] without a menu). */
function menuLinks(rowHtml: string): string[] {
  const start = rowHtml.indexOf('data-testid="invoices-menu"');
  if (start < 0) return [];
  const menu = rowHtml.slice(start, rowHtml.indexOf("</details>", start));
  return [...menu.matchAll(/href="([^"]+)"/g)].map((m) => decode(m[1]));
}

async function fetchStatus(client: Client, path: string): Promise<{ status: number; type: string }> {
  const headers = new Headers();
  if (client.cookies.size) headers.set("cookie", [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
  const response = await (await testEnv()).app.request(`${ORIGIN}${path}`, { headers }, {
    remoteAddr: { transport: "tcp", hostname: client.options.ip ?? "127.0.0.1", port: 40000 },
  });
  await response.arrayBuffer();
  return { status: response.status, type: response.headers.get("content-type") ?? "" };
}

async function assertPdf(client: Client, path: string, context: string) {
  assertEquals(await fetchStatus(client, path), { status: 200, type: "application/pdf" }, context);
}

interface Actors {
  admin: Client;
  partner: Client;
  partner2: Client;
  customer: Client;
}

async function actors(): Promise<Actors> {
  return {
    admin: await as(ADMIN),
    partner: await as(PARTNER),
    partner2: await as(PARTNER2),
    customer: await as(CUSTOMER),
  };
}

/** A deal validated by the partner and linked to client@example.fr (status 'send'). */
const sentDeal = (a: Actors) => sentDealForCustomer(a.admin, a.partner);

const dealPage = (id: number) => `/dashboard/espace-partenaire/deal/${id}`;
const PARTNER_LIST = "/dashboard/partenaire/devis";
const adminList = (search: string) => `/dashboard/admin/devis?search=${encodeURIComponent(search)}`;

const invoice = (token: string, stage: string) => `/api/customer/deal/download/invoice/${token}/${stage}`;
const commission = (token: string, stage: string) => `/api/company/deal/download/invoice/${token}/${stage}`;
const proforma = (token: string, stage: string) => `/api/customer/deal/download/proforma/${token}/${stage}`;

function adminRow(page: TestResponse, dealId: number): DealListRow {
  const rows = islandProps(page, "AdminDealsList").rows as DealListRow[];
  const row = rows.find((r) => r.id === dealId);
  assert(row, `deal ${dealId} in the admin list's props`);
  return row;
}

// ---------------------------------------------------------------------------------------------------
// The pure pieces.

Deno.test("document links: invoices once due, customer's first; proformas only by the admin setting", () => {
  const base = { token: "abc", status: "send" as const, paidKinds: [] as string[] };
  assertEquals(dealDocumentLinks(base), [], "nothing paid, no proforma setting");
  assertEquals(dealDocumentLinks({ ...base, paidKinds: ["deposit"] }), [
    { label: "Facture d'acompte", href: invoice("abc", "deposit"), group: "customer" },
    { label: "Facture de commission (acompte)", href: commission("abc", "deposit"), group: "commission" },
  ]);
  assertEquals(
    dealDocumentLinks({ ...base, status: "pay_total", paidKinds: ["deposit", "balance"] }).map((l) =>
      l.label
    ),
    [
      "Facture d'acompte",
      "Facture de solde",
      "Facture de commission (acompte)",
      "Facture de commission (solde)",
    ],
  );
  assertEquals(
    dealDocumentLinks({ ...base, paidKinds: ["total"], showProforma: true }).map((l) => l.href),
    [invoice("abc", "full"), commission("abc", "full")],
    "no proforma once paid",
  );
  assertEquals(
    dealDocumentLinks({ ...base, showProforma: true }).map((l) => [l.label, l.href]),
    [
      ["Facture proforma d'acompte", proforma("abc", "deposit")],
      ["Facture proforma de solde", proforma("abc", "final")],
    ],
  );
  assertEquals(
    dealDocumentLinks({ ...base, showProforma: true, depositOffered: false }).map((l) => l.href),
    [proforma("abc", "full")],
  );
  assertEquals(dealDocumentLinks({ ...base, status: "refused_client", showProforma: true }), []);
});

Deno.test("refund dialog: the amount field in French, checked against what is refundable", () => {
  assertEquals(amountFieldText(123450).replace(/[\u202f\u00a0]/g, " "), "1 234,50");
  assertEquals(checkRefundAmount(amountFieldText(123450), 123450), { cents: 123450 });
  assertEquals(checkRefundAmount("12,5", 5000), { cents: 1250 });
  assertEquals(checkRefundAmount("50.01", 5000), { error: REFUND_MESSAGES.tooMuch });
  assertEquals(checkRefundAmount("0", 5000), { error: DEAL_MESSAGES.amountPositive });
  assertEquals(checkRefundAmount("", 5000), { error: DEAL_MESSAGES.amountPositive });
  assert("error" in checkRefundAmount("1,234", 5000), "three decimals");
  assertEquals(refundableOf({ amount: 10000, refunded: 2500, pending: 1000 }), 6500);
});

// ---------------------------------------------------------------------------------------------------
// Pages and downloads.

httpTest("deal page header: the quote download link for the admin and the deal's partner only", async () => {
  const a = await actors();
  const deal = await sentDeal(a);
  const href = `/quote/download/${deal.id}`;
  for (const [who, client] of [["admin", a.admin], ["partner", a.partner]] as const) {
    const page = await client.get(dealPage(deal.id));
    assertEquals(page.status, 200, `${who}: ${page.text.slice(0, 200)}`);
    const link = new RegExp(`<a href="${href}"[^>]*data-testid="download-quote"[^>]*>[\\s\\S]*?</a>`).exec(
      page.text,
    );
    assert(link && link[0].includes(QUOTE_DOWNLOAD_LABEL), `${who}: the header's link`);
    await assertPdf(client, href, `${who} downloads the quote`);
  }
  assertEquals((await a.partner2.get(dealPage(deal.id))).status, 404, "another partner's page");
  assertEquals((await fetchStatus(a.partner2, href)).status, 404, "another partner's download");
  assertEquals((await a.customer.get(dealPage(deal.id))).status, 403, "the customer has no back office");
  // The partner's page carries no payments ledger; the admin's does.
  assertEquals(islandProps(await a.partner.get(dealPage(deal.id)), "DealDetail").ledger, null);
  assertEquals(islandProps(await a.admin.get(dealPage(deal.id)), "DealDetail").ledger, []);
});

httpTest("lists: the invoices menus list only the documents that are due, with their links", async () => {
  const a = await actors();
  const deal = await sentDeal(a);

  // Nothing paid: no menu, for the partner or the admin; the admin's row downloads the quote.
  let partnerPage = await a.partner.get(PARTNER_LIST);
  assertEquals(partnerPage.status, 200);
  let row = tableRow(partnerPage.text, deal.id);
  assert(row, "the deal is in the partner's list");
  assertEquals(menuLinks(row), [], "no invoice before a payment");
  let adminPage = await a.admin.get(adminList(deal.lastname));
  assertEquals(adminPage.status, 200);
  assertEquals(rowDocuments(adminRow(adminPage, deal.id)), []);
  const adminHtml = tableRow(adminPage.text, deal.id);
  assert(adminHtml?.includes(`href="/quote/download/${deal.id}"`), "the admin row's 'download quote'");

  // The deposit paid by card: its customer invoice and its commission invoice, nothing else.
  await payDepositByCard(a.customer, deal.token);
  const due = [invoice(deal.token, "deposit"), commission(deal.token, "deposit")];
  partnerPage = await a.partner.get(PARTNER_LIST);
  row = tableRow(partnerPage.text, deal.id)!;
  assertEquals(menuLinks(row), due, "the partner's menu");
  assert(row.includes("Facture d&#39;acompte") || row.includes("Facture d'acompte"), row);
  assert(row.includes("Facture de commission (acompte)"), row);
  adminPage = await a.admin.get(adminList(deal.lastname));
  const adminListRow = adminRow(adminPage, deal.id);
  assertEquals(adminListRow.paidKinds, ["deposit"]);
  assertEquals(rowDocuments(adminListRow).map((d) => d.href), due, "the admin's row menu");
  // The API the admin list island pages with carries the same.
  const api = body(await a.admin.get(`/api/deal/index?search=${encodeURIComponent(deal.lastname)}`));
  const apiRow = rowFromJson(api.results.find((d: Json) => d.id === deal.id));
  assertEquals(rowDocuments(apiRow).map((d) => d.href), due, "GET /api/deal/index");
  const partnerApi = body(await a.partner.get("/api/deal/index")).results.find((d: Json) => d.id === deal.id);
  assertEquals(partnerApi.paidKinds, ["deposit"]);

  // Every link answers the admin and the partner; the customer never gets the commission invoice;
  // another partner sees nothing of the deal.
  for (const href of due) {
    await assertPdf(a.admin, href, `admin ${href}`);
    await assertPdf(a.partner, href, `partner ${href}`);
    assertEquals((await fetchStatus(a.partner2, href)).status, 404, `partner2 ${href}`);
  }
  await assertPdf(a.customer, due[0], "the customer's own invoice");
  const refused = await a.customer.get(due[1]);
  assertError(refused, 403, MSG.forbidden, "the customer and the commission invoice");
  for (const stage of ["final", "full"]) {
    assertError(await a.customer.get(commission(deal.token, stage)), 403, MSG.forbidden, stage);
  }
  const other = await a.partner2.get(PARTNER_LIST);
  assertEquals(tableRow(other.text, deal.id), null, "not in another partner's list");
  assert(!other.text.includes(deal.token), "nothing of the deal in another partner's page");
  const otherApi = body(await a.partner2.get("/api/deal/index")).results as Json[];
  assert(!otherApi.some((d) => d.id === deal.id), "nor in its API");
});

httpTest("lists: proformas while nothing is paid, when the admin shows them", async () => {
  const a = await actors();
  const deal = await sentDeal(a);
  dealOf(await a.admin.patch(`/api/deal/${deal.id}`, { adminSettings: { showProformaInvoice: true } }));
  const expected = [proforma(deal.token, "deposit"), proforma(deal.token, "final")];
  const row = tableRow((await a.partner.get(PARTNER_LIST)).text, deal.id)!;
  assertEquals(menuLinks(row), expected);
  const adminPage = await a.admin.get(adminList(deal.lastname));
  assertEquals(rowDocuments(adminRow(adminPage, deal.id)).map((d) => d.href), expected);
  for (const href of expected) await assertPdf(a.partner, href, href);
});

// ---------------------------------------------------------------------------------------------------
// Refunds.

httpTest("refunds: pending card refund, then succeeded with its credit note on the deal page", async () => {
  const a = await actors();
  const deal = await sentDeal(a);
  const deposit = await payDepositByCard(a.customer, deal.token);
  const refundPath = `/api/deal/${deal.id}/refunds`;
  const ledgerPath = `/api/deal/${deal.id}/payments`;

  // The deal page's data: the payment, nothing refunded.
  let ledger = islandProps(await a.admin.get(dealPage(deal.id)), "DealDetail").ledger as Json[];
  assertEquals(ledger.map((p) => [p.id, p.kind, p.method, p.amount, p.refunded, p.pending, p.refunds]), [
    [deposit.id, "deposit", "card", deposit.amount, 0, 0, []],
  ]);

  // Only admins: the partner and the customer are refused, and read no ledger.
  for (const [who, client] of [["partner", a.partner], ["customer", a.customer]] as const) {
    assertError(
      await client.post(refundPath, { paymentId: deposit.id, amount: 1 }),
      403,
      MSG.notAllowed,
      who,
    );
    assertError(await client.get(ledgerPath), 403, MSG.notAllowed, `${who} ledger`);
  }
  assertError(await a.partner2.get(ledgerPath), 403, MSG.notAllowed, "partner2 ledger");

  // More than the payment: 422 with the French message, nothing recorded.
  const tooMuch = assertError(
    await a.admin.post(refundPath, { paymentId: deposit.id, amount: (deposit.amount + 1) / 100, reason: "" }),
    422,
    REFUND_MESSAGES.tooMuch,
  );
  assertEquals(tooMuch.errors.amount, REFUND_MESSAGES.tooMuch);

  // A partial refund, as the dialog sends it (euros, the reason).
  const part = 1050;
  const asked = await a.admin.post(refundPath, {
    paymentId: deposit.id,
    amount: part / 100,
    reason: "Geste commercial",
  });
  assertEquals([asked.status, body(asked).message], [200, REFUND_MESSAGES.requested], asked.text);
  ledger = body(await a.admin.get(ledgerPath)).results;
  assertEquals(ledger[0].pending, part);
  assertEquals(ledger[0].refunds.map((r: Json) => [r.amount, r.status, r.reason, r.creditNote]), [
    [part, "pending", "Geste commercial", null],
  ]);
  assertEquals(refundableOf(ledger[0] as never), deposit.amount - part);
  // While it is pending, only the rest is refundable.
  assertError(
    await a.admin.post(refundPath, { paymentId: deposit.id, amount: (deposit.amount - part + 1) / 100 }),
    422,
    REFUND_MESSAGES.tooMuch,
  );

  // The refunds queue sends it to the provider, the billing queue issues the credit note.
  const { deps } = await testEnv();
  assert((await drainRefunds(deps)) >= 1, "the refunds queue sent it");
  await drainBilling(deps);
  ledger = islandProps(await a.admin.get(dealPage(deal.id)), "DealDetail").ledger as Json[];
  assertEquals([ledger[0].refunded, ledger[0].pending], [part, 0]);
  const [refund] = ledger[0].refunds as Json[];
  assertEquals(refund.status, "succeeded");
  assert(
    refund.creditNote && /^AV-\d{4}-[0-9A-F]{6}-\d{5}$/.test(refund.creditNote.number),
    JSON.stringify(refund),
  );
  const note = `/quote/invoice/${refund.creditNote.id}`;
  await assertPdf(a.admin, note, "the credit note, as the admin");
  const { db } = await testEnv();
  const [row] = await systemQuery<{ series: string; total: number }>(
    db,
    "select series, total_ttc as total from public.invoices where id = $1",
    [refund.creditNote.id],
  );
  assertEquals([row.series, Number(row.total)], ["AV", part]);
  // The rest stays refundable; beyond it, 422.
  assertError(
    await a.admin.post(refundPath, { paymentId: deposit.id, amount: (deposit.amount - part + 1) / 100 }),
    422,
    REFUND_MESSAGES.tooMuch,
  );
});

httpTest("refunds: a manual payment's refund is recorded at once", async () => {
  const a = await actors();
  const deal = await sentDeal(a);
  dealOf(await a.admin.post(`/api/deal/${deal.id}/payments`, { kind: "deposit", amount: 100 }));
  let ledger = body(await a.admin.get(`/api/deal/${deal.id}/payments`)).results as Json[];
  assertEquals(ledger.map((p) => [p.kind, p.method, p.amount]), [["deposit", "manual", 10000]]);
  const res = await a.admin.post(`/api/deal/${deal.id}/refunds`, {
    paymentId: ledger[0].id,
    amount: 40,
    reason: "Annulation partielle",
  });
  assertEquals([res.status, body(res).message], [200, REFUND_MESSAGES.recorded], res.text);
  await drainBilling((await testEnv()).deps);
  ledger = body(await a.admin.get(`/api/deal/${deal.id}/payments`)).results as Json[];
  assertEquals([ledger[0].refunded, ledger[0].pending], [4000, 0]);
  assertEquals(ledger[0].refunds.map((r: Json) => [r.status, r.amount, !!r.creditNote]), [[
    "succeeded",
    4000,
    true,
  ]]);
  assertEquals(
    (await a.admin.get(`/api/deal/999999999/payments`)).status,
    404,
    "an unknown deal",
  );
});
