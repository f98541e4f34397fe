// A document states VAT or the VAT exemption (art. 293 B du CGI), never both: every kind of customer
// document, for a partner that charges VAT and for one that does not, and for a partner whose profile
// says exempt while the quote was priced with VAT (the state the 'Mon profil' guard now refuses, and
// documents issued before it). The Factur-X category follows: S with VAT, E without.
import { assert, assertEquals } from "../../tests/support/assert.ts";
import {
  balanceDocument,
  type BillingDocument,
  depositDocument,
  MENTIONS,
  quoteDocument,
} from "./document.ts";
import { vatCategory } from "./facturx.ts";
import {
  creditNoteDoc,
  depositDoc,
  EXEMPT_SELLER,
  finalDoc,
  fullDoc,
  ISSUED_AT,
  PLATFORM,
  PRIVATE_BUYER,
  quote,
  SELLER,
} from "./fixtures_test.ts";
import type { Party, QuoteSnapshot } from "./document.ts";

function everyKind(q: QuoteSnapshot, seller: Party): BillingDocument[] {
  const common = { issuedAt: ISSUED_AT, seller, buyer: PRIVATE_BUYER, issuedBy: PLATFORM, quote: q };
  return [
    quoteDocument({ ...common, number: null }),
    depositDocument({ ...common, number: null, amountTTC: 30000, paidAt: null, proforma: true }),
    balanceDocument({ ...common, number: null, deposit: null, amountPaid: 0, paidAt: null, proforma: true }),
    depositDoc(q, seller, PRIVATE_BUYER),
    finalDoc(q, seller, PRIVATE_BUYER),
    fullDoc(q, seller, PRIVATE_BUYER),
    creditNoteDoc(q, seller, PRIVATE_BUYER),
  ];
}

Deno.test("a partner that charges VAT: VAT on every document, never the 293 B mention", () => {
  for (const seller of [SELLER, EXEMPT_SELLER]) {
    for (const doc of everyKind(quote({ vatRate: 20 }), seller)) {
      assert(doc.totalVAT > 0, `${doc.kind}: VAT charged`);
      assert(!doc.mentions.includes(MENTIONS.vatExempt), `${doc.kind} (${seller.name}): no 293 B mention`);
      for (const v of doc.vat) assertEquals(vatCategory(doc, v.rate), "S", doc.kind);
    }
  }
});

Deno.test("a VAT-exempt partner: no VAT on any document, the 293 B mention on each", () => {
  for (const doc of everyKind(quote({ vatRate: 0 }), EXEMPT_SELLER)) {
    assertEquals(doc.totalVAT, 0, doc.kind);
    assert(doc.mentions.includes(MENTIONS.vatExempt), `${doc.kind}: 293 B mention`);
    for (const v of doc.vat) assertEquals(vatCategory(doc, v.rate), "E", doc.kind);
  }
});
