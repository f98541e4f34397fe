import { assertEquals } from "../../tests/support/assert.ts";
import {
  cartLimitMessage,
  clampQuantity,
  cooldownMessage,
  dateLimitMessage,
  type DateOffer,
  dateState,
  firstDates,
  formatCountdown,
  formatDateTime,
  offerPrice,
  PAGE_DATES,
  placesLabel,
  priceToOffer,
  quantityMessage,
  REGISTRATION_STATUSES,
  registrationActions,
  sessionPrice,
  shareUrl,
  unitPrice,
} from "./rules.ts";

Deno.test("session price (§9): price + travel + each extra with its VAT rounded to the cent, times the quantity", () => {
  const date = {
    priceTTC: 4500,
    travelCostTTC: 500,
    additionalCosts: [{ title: "Kit", ht: 1000, vat: 20 }, { title: "Verre", ht: 333, vat: 5.5 }],
  };
  // 333 × 1.055 = 351.315 → 351 cents.
  assertEquals(unitPrice(date), 4500 + 500 + 1200 + 351);
  assertEquals(sessionPrice(date, 3), 3 * 6551);
  assertEquals(sessionPrice({ priceTTC: 3900, travelCostTTC: 0, additionalCosts: [] }, 1), 3900);
  // Half a cent rounds up (half away from zero): 5 × 1.1 = 5.5 → 6.
  assertEquals(
    unitPrice({ priceTTC: 0, travelCostTTC: 0, additionalCosts: [{ title: "x", ht: 5, vat: 10 }] }),
    6,
  );
});

Deno.test("offers carry euros that read back to the same cents, so the island's price is the server's", () => {
  const price = { priceTTC: 4990, travelCostTTC: 1, additionalCosts: [{ title: "Kit", ht: 1999, vat: 20 }] };
  assertEquals(offerPrice(priceToOffer(price)), price);
  assertEquals(priceToOffer(price).priceTTC, 49.9);
});

Deno.test("quantity (§5): at least 1, at most the places left, blocked on soon and full dates", () => {
  assertEquals(clampQuantity(0, 5, false), 1);
  assertEquals(clampQuantity(9, 5, false), 5);
  assertEquals(clampQuantity(3, 5, false), 3);
  assertEquals(clampQuantity(3, 5, true), 1);
  assertEquals(clampQuantity(3, 0, false), 1);
  assertEquals(clampQuantity(Number.NaN, 5, false), 1);
  assertEquals(quantityMessage(3), "Veuillez choisir entre 1 et 3 places.");
  assertEquals(quantityMessage(1), "Il ne reste qu'une place : veuillez choisir 1 place.");
});

Deno.test("date states (§4) and places labels (§2)", () => {
  assertEquals(dateState({ soon: true, places: 0 }), "soon");
  assertEquals(dateState({ soon: false, places: 0 }), "full");
  assertEquals(dateState({ soon: false, places: 2 }), "open");
  assertEquals(placesLabel(1), "1 place restante");
  assertEquals(placesLabel(0), "0 place restante");
  assertEquals(placesLabel(2), "2 places restantes");
});

Deno.test("registration statuses (§4): labels, colours and the actions each row offers", () => {
  assertEquals(REGISTRATION_STATUSES.pending, { label: "En attente", color: "warning" });
  assertEquals(REGISTRATION_STATUSES.invoiced, { label: "Facturé", color: "success" });
  assertEquals(REGISTRATION_STATUSES.canceled, { label: "Annulé", color: "error" });
  assertEquals(registrationActions("pending"), {
    invoice: false,
    receipt: true,
    share: true,
    creditNote: false,
  });
  assertEquals(registrationActions("invoiced"), {
    invoice: true,
    receipt: true,
    share: false,
    creditNote: false,
  });
  // A canceled row offers its credit note, and still the invoice and receipt it corrects (when they
  // were issued: the page checks that).
  assertEquals(registrationActions("canceled"), {
    invoice: true,
    receipt: true,
    share: false,
    creditNote: true,
  });
});

Deno.test("share links, Paris dates and countdowns", () => {
  assertEquals(
    shareUrl("https://x.fr", "atelier", 1800000000),
    "https://x.fr/session/atelier?date=1800000000",
  );
  assertEquals(formatDateTime(Date.UTC(2026, 11, 5, 18, 0) / 1000), "05/12/2026 19:00");
  assertEquals(formatDateTime(Date.UTC(2026, 6, 5, 17, 30) / 1000), "05/07/2026 19:30");
  assertEquals(formatCountdown(1199), "19:59");
  assertEquals(formatCountdown(-4), "0:00");
});

Deno.test("the page shows the next PAGE_DATES dates, and the selected one even when later", () => {
  const offer = (i: number) => ({ uuid: `u${i}`, selected: i === 100 }) as unknown as DateOffer;
  const all = Array.from({ length: 120 }, (_, i) => offer(i));
  const { shown, more } = firstDates(all);
  assertEquals(shown.length, PAGE_DATES + 1);
  assertEquals(shown[PAGE_DATES].uuid, "u100");
  assertEquals(more, true);
  assertEquals(firstDates(all.slice(0, 10)), { shown: all.slice(0, 10), more: false });
});

Deno.test("the seat limits' messages say the limit and what the cart holds", () => {
  assertEquals(dateLimitMessage(10, 0), "Vous pouvez réserver 10 places au plus pour cette date.");
  assertEquals(
    dateLimitMessage(1, 1),
    "Vous pouvez réserver 1 place au plus pour cette date (vous en avez déjà 1 dans votre panier).",
  );
  assertEquals(
    cartLimitMessage(20, 18),
    "Votre panier peut garder 20 places au plus, toutes dates confondues (il en a déjà 18).",
  );
  assertEquals(
    cooldownMessage(14.7),
    "Votre réservation de cette date a expiré : vous pourrez la réserver de nouveau dans 15 minutes.",
  );
  assertEquals(
    cooldownMessage(0.2),
    "Votre réservation de cette date a expiré : vous pourrez la réserver de nouveau dans 1 minute.",
  );
});
