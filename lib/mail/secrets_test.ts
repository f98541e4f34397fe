import { assert, assertEquals, assertRejects } from "../../tests/support/assert.ts";
import { bodiesToSend, MASKED_SECRET, sealSecrets } from "./secrets.ts";

const SECRET = "a-test-secret-of-at-least-32-characters!";

Deno.test("an email's secrets are masked in its stored bodies and sealed for delivery", async () => {
  const link = "https://example.fr/reset-password/abc_DEF-123?x=1&y=2";
  const email = {
    to: "a@b.fr",
    template: "password-reset",
    subject: "Lien",
    text: `Bonjour,\n${link}\nCode : ABCD-EFGH`,
    html: `<a href="${link.replaceAll("&", "&amp;")}">Choisir</a> ABCD-EFGH`,
  };
  const sealed = await sealSecrets(email, [link, "ABCD-EFGH"], SECRET);
  assert(!sealed.text.includes("abc_DEF") && !sealed.text.includes("ABCD-EFGH"), sealed.text);
  assert(!sealed.html!.includes("abc_DEF") && !sealed.html!.includes("ABCD-EFGH"), sealed.html);
  assert(sealed.text.includes(MASKED_SECRET));
  assert(sealed.sealed && !sealed.sealed.includes("abc_DEF"));
  assertEquals(await bodiesToSend({ text: sealed.text, html: sealed.html!, sealed: sealed.sealed }, SECRET), {
    text: email.text,
    html: email.html,
  });
  // Under another APP_SECRET the email cannot be sent as written.
  await assertRejects(() =>
    bodiesToSend(
      { text: sealed.text, html: null, sealed: sealed.sealed },
      "another-secret-of-32-characters-xx",
    )
  );
  // Without secrets nothing changes.
  assertEquals(await sealSecrets(email, [], SECRET), email);
  assertEquals(await bodiesToSend({ text: "t", html: null, sealed: null }, SECRET), {
    text: "t",
    html: null,
  });
});
