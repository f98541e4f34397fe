// An order's invoice lines priced from what was paid, pure and in cents: the lines HT add up, with the
// VAT per rate, to exactly the amount paid (no rounding amount, BT-114), so that a paid invoice states
// BT-113 = BT-112 as the reform's BR-FR-CO-09 asks of an invoice already paid (framework S2).
//
// Workshop places and travel costs are priced TTC (lib/orders/pricing.ts): each unit price rounded to
// the cent HT before VAT (67 € → 55,83 € HT) made 2 places 111,66 € HT + 22,33 € = 133,99 €. Here the HT
// of the main rate is found from the total paid (134 € → 111,67 € HT + 22,33 €), and a line whose HT is
// not a multiple of its quantity is stated as two lines at prices one cent apart (1 × 55,84 € and
// 1 × 55,83 €), so that every line is still quantity × unit price.
import { type DocumentLine, vatBreakdown, type VatLine } from "../billing/document.ts";

type Line = Omit<DocumentLine, "totalHT">;

/** `lines` (unit prices HT, rounded per unit) repriced so that HT + VAT per rate = `total`. When no HT of
 * the main rate reaches `total` (at 20 %, one TTC amount in six has no HT whose rounded VAT adds up to
 * it), that rate's VAT is stated as the total less the HT: one cent off the rounded product, within the
 * EN 16931 CII rule BR-CO-17's tolerance, and still no rounding amount. */
export function linesForTotal(lines: Line[], total: number): { lines: DocumentLine[]; vat: VatLine[] } {
  const priced = lines.map((l) => ({ ...l, totalHT: l.qty * l.unitPriceHT }));
  if (priced.length === 0) return { lines: [], vat: [] };
  const main = 0;
  const sum = (ls: DocumentLine[]) => {
    const vat = vatBreakdown(ls);
    return ls.reduce((s, l) => s + l.totalHT, 0) + vat.reduce((s, v) => s + v.amount, 0);
  };
  const withMain = (ht: number) => priced.map((l, i) => i === main ? { ...l, totalHT: ht } : l);
  const start = priced[main].totalHT;
  // The HT of the main line moves by the cent until the total is met (each cent HT moves it 1 to 2).
  const reach = Math.max(10, 2 * Math.abs(total - sum(priced)) + 5);
  let best = start;
  let found = false;
  for (let k = 0; k <= reach && !found; k++) {
    for (const ht of k === 0 ? [start] : [start + k, start - k]) {
      if (ht < 0) continue;
      const diff = total - sum(withMain(ht));
      if (diff === 0) {
        best = ht;
        found = true;
        break;
      }
      if (diff > 0 && diff <= 1 && !found) best = ht; // one cent short: the VAT takes it
    }
  }
  const out = withMain(best);
  const vat = vatBreakdown(out);
  const gap = total - sum(out);
  if (gap !== 0) {
    const v = vat.find((x) => x.rate === out[main].vatRate) ?? vat[0];
    v.amount += gap;
  }
  return { lines: out.flatMap(splitByCent), vat };
}

/** A line whose total is not quantity × one unit price: two lines at prices one cent apart. */
export function splitByCent(line: DocumentLine): DocumentLine[] {
  if (line.qty <= 1 || !Number.isInteger(line.qty) || line.totalHT % line.qty === 0) {
    return [{ ...line, unitPriceHT: line.qty > 0 ? line.totalHT / line.qty : line.unitPriceHT }];
  }
  const unit = Math.floor(line.totalHT / line.qty);
  const extra = line.totalHT - unit * line.qty; // 0 < extra < qty units at unit + 1
  return [
    { ...line, qty: extra, unitPriceHT: unit + 1, totalHT: extra * (unit + 1) },
    { ...line, qty: line.qty - extra, unitPriceHT: unit, totalHT: (line.qty - extra) * unit },
  ];
}
