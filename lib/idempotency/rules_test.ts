import { assert, assertEquals } from "../../tests/support/assert.ts";
import { isValidKey, KEY_MAX_LENGTH, newIdempotencyKey } from "./rules.ts";

Deno.test("idempotency keys: 1 to 255 printable ASCII characters", () => {
  for (const good of ["a", "k".repeat(KEY_MAX_LENGTH), crypto.randomUUID(), "order 42 / essai ~!"]) {
    assert(isValidKey(good), good);
  }
  for (const bad of ["", "k".repeat(KEY_MAX_LENGTH + 1), "clé", "a\tb", "a\nb", "\u0000", "emoji 🍸"]) {
    assert(!isValidKey(bad), JSON.stringify(bad));
  }
});

Deno.test("idempotency keys: a new key per submission", () => {
  const keys = new Set(Array.from({ length: 50 }, newIdempotencyKey));
  assertEquals(keys.size, 50);
  for (const key of keys) assert(isValidKey(key));
});
