// The order line of a cart line: its amount is the §9 price (rules.sessionPrice), and its invoice
// lines HT add up, VAT per rate rounded once, to that price within the cent the invoice states (BT-114).
import { assert, assertEquals } from "../../tests/support/assert.ts";
import { vatBreakdown } from "../billing/document.ts";
import { orderLineOf, registrationLabel } from "./pricing.ts";
import { orderInvoiceDocument } from "./documents.ts";
import { PLATFORM, PRIVATE_BUYER } from "../billing/fixtures_test.ts";

const price = { priceTTC: 4500, travelCostTTC: 500, additionalCosts: [{ title: "Kit", ht: 1000, vat: 20 }] };

Deno.test("orderLineOf: the amount is the §9 price × quantity, with one invoice line per component", () => {
  const line = orderLineOf({
    lineId: "x",
    title: "Mojito",
    city: "Paris",
    dtstart: 1800000000,
    quantity: 3,
    price,
  });
  assertEquals([line.unitAmount, line.amount], [6200, 18600]);
  assertEquals(line.detail.map((l) => [l.label.split(" — ")[0], l.qty, l.unitPriceHT, l.vatRate]), [
    ["Atelier « Mojito »", 3, 3750, 20],
    ["Frais de déplacement", 3, 417, 20],
    ["Kit", 3, 1000, 20],
  ]);
  assertEquals(line.label, registrationLabel("Mojito", "Paris", 1800000000));
});

Deno.test("the order's invoice: lines HT, VAT per rate, and the rounding cent up to what was paid", () => {
  const line = orderLineOf({
    lineId: "x",
    title: "Mojito",
    city: "Paris",
    dtstart: 1800000000,
    quantity: 3,
    price,
  });
  const doc = orderInvoiceDocument({
    number: "FA-2026-CC-00001",
    issuedAt: "2026-11-27",
    seller: PLATFORM,
    buyer: PRIVATE_BUYER,
    order: { orderId: 7, title: "Ateliers cocktails", serviceDate: "2027-01-15", city: "Paris", places: 3 },
    lines: line.detail,
    total: line.amount,
    card: line.amount,
    voucher: 0,
    paidAt: "2026-11-27",
  });
  const lines = doc.lines;
  assertEquals(doc.totalHT, lines.reduce((s, l) => s + l.totalHT, 0));
  assertEquals(doc.vat, vatBreakdown(lines));
  assertEquals(doc.totalTTC + doc.rounding, 18600, "what was paid");
  assert(Math.abs(doc.rounding) <= 3, `rounding ${doc.rounding}`);
  assertEquals([doc.amountPaid, doc.amountDue, doc.reference.orderId], [18600, 0, 7]);
});
