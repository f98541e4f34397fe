// The billing downloads (spec 000 §7 'Downloads', 001 §7 download links): a deal created through the
// API, its customer linked, a deposit paid by card with the simulated provider, the balance recorded
// by the admin; then every download route as the customer, the partner, another partner, another
// customer, the admin and a visitor: status, content type, file name, no caching, a PDF pdftotext
// reads; commission documents refused to the customer; an invoice not due yet answers 404 in French.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, ORIGIN, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { attachmentNames, pdfText } from "../../lib/billing/fixtures_test.ts";
import { formatEuros } from "../../lib/money.ts";
import { DEAL_MESSAGES } from "../../lib/deals/rules.ts";
import { DOCUMENT_NOT_AVAILABLE } from "../../lib/billing/use_cases/download.ts";
import {
  ADMIN,
  CUSTOMER,
  CUSTOMER2,
  freshIp,
  MSG,
  PARTNER,
  PARTNER2,
  payDepositByCard,
  sentDealForCustomer,
} from "./deals_fixtures_test.ts";

const NOT_AVAILABLE = "Ce document n'est pas encore disponible pour ce devis.";
const PROFORMA_NOT_AVAILABLE = "Cette facture proforma n'est pas disponible pour ce devis.";
const UNAVAILABLE_DEAL = DEAL_MESSAGES.unavailable;
assertEquals(DOCUMENT_NOT_AVAILABLE, NOT_AVAILABLE);

async function as(email: string | null): Promise<Client> {
  const client = new Client({ ip: freshIp() });
  if (email) await client.login(email);
  return client;
}

interface Download {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  json(): Record<string, unknown>;
}

/** A GET with the client's cookies, the body kept as bytes (TestResponse decodes it as text). */
async function download(client: Client, path: string): Promise<Download> {
  const headers = new Headers();
  if (client.cookies.size) headers.set("cookie", [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
  const response = await (await testEnv()).app.request(`${ORIGIN}${path}`, { headers }, {
    remoteAddr: { transport: "tcp", hostname: client.options.ip ?? "127.0.0.1", port: 40000 },
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    json: () => JSON.parse(new TextDecoder().decode(bytes)),
  };
}

/** A PDF answer: its headers and signature. */
function assertPdf(res: Download, fileName: RegExp, context: string): Download {
  assertEquals(res.status, 200, `${context}: ${new TextDecoder().decode(res.bytes).slice(0, 300)}`);
  assertEquals(res.headers.get("content-type"), "application/pdf", context);
  assertEquals(res.headers.get("cache-control"), "no-store", context);
  const disposition = res.headers.get("content-disposition") ?? "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? "";
  assert(disposition.startsWith("attachment;") && fileName.test(name), `${context}: ${disposition}`);
  assertEquals(new TextDecoder().decode(res.bytes.subarray(0, 5)), "%PDF-", context);
  return res;
}

/** A PDF answer and the text pdftotext reads in it. */
async function readPdf(res: Download, fileName: RegExp, context: string): Promise<string> {
  return await pdfText(assertPdf(res, fileName, context).bytes);
}

function assertRefused(res: Download, status: number, message: string | null, context: string) {
  assertEquals(res.status, status, `${context}: ${new TextDecoder().decode(res.bytes).slice(0, 300)}`);
  if (message === null) return;
  const json = res.json();
  assertEquals([json.status, json.message], ["error", message], context);
}

interface Actors {
  admin: Client;
  partner: Client;
  partner2: Client;
  customer: Client;
  customer2: Client;
  visitor: Client;
}

async function actors(): Promise<Actors> {
  return {
    admin: await as(ADMIN),
    partner: await as(PARTNER),
    partner2: await as(PARTNER2),
    customer: await as(CUSTOMER),
    customer2: await as(CUSTOMER2),
    visitor: await as(null),
  };
}

/** A deal validated by the partner and linked to client@example.fr (status 'send'). */
const sentDeal = (a: Actors) => sentDealForCustomer(a.admin, a.partner);

httpTest("quote and proformas before any payment: who may download what", async () => {
  const a = await actors();
  const deal = await sentDeal(a);
  // Proformas follow the page's rule (lib/billing/links.ts proformaStages): shown by the admin.
  const shown = await a.admin.patch(`/api/deal/${deal.id}`, { adminSettings: { showProformaInvoice: true } });
  assertEquals(shown.status, 200, shown.text);
  const quote = `/api/customer/deal/download/quote/${deal.token}`;
  for (
    const [who, client] of [["customer", a.customer], ["partner", a.partner], ["admin", a.admin]] as const
  ) {
    const text = await readPdf(await download(client, quote), /^devis-\d+\.pdf$/, `quote as ${who}`);
    assert(text.includes("Devis") && text.includes(`Devis n° ${deal.id}`), text);
    assert(text.includes(`Net à payer ${formatEuros(deal.totalTTC).replace(/[\u202f\u00a0]/g, " ")}`), text);
    assert(
      text.includes("Émis par") && text.includes("au nom et pour le compte de"),
      "issued on the partner's behalf",
    );
  }
  assertRefused(await download(a.partner2, quote), 404, UNAVAILABLE_DEAL, "another partner");
  assertRefused(await download(a.customer2, quote), 404, UNAVAILABLE_DEAL, "another customer");
  assertRefused(await download(a.visitor, quote), 401, MSG.unauthenticated, "a visitor");
  assertRefused(
    await download(a.customer, `/api/customer/deal/download/quote/nope`),
    404,
    UNAVAILABLE_DEAL,
    "bad token",
  );

  // The quote by the deal's id (and by its token, as the quote payment page links it).
  for (const id of [String(deal.id), deal.token]) {
    assertPdf(await download(a.customer, `/quote/download/${id}`), /^devis-\d+\.pdf$/, `quote ${id}`);
    assertPdf(await download(a.partner, `/quote/download/${id}`), /\.pdf$/, `quote ${id} as partner`);
    assertPdf(await download(a.admin, `/quote/download/${id}`), /\.pdf$/, `quote ${id} as admin`);
    assertEquals(
      (await download(a.partner2, `/quote/download/${id}`)).status,
      404,
      `quote ${id} as another partner`,
    );
    assertEquals(
      (await download(a.customer2, `/quote/download/${id}`)).status,
      404,
      `quote ${id} as another customer`,
    );
    assertEquals(
      (await download(a.visitor, `/quote/download/${id}`)).status,
      401,
      `quote ${id} as a visitor`,
    );
  }
  assertEquals((await download(a.customer, "/quote/download/0")).status, 404);

  // Proformas: the customer's, and the partner's commission proformas (never the customer's).
  const proforma = (side: string, stage: string) =>
    `/api/${side}/deal/download/proforma/${deal.token}/${stage}`;
  const titles = {
    deposit: "Facture proforma d'acompte",
    final: "Facture proforma de solde",
    full: "Facture proforma",
  };
  for (const [stage, title] of Object.entries(titles)) {
    // The quote offers a deposit: its customer and its partner get the deposit's and the balance's
    // proformas, not the full one; the admin every one.
    const customerCopy = await download(stage === "full" ? a.admin : a.customer, proforma("customer", stage));
    const text = await readPdf(customerCopy, /^facture-proforma/, stage);
    assert(text.includes(title) && text.includes("ne vaut pas facture"), text);
    if (stage === "full") {
      for (const client of [a.customer, a.partner]) {
        assertRefused(
          await download(client, proforma("customer", stage)),
          404,
          PROFORMA_NOT_AVAILABLE,
          stage,
        );
      }
    } else assertPdf(await download(a.partner, proforma("customer", stage)), /\.pdf$/, `partner ${stage}`);
    assertRefused(
      await download(a.partner2, proforma("customer", stage)),
      404,
      UNAVAILABLE_DEAL,
      `partner2 ${stage}`,
    );
    const commission = await readPdf(
      await download(a.partner, proforma("company", stage)),
      /commission/,
      stage,
    );
    assert(
      commission.includes("Facture proforma de commission") && commission.includes("Partenaire facturé"),
      commission,
    );
    assertPdf(await download(a.admin, proforma("company", stage)), /commission/, `admin ${stage}`);
    assertRefused(
      await download(a.customer, proforma("company", stage)),
      403,
      MSG.forbidden,
      `customer ${stage}`,
    );
    assertRefused(
      await download(a.visitor, proforma("company", stage)),
      401,
      MSG.unauthenticated,
      `visitor ${stage}`,
    );
  }
  assertEquals((await download(a.customer, proforma("customer", "other"))).status, 404, "unknown stage");

  // No invoice before a payment: 404 with the French message.
  for (const stage of ["deposit", "final", "full"]) {
    const path = `/api/customer/deal/download/invoice/${deal.token}/${stage}`;
    assertRefused(await download(a.customer, path), 404, NOT_AVAILABLE, `invoice ${stage}`);
    const company = `/api/company/deal/download/invoice/${deal.token}/${stage}`;
    assertRefused(await download(a.partner, company), 404, NOT_AVAILABLE, `commission ${stage}`);
    assertRefused(await download(a.customer, company), 403, MSG.forbidden, `commission ${stage} as customer`);
  }
});

httpTest("invoices after a card deposit and the balance: Factur-X, numbers, deduction, access", async () => {
  const a = await actors();
  const deal = await sentDeal(a);
  const paymentId = (await payDepositByCard(a.customer, deal.token)).id;
  const invoice = (stage: string) => `/api/customer/deal/download/invoice/${deal.token}/${stage}`;
  const commission = (stage: string) => `/api/company/deal/download/invoice/${deal.token}/${stage}`;

  // The deposit invoice, issued on first download if the billing job has not run yet.
  const res = await download(a.customer, invoice("deposit"));
  const text = await readPdf(res, /^facture-d-acompte-FA-\d{4}-[0-9A-F]{6}-\d{5}\.pdf$/, "deposit invoice");
  const number = /N° (FA-\d{4}-[0-9A-F]{6}-\d{5})/.exec(text)?.[1];
  assert(number, text);
  assert(text.includes("Facture d'acompte") && text.includes("Montant réglé le"), text);
  assertEquals(await attachmentNames(res.bytes), ["factur-x.xml"], "an issued invoice is Factur-X");
  for (const [who, client] of [["partner", a.partner], ["admin", a.admin]] as const) {
    const again = await readPdf(await download(client, invoice("deposit")), /^facture-d-acompte/, who);
    assert(again.includes(`N° ${number}`), `${who} reads the same invoice`);
  }
  assertRefused(await download(a.partner2, invoice("deposit")), 404, UNAVAILABLE_DEAL, "another partner");
  assertRefused(await download(a.customer2, invoice("deposit")), 404, UNAVAILABLE_DEAL, "another customer");
  assertRefused(await download(a.visitor, invoice("deposit")), 401, MSG.unauthenticated, "visitor");
  // Not due yet: the final and the full invoice.
  assertRefused(await download(a.customer, invoice("final")), 404, NOT_AVAILABLE, "final before the balance");
  assertRefused(await download(a.customer, invoice("full")), 404, NOT_AVAILABLE, "full invoice");

  // The commission invoice of the deposit: the partner and the admin, never the customer.
  const co = await readPdf(await download(a.partner, commission("deposit")), /commission/, "commission");
  assert(co.includes("Facture de commission (acompte)") && /N° CO-\d{4}-CC-\d{5}/.test(co), co);
  assertPdf(await download(a.admin, commission("deposit")), /commission/, "commission as admin");
  assertRefused(
    await download(a.customer, commission("deposit")),
    403,
    MSG.forbidden,
    "commission as customer",
  );
  assertRefused(
    await download(a.partner2, commission("deposit")),
    404,
    UNAVAILABLE_DEAL,
    "commission, other partner",
  );
  assertRefused(
    await download(a.customer, commission("final")),
    403,
    MSG.forbidden,
    "commission final as customer",
  );

  // GET /quote/invoice/{orderId}: by the payment's id (its customer invoice) and by an invoice's id.
  const byPayment = await readPdf(
    await download(a.customer, `/quote/invoice/${paymentId}`),
    /^facture-d-acompte/,
    "by payment",
  );
  assert(byPayment.includes(`N° ${number}`), byPayment);
  assertPdf(
    await download(a.partner, `/quote/invoice/${paymentId}`),
    /^facture-d-acompte/,
    "by payment, partner",
  );
  assertEquals((await download(a.customer2, `/quote/invoice/${paymentId}`)).status, 404, "other customer");
  assertEquals((await download(a.partner2, `/quote/invoice/${paymentId}`)).status, 404, "other partner");
  assertEquals((await download(a.visitor, `/quote/invoice/${paymentId}`)).status, 401, "visitor");
  assertEquals((await download(a.customer, "/quote/invoice/not-an-id")).status, 404, "not an id");
  const { db } = await testEnv();
  const [co1] = await systemQuery<{ id: string }>(
    db,
    "select id from public.invoices where deal_id = $1 and series = 'CO'",
    [deal.id],
  );
  assertPdf(await download(a.partner, `/quote/invoice/${co1.id}`), /commission/, "commission by id, partner");
  assertEquals(
    (await download(a.customer, `/quote/invoice/${co1.id}`)).status,
    404,
    "commission by id, customer",
  );

  // The balance, recorded by the admin: the final invoice deducts the deposit invoice's base and VAT.
  const [{ deposit }] = await systemQuery<{ deposit: number }>(
    db,
    "select deposit_amount as deposit from public.deals where id = $1",
    [deal.id],
  );
  const balance = deal.totalTTC - Number(deposit);
  const paid = await a.admin.post(`/api/deal/${deal.id}/payments`, {
    kind: "balance",
    amount: balance / 100,
  });
  assertEquals(paid.status, 200, paid.text);
  const final = await download(a.customer, invoice("final"));
  const finalText = await readPdf(final, /^facture-de-solde-FA-/, "final invoice");
  // The deposit invoice deducted as a line (its base and VAT), named by its number: the totals are the
  // balance's, nothing deducted again below them.
  assert(
    finalText.includes("Facture de solde") && finalText.includes(`Acompte versé — facture n° ${number}`),
    finalText,
  );
  const amount = (cents: number) => formatEuros(cents).replace(/[\u202f\u00a0]/g, " ");
  assert(finalText.includes(`Montant réglé le`) && finalText.includes(amount(balance)), finalText);
  assert(!finalText.includes("Solde TTC"), finalText);
  assert(finalText.includes(`Reste à payer ${amount(0)}`), finalText);
  assertEquals(await attachmentNames(final.bytes), ["factur-x.xml"]);
  assertPdf(await download(a.partner, commission("final")), /commission/, "commission final");
  assertRefused(
    await download(a.customer, invoice("full")),
    404,
    NOT_AVAILABLE,
    "no full invoice after a deposit",
  );
});
