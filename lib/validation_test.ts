import { assert, assertEquals } from "../tests/support/assert.ts";
import {
  isSafeMultiLine,
  isSafeSingleLine,
  isStrictEmail,
  UNSAFE_TEXT_MESSAGE,
  unsafeTextErrors,
} from "./validation.ts";

Deno.test("single-line text refuses lone surrogates and every control character", () => {
  for (
    const bad of [
      "\ud800",
      "a\udc00",
      "\udc00\ud800",
      "a\r\nb",
      "a\nb",
      "a\rb",
      "\u0000",
      "a\tb",
      "\u007f",
      "\u0085",
      "\u009f",
    ]
  ) {
    assert(!isSafeSingleLine(bad), JSON.stringify(bad));
  }
  for (
    const good of ["Léa", "Zoë d'Arc", "🍸 Mojito", "Œuvre « n° 1 » – 5 €", "\u00a0espace insécable", ""]
  ) {
    assert(isSafeSingleLine(good), good);
  }
});

Deno.test("multi-line text keeps line breaks and tabs, nothing else", () => {
  assert(isSafeMultiLine("Ligne 1\r\nLigne 2\n\tfin"));
  for (const bad of ["\u0000", "a\u0008", "\u000b", "\u000c", "\u001b[31m", "\ud800", "\u007f"]) {
    assert(!isSafeMultiLine(bad), JSON.stringify(bad));
  }
});

Deno.test("strict emails: a plain address, nothing around it", () => {
  for (const good of ["a@b.fr", "prenom.nom+tag@sous.domaine-x.example", "o'neil@example.com"]) {
    assert(isStrictEmail(good), good);
  }
  for (
    const bad of [
      "victim-x@evil.example>,<foo",
      "a@b",
      "a@b.fr\r\nBcc: c@d.fr",
      '"quoted"@example.fr',
      "a..b@example.fr",
      "a@-b.fr",
      "a b@example.fr",
      "<a@b.fr>",
      "a@b.fr,c@d.fr",
      `${"a".repeat(250)}@b.fr`,
    ]
  ) {
    assert(!isStrictEmail(bad), bad);
  }
});

Deno.test("unsafeTextErrors: top-level strings are single-line unless named, nested ones multi-line", () => {
  assertEquals(
    unsafeTextErrors({ name: "a\nb", description: "a\nb", lines: [{ label: "x\ny" }], bad: ["\u0000"] }, [
      "description",
    ]),
    { name: UNSAFE_TEXT_MESSAGE, bad: UNSAFE_TEXT_MESSAGE },
  );
  assertEquals(unsafeTextErrors({ n: 1, ok: true, none: null }), {});
});
