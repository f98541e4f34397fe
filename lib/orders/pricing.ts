// What a cart line becomes on an order, pure and in cents: its price (lib/sessions/rules.ts, spec §9)
// and its invoice lines HT, frozen on the order at checkout.
import type { DocumentLine } from "../billing/document.ts";
import { splitTTC } from "../billing/document.ts";
import { type DatePrice, formatDateTime, sessionPrice, unitPrice } from "../sessions/rules.ts";

/** Workshops are sold by the platform, VAT included at the standard rate (their price and travel cost
 * are TTC; additional costs carry their own rate). */
export const WORKSHOP_VAT_RATE = 20;

/** The invoice lines (HT) of `quantity` places of a date: the place and the travel cost at the
 * workshop's VAT, each additional cost at its own rate. */
export function registrationLines(
  label: string,
  price: DatePrice,
  quantity: number,
): Omit<DocumentLine, "totalHT">[] {
  const lines: Omit<DocumentLine, "totalHT">[] = [{
    label,
    qty: quantity,
    unitPriceHT: splitTTC(price.priceTTC, WORKSHOP_VAT_RATE).ht,
    vatRate: WORKSHOP_VAT_RATE,
  }];
  if (price.travelCostTTC > 0) {
    lines.push({
      label: "Frais de déplacement",
      qty: quantity,
      unitPriceHT: splitTTC(price.travelCostTTC, WORKSHOP_VAT_RATE).ht,
      vatRate: WORKSHOP_VAT_RATE,
    });
  }
  for (const cost of price.additionalCosts) {
    lines.push({ label: cost.title, qty: quantity, unitPriceHT: cost.ht, vatRate: cost.vat });
  }
  return lines;
}

/** "Atelier « Cocktails d'hiver » — Bordeaux, 12/12/2026 19:00". */
export function registrationLabel(title: string, city: string, dtstart: number): string {
  return `Atelier « ${title} » — ${city}, ${formatDateTime(dtstart)}`;
}

/** One cart line as the order keeps it (cents TTC; the invoice lines HT). */
export function orderLineOf(
  line: { lineId: string; title: string; city: string; dtstart: number; quantity: number; price: DatePrice },
) {
  const label = registrationLabel(line.title, line.city, line.dtstart);
  return {
    lineId: line.lineId,
    label,
    unitAmount: unitPrice(line.price),
    amount: sessionPrice(line.price, line.quantity),
    detail: registrationLines(label, line.price, line.quantity),
  };
}
