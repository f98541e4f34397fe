import { assertEquals } from "../../tests/support/assert.ts";
import {
  cocktailCount,
  computeTotals,
  DEFAULT_PRICING,
  priceQuote,
  type PricingConfig,
  staffCount,
  TIER_GAP,
  TIER_NOT_ABOVE,
  tierError,
  validateCommissionTiers,
  validatePricing,
} from "./pricing.ts";

const grid = (changes: Partial<PricingConfig> = {}): PricingConfig => ({
  ...structuredClone(DEFAULT_PRICING),
  ...changes,
});

Deno.test("cocktails: max(min_cocktail, ⌈rate × guests × hours⌉)", () => {
  assertEquals(cocktailCount(grid(), 10, 120), 50, "the minimum wins for a small party");
  assertEquals(cocktailCount(grid(), 25, 120), 50, "exactly the minimum");
  assertEquals(cocktailCount(grid(), 26, 120), 52);
  assertEquals(cocktailCount(grid(), 100, 90), 150);
  const rate = grid({
    settings: [{ id: "min_cocktail", value: 0 }, { id: "nb_cocktail_per_h_per_person", value: 1.1 }, {
      id: "staff_capacity",
      value: 60,
    }],
  });
  assertEquals(cocktailCount(rate, 30, 90), 50, "1.1 × 30 × 1.5 = 49.5 → 50");
  assertEquals(cocktailCount(rate, 20, 90), 33, "1.1 × 20 × 1.5 = 33.000…04 as a float, still 33");
  const slow = grid({
    settings: [{ id: "min_cocktail", value: 0 }, { id: "nb_cocktail_per_h_per_person", value: 0.75 }, {
      id: "staff_capacity",
      value: 60,
    }],
  });
  assertEquals(cocktailCount(slow, 7, 60), 6, "0.75 × 7 = 5.25 → 6");
});

Deno.test("staff: the guests' tier at each boundary, plus more when cocktails per hour exceed capacity", () => {
  const g = grid();
  // Tiers 1-50: 1, 51-120: 2, 121-250: 3, 251+: 4; capacity 60 cocktails/h/barman.
  assertEquals(staffCount(g, 50, 50, 480), 1);
  assertEquals(staffCount(g, 51, 50, 480), 2);
  assertEquals(staffCount(g, 120, 50, 480), 2);
  assertEquals(staffCount(g, 121, 50, 480), 3);
  assertEquals(staffCount(g, 250, 50, 480), 3);
  assertEquals(staffCount(g, 251, 50, 480), 4);
  assertEquals(staffCount(g, 5000, 50, 480), 4, "beyond the last tier: the last tier");
  assertEquals(staffCount(g, 40, 60, 60), 1, "60 cocktails in one hour: one barman is enough");
  assertEquals(staffCount(g, 40, 61, 60), 2, "61 an hour exceeds one barman's capacity");
  assertEquals(staffCount(g, 40, 300, 120), 3, "150 an hour needs 3");
});

Deno.test("cocktail price tiers at their boundaries, by recipe type", () => {
  const request = { guests: 100, durationMinutes: 60, customRecipe: false, mobileBar: false, distanceKm: 0 };
  const price = (guests: number, recipeType: "signature" | "classic" | "mocktail") =>
    priceQuote(grid(), { ...request, guests, recipeType }).lines[0];
  assertEquals(price(100, "signature"), {
    label: "Cocktails signature",
    qty: 100,
    unitCost: 900,
    totalCost: 90000,
  });
  assertEquals(price(101, "signature").unitCost, 800);
  assertEquals(price(200, "classic").unitCost, 650);
  assertEquals(price(201, "classic").unitCost, 600);
  assertEquals(price(400, "mocktail").unitCost, 500);
  assertEquals(price(401, "mocktail").unitCost, 450);
});

Deno.test("duration tiers at their boundaries price each bartender", () => {
  const staffLine = (minutes: number) =>
    priceQuote(grid(), {
      guests: 20,
      durationMinutes: minutes,
      recipeType: "signature",
      customRecipe: false,
      mobileBar: false,
      distanceKm: 0,
    }).lines[1];
  assertEquals(staffLine(120), {
    label: "Bartender (2h00 de service)",
    qty: 1,
    unitCost: 18000,
    totalCost: 18000,
  });
  assertEquals(staffLine(180).unitCost, 28000);
  assertEquals(staffLine(240).unitCost, 28000);
  assertEquals(staffLine(300).unitCost, 38000);
  assertEquals(staffLine(360).unitCost, 38000);
  assertEquals(staffLine(420).unitCost, 48000);
  assertEquals(staffLine(600).label, "Bartender (+ de 8h00 de service)");
});

Deno.test("flat fees: travel per km, mobile bar, recipe creation", () => {
  const quote = priceQuote(grid(), {
    guests: 80,
    durationMinutes: 240,
    recipeType: "classic",
    customRecipe: true,
    mobileBar: true,
    distanceKm: 42.4,
  });
  assertEquals(quote.nbCocktails, 320);
  assertEquals(quote.staff, 2);
  assertEquals(quote.lines.map((l) => [l.label, l.qty, l.unitCost, l.totalCost]), [
    ["Cocktails classiques", 320, 600, 192000],
    ["Bartenders (4h00 de service)", 2, 28000, 56000],
    ["Frais de déplacement (42 km)", 42, 60, 2520],
    ["Bar mobile", 1, 15000, 15000],
    ["Création de recettes sur mesure", 1, 12000, 12000],
  ]);
});

Deno.test("totals: half the management fee billed, VAT 20 % or none, key indicators, to the cent", () => {
  const lines = [{ totalCost: 100001 }, { totalCost: 33333 }];
  const totals = computeTotals(lines, { vat: 20, commissionRate: 15 }, { guests: 70, nbCocktails: 137 });
  assertEquals(totals.totalCost, 133334);
  assertEquals(totals.managementFee, 20000, "15 % of 1 333,34 € = 200,0010 € → 200,00 €");
  assertEquals(totals.projectManagement, 10000);
  assertEquals(totals.totalInvoiceByPartner, 143334);
  assertEquals(totals.vatAmount, 28667, "20 % of 1 433,34 € = 286,668 € → 286,67 €");
  assertEquals(totals.totalTTC, 172001);
  assertEquals(totals.pricePerPerson, 2048, "1 433,34 € / 70 = 20,476 € → 20,48 €");
  assertEquals(totals.averageCocktailPrice, 1046, "1 433,34 € / 137 = 10,462 € → 10,46 €");
  assertEquals(totals.fixedCommission, 10000, "1 433,34 € falls in the 1 001-3 000 € tier");
  const exempt = computeTotals(lines, { vat: 0, commissionRate: 15 }, { guests: 70, nbCocktails: 137 });
  assertEquals([exempt.vatAmount, exempt.totalTTC], [0, 143334]);
  const odd = computeTotals([{ totalCost: 1 }], { vat: 20, commissionRate: 12.5 }, {
    guests: 0,
    nbCocktails: 0,
  });
  assertEquals([odd.managementFee, odd.projectManagement, odd.pricePerPerson], [0, 0, 0]);
  const half = computeTotals([{ totalCost: 10001 }], { vat: 20, commissionRate: 15 }, {
    guests: 1,
    nbCocktails: 1,
  });
  assertEquals([half.managementFee, half.projectManagement], [1500, 750]);
});

Deno.test("commission tiers at their boundaries", () => {
  const totals = (euros: number) =>
    computeTotals([{ totalCost: euros * 100 }], { vat: 20, commissionRate: 0 }, { guests: 1, nbCocktails: 1 })
      .fixedCommission;
  assertEquals(totals(1000), 5000);
  assertEquals(totals(1001), 10000);
  assertEquals(totals(3000), 10000);
  assertEquals(totals(3001), 15000);
});

Deno.test("grid validation: cocktail tiers first, then staff, then duration, with the spec's messages", () => {
  assertEquals(validatePricing(grid()), null);
  const badCocktail = grid();
  badCocktail.cocktailTiers[1] = { ...badCocktail.cocktailTiers[1], from: 150, to: 120 };
  badCocktail.staffTiers[0].count = -1;
  assertEquals(validatePricing(badCocktail), {
    message: tierError("cocktails", 2),
    section: "cocktailTiers",
    index: 1,
  });
  assertEquals(
    tierError("cocktails", 2),
    "Erreur dans la tranche de cocktails 2: Vérifiez que toutes les valeurs sont renseignées et que les tranches sont cohérentes.",
  );
  const negative = grid();
  negative.staffTiers[0].count = -1;
  assertEquals(validatePricing(negative)?.message, tierError("staff", 1));
  const overlap = grid();
  overlap.durationTiers[1].from = 100;
  assertEquals(validatePricing(overlap), { message: TIER_NOT_ABOVE, section: "durationTiers", index: 1 });
  const gap = grid();
  gap.durationTiers[1].from = 125;
  assertEquals(validatePricing(gap), { message: TIER_GAP, section: "durationTiers", index: 1 });
  const missing = grid();
  (missing.cocktailTiers[0] as unknown as Record<string, unknown>).classic = null;
  assertEquals(validatePricing(missing)?.index, 0);
  const threeDecimals = grid();
  threeDecimals.cocktailTiers[0].signature = 9.999;
  assertEquals(validatePricing(threeDecimals)?.section, "cocktailTiers");
  const newSpelling = grid({
    staffTiers: [{ fromGuests: 1, toGuests: 50, staffCount: 1 }, {
      fromGuests: 51,
      toGuests: 999,
      staffCount: 2,
    }],
  });
  assertEquals(
    validatePricing(newSpelling),
    null,
    "tiers made by the form spell their fields fromGuests/toGuests/staffCount",
  );
  assertEquals(staffCount(newSpelling, 60, 50, 480), 2);
  const noCapacity = grid({
    settings: [{ id: "min_cocktail", value: 50 }, { id: "nb_cocktail_per_h_per_person", value: 1 }, {
      id: "staff_capacity",
      value: 0,
    }],
  });
  assertEquals(validatePricing(noCapacity)?.section, "settings");
});

Deno.test("commission tier validation", () => {
  assertEquals(
    validateCommissionTiers([{ from: 0, to: 1000, cost: 50 }, { from: 1001, to: 5000, cost: 80 }]),
    null,
  );
  assertEquals(validateCommissionTiers([{ from: 0, to: 1000, cost: -1 }])?.message, tierError(null, 1));
  assertEquals(
    tierError(null, 1),
    "Erreur dans la tranche 1: Vérifiez que toutes les valeurs sont renseignées et que les tranches sont cohérentes.",
  );
  assertEquals(
    validateCommissionTiers([{ from: 0, to: 1000, cost: 5 }, { from: 1002, to: 2000, cost: 5 }])?.message,
    TIER_GAP,
  );
});
