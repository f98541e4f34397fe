// The order line of a cart line: its amount is the §9 price (rules.sessionPrice), and its invoice
// lines HT add up, VAT per rate rounded once, to that price within the cent the invoice states (BT-114).
import { assertEquals } from "../../tests/support/assert.ts";
import { vatBreakdown } from "../billing/document.ts";
import { orderLineOf, registrationLabel } from "./pricing.ts";
import { orderInvoiceDocument } from "./documents.ts";
import { linesForTotal, splitByCent } from "./invoice_lines.ts";
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

Deno.test("the order's invoice: lines HT, VAT per rate, exactly what was paid (no rounding amount)", () => {
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
  assertEquals([doc.totalTTC, doc.rounding], [18600, 0], "what was paid, exactly");
  for (const l of lines) assertEquals(l.totalHT, l.qty * l.unitPriceHT, l.label);
  assertEquals([doc.amountPaid, doc.amountDue, doc.reference.orderId], [18600, 0, 7]);
});

Deno.test("linesForTotal: 2 × 67 € is 111,67 € HT + 22,33 €, as 1 × 55,84 € and 1 × 55,83 €", () => {
  const line = orderLineOf({
    lineId: "x",
    title: "Gin tonic",
    city: "Lille",
    dtstart: 1800000000,
    quantity: 2,
    price: { priceTTC: 6700, travelCostTTC: 0, additionalCosts: [] },
  });
  // Unit prices rounded before VAT made 133,99 €.
  assertEquals(line.detail[0].unitPriceHT * 2 + Math.round(line.detail[0].unitPriceHT * 2 * 0.2), 13399);
  const { lines, vat } = linesForTotal(line.detail, 13400);
  assertEquals(lines.map((l) => [l.qty, l.unitPriceHT, l.totalHT]), [[1, 5584, 5584], [1, 5583, 5583]]);
  assertEquals(vat, [{ rate: 20, base: 11167, amount: 2233 }]);
});

Deno.test("linesForTotal: every total from 1 cent to 300 € is met exactly, VAT within a cent of base × rate", () => {
  for (let total = 1; total <= 30_000; total++) {
    for (const qty of [1, 3]) {
      const { lines, vat } = linesForTotal([{
        label: "x",
        qty,
        unitPriceHT: Math.round(total / qty / 1.2),
        vatRate: 20,
      }], total);
      const ht = lines.reduce((s, l) => s + l.totalHT, 0);
      const tax = vat.reduce((s, v) => s + v.amount, 0);
      if (ht + tax !== total) throw new Error(`${total}: ${ht} + ${tax}`);
      if (Math.abs(tax - Math.round(ht * 0.2)) > 1) throw new Error(`${total}: VAT ${tax} on ${ht}`);
      for (const l of lines) {
        if (l.totalHT !== l.qty * l.unitPriceHT || l.qty <= 0) throw new Error(`${total}: line`);
      }
      if (lines.reduce((s, l) => s + l.qty, 0) !== qty) throw new Error(`${total}: quantity`);
    }
  }
});

Deno.test("splitByCent: a total not divisible by its quantity is two lines one cent apart", () => {
  assertEquals(
    splitByCent({ label: "x", qty: 3, unitPriceHT: 0, vatRate: 20, totalHT: 1001 }).map((
      l,
    ) => [l.qty, l.unitPriceHT]),
    [
      [2, 334],
      [1, 333],
    ],
  );
  assertEquals(
    splitByCent({ label: "x", qty: 4, unitPriceHT: 0, vatRate: 20, totalHT: 1000 }).map((
      l,
    ) => [l.qty, l.unitPriceHT]),
    [[4, 250]],
  );
});
