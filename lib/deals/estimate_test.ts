import { assertEquals } from "../../tests/support/assert.ts";
import { estimateFromJson, estimateToJson, type RequestEstimate } from "./estimate.ts";

const estimate: RequestEstimate = {
  nbCocktails: 180,
  staff: 2,
  totalHT: 113950,
  projectManagement: 4350,
  vatAmount: 22790,
  totalTTC: 136740,
  pricePerPerson: 1899,
  lines: [
    { label: "Cocktails signature", qty: 180, unitCost: 435, totalCost: 78300 },
    { label: "Bartenders", qty: 2, unitCost: 15650, totalCost: 31300 },
  ],
};

Deno.test("estimate: cents to the API's euros and back, exactly, quantities untouched", () => {
  const json = estimateToJson(estimate);
  assertEquals(json.totalHT, 1139.5);
  assertEquals(json.lines[0].unitCost, 4.35);
  assertEquals(json.lines[0].qty, 180, "quantities are not amounts");
  assertEquals(json.nbCocktails, 180);
  assertEquals(estimateFromJson(JSON.parse(JSON.stringify(json))), estimate);
});
