import { assertEquals } from "../../tests/support/assert.ts";
import { cityColumns } from "./chrome.ts";

Deno.test("cities are grouped in columns of 12", () => {
  const cities = Array.from({ length: 25 }, (_, i) => ({ slug: `c${i}`, name: `C${i}` }));
  const columns = cityColumns(cities);
  assertEquals(columns.map((c) => c.length), [12, 12, 1]);
  assertEquals(columns[1][0].slug, "c12");
  assertEquals(cityColumns([]), []);
});
