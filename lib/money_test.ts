import { assertEquals } from "../tests/support/assert.ts";
import { centsToEuros, eurosToCents, formatEuros, percentOf, roundHalfUp, withVat } from "./money.ts";

Deno.test("euros convert to cents exactly, from numbers and French text", () => {
  assertEquals(eurosToCents(123.45), 12345);
  assertEquals(eurosToCents(0.1), 10);
  assertEquals(eurosToCents(0.29), 29, "0.29 * 100 is 28.999… as a float");
  assertEquals(eurosToCents(1.005), null, "three decimals are refused");
  assertEquals(eurosToCents("1 234,5"), 123450);
  assertEquals(eurosToCents("1\u202f234,50"), 123450);
  assertEquals(eurosToCents("-3"), -300);
  assertEquals(eurosToCents("abc"), null);
  assertEquals(eurosToCents(1e21), null);
  assertEquals(eurosToCents(Number.NaN), null);
  assertEquals(eurosToCents(null), null);
  assertEquals(centsToEuros(12345), 123.45);
  assertEquals(eurosToCents(centsToEuros(99999999)), 99999999);
});

Deno.test("rounding is half away from zero, to the cent", () => {
  assertEquals(roundHalfUp(2.5), 3);
  assertEquals(roundHalfUp(-2.5), -3);
  assertEquals(percentOf(1005, 2000), 201, "20 % of 10,05 € is 2,01 €");
  assertEquals(percentOf(1, 5000), 1, "half a cent rounds up");
  assertEquals(percentOf(333, 1250), 42);
  assertEquals(withVat(1005, 20), 1206, "10,05 € HT at 20 % is 12,06 € TTC");
});

Deno.test("amounts are shown the French way", () => {
  assertEquals(formatEuros(123450), "1\u202f234,50\u00a0€");
});
