import { assert, assertEquals } from "../../tests/support/assert.ts";
const assertNotEquals = (a: unknown, b: unknown) => assert(a !== b, `${a} === ${b}`);
import {
  CODE_ALPHABET,
  formatCode,
  normalizeCode,
  sendDateError,
  VOUCHER_MESSAGES,
  voucherDiscount,
  voucherState,
} from "./rules.ts";
import { codeHash, generateCode, openCode, sealCode } from "./codes.ts";

Deno.test("codes: 16 characters of the unambiguous alphabet, 80 bits, all different", () => {
  const seen = new Set<string>();
  const counts = new Map<string, number>();
  for (let i = 0; i < 2000; i++) {
    const code = generateCode();
    assertEquals(code.length, 16);
    for (const ch of code) {
      assert(CODE_ALPHABET.includes(ch), ch);
      counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
    seen.add(code);
  }
  assertEquals(seen.size, 2000);
  // Every one of the 32 symbols appears: 5 bits a character, none wasted.
  assertEquals(counts.size, 32);
  for (const ch of "ILOU") assert(!counts.has(ch));
});

Deno.test("codes: typed loosely (lowercase, spaces, dashes, O for 0, I or L for 1) still match", async () => {
  const code = "0123456789ABCDEF";
  assertEquals(normalizeCode("o123-4567 89ab-cdef"), code);
  assertEquals(normalizeCode("Ol23456789abcdef"), code);
  assertEquals(formatCode(code), "0123-4567-89AB-CDEF");
  assertEquals(normalizeCode("0123-4567-89AB-CDE"), null);
  assertEquals(normalizeCode("0123-4567-89AB-CDEU"), null);
  assertEquals(await codeHash("o123-4567 89ab-cdef"), await codeHash(code));
  assertNotEquals(await codeHash(code), await codeHash("0123456789ABCDEG"));
});

Deno.test("codes: sealed for the app, opened only with its secret", async () => {
  const sealed = await sealCode("0123456789ABCDEF", "secret-one-secret-one-secret-one");
  assert(!sealed.includes("0123456789ABCDEF"));
  assertEquals(await openCode(sealed, "secret-one-secret-one-secret-one"), "0123456789ABCDEF");
  assertEquals(await openCode(sealed, "another-secret-another-secret-xx"), null);
  assertNotEquals(await sealCode("0123456789ABCDEF", "secret-one-secret-one-secret-one"), sealed);
});

Deno.test("discount: at most what is left and at most the amount", () => {
  assertEquals(voucherDiscount(5000, 3000), 3000);
  assertEquals(voucherDiscount(2000, 3000), 2000);
  assertEquals(voucherDiscount(0, 3000), 0);
});

Deno.test("send date: today up to a year ahead", () => {
  assertEquals(sendDateError("2026-11-27", "2026-11-27"), null);
  assertEquals(sendDateError("2026-11-26", "2026-11-27"), VOUCHER_MESSAGES.sendDatePast);
  assertEquals(sendDateError("2027-11-27", "2026-11-27"), null);
  assertEquals(sendDateError("2027-11-28", "2026-11-27"), VOUCHER_MESSAGES.sendDateTooFar);
  assertEquals(sendDateError("2026-02-30", "2026-01-01"), VOUCHER_MESSAGES.required);
});

Deno.test("state: active, used, expired", () => {
  assertEquals(voucherState({ status: "active", remaining: 10, validUntil: 200 }, 100).label, "Actif");
  assertEquals(voucherState({ status: "active", remaining: 0, validUntil: 200 }, 100).label, "Utilisé");
  assertEquals(voucherState({ status: "active", remaining: 10, validUntil: 50 }, 100).label, "Expiré");
  assertEquals(
    voucherState({ status: "pending", remaining: 10, validUntil: null }, 100).label,
    "En attente de paiement",
  );
});
