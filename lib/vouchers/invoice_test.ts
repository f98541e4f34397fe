// The gift voucher's invoice and PDF: the invoice's Factur-X XML is valid against the official EN 16931
// XSD, states category O (outside VAT's scope, VATEX-EU-O, no rate, no VAT number) and what the page
// says; the voucher's PDF prints code, amount, remaining, valid until, recipient and message.
import { assert, assertEquals } from "../../tests/support/assert.ts";
import { renderInvoicePdf } from "../billing/facturx.ts";
import {
  attachment,
  attachmentNames,
  facturXSchemaErrors,
  pdfText,
  plain,
  PLATFORM,
  PRIVATE_BUYER,
  PRO_BUYER,
} from "../billing/fixtures_test.ts";
import { voucherInvoiceDocument } from "./invoice.ts";
import { renderVoucherPdf } from "./pdf.ts";

const doc = (buyer = PRIVATE_BUYER) =>
  voucherInvoiceDocument({
    number: "FA-2026-CC-00042",
    issuedAt: "2026-11-27",
    paidAt: "2026-11-27",
    seller: PLATFORM,
    buyer,
    voucherId: "c0ffee00-0000-4000-8000-000000000001",
    orderId: 42,
    amount: 5000,
    validUntil: "2027-11-27",
    recipientName: "Camille Martin",
  });

Deno.test("voucher invoice: Factur-X valid against the EN 16931 XSD, category O without VAT numbers", async () => {
  for (const buyer of [PRIVATE_BUYER, PRO_BUYER]) {
    const pdf = await renderInvoicePdf(doc(buyer));
    assertEquals(await attachmentNames(pdf), ["factur-x.xml"]);
    const xml = new TextDecoder().decode(await attachment(pdf));
    assertEquals(await facturXSchemaErrors(xml), []);
    assert(xml.includes("<ram:CategoryCode>O</ram:CategoryCode>"), "category O");
    assert(xml.includes("<ram:ExemptionReasonCode>VATEX-EU-O</ram:ExemptionReasonCode>"), "VATEX-EU-O");
    assert(!xml.includes("RateApplicablePercent"), "no VAT rate on an O invoice (BR-O-05, BR-O-10)");
    assert(!xml.includes("FR74912345678") && !xml.includes("FR05987654321"), "no VAT number (BR-O-02)");
    assert(xml.includes('<ram:TaxTotalAmount currencyID="EUR">0.00</ram:TaxTotalAmount>'), "no VAT");
    assert(xml.includes("<ram:DuePayableAmount>0.00</ram:DuePayableAmount>"), "paid");
    // Already paid (S2): BT-9 is the day it was paid and BT-113 = BT-112 (the reform's BR-FR-CO-09).
    assert(xml.includes("<ram:ID>S2</ram:ID>"), "framework S2");
    assert(
      /<ram:DueDateDateTime>\s*<udt:DateTimeString format="102">20261127<\/udt:DateTimeString>/.test(xml),
      "BT-9",
    );
    assert(xml.includes("<ram:TotalPrepaidAmount>50.00</ram:TotalPrepaidAmount>"), "BT-113");
    assert(xml.includes("<ram:TypeCode>380</ram:TypeCode>"), "a commercial invoice");
    const text = plain(await pdfText(pdf));
    assert(text.includes("Facture de bon cadeau"), text);
    assert(text.includes("FA-2026-CC-00042"), "its number");
    assert(text.includes("hors du champ de la TVA"), "the mention");
    assert(text.includes("Valable jusqu'au 27/11/2027"), "validity");
    assert(text.includes("50,00 €"), "amount");
    assert(text.includes("Commande n° 42"), "the order");
  }
});

Deno.test("voucher PDF: code, amount, remaining, valid until, recipient, message", async () => {
  const pdf = await renderVoucherPdf({
    code: "0123456789ABCDEF",
    amount: 5000,
    remaining: 1250,
    validUntil: Date.UTC(2027, 10, 27, 12) / 1000,
    recipientName: "Camille Martin",
    buyerName: "Léa Dupont",
    message: "Joyeux anniversaire !",
    platformName: "Cocktails & Co",
    siteUrl: "https://example.fr",
  });
  const text = plain(await pdfText(pdf));
  for (
    const expected of [
      "0123-4567-89AB-CDEF",
      "50,00 €",
      "12,50 €",
      "Valable jusqu'au 27/11/2027",
      "Pour Camille Martin",
      "De la part de Léa Dupont",
      "Joyeux anniversaire !",
    ]
  ) assert(text.includes(expected), `${expected} in ${text}`);
});
