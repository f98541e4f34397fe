import { assertEquals } from "../../tests/support/assert.ts";
import { mapIframe, parseMapEmbed } from "./map.ts";

const EMBED = "https://www.google.com/maps/embed?pb=!1m18!1m12!1m3!1d2624.99!2d2.29!3d48.85";

Deno.test("a Google Maps embed iframe or URL is accepted and kept as its URL", () => {
  assertEquals(
    parseMapEmbed(
      `<iframe src="${EMBED}" width="600" height="450" style="border:0;" allowfullscreen="" loading="lazy"></iframe>`,
    ),
    EMBED,
  );
  assertEquals(parseMapEmbed(` ${EMBED} `), EMBED);
  assertEquals(parseMapEmbed(`<iframe src='${EMBED.replaceAll("!", "!")}'></iframe>`), EMBED);
  assertEquals(parseMapEmbed(""), "");
});

Deno.test("anything else is refused", () => {
  for (
    const bad of [
      "<script>alert(1)</script>",
      `<iframe src="${EMBED}"></iframe><script>alert(1)</script>`,
      `<iframe src="${EMBED}" onload="alert(1)"></iframe><img src=x>`,
      `<iframe src="https://evil.example/maps/embed?pb=1"></iframe>`,
      `<iframe src="http://www.google.com/maps/embed?pb=1"></iframe>`,
      "https://www.google.com/maps/place/Paris",
      "https://www.google.com.evil.example/maps/embed?pb=1",
      "javascript:alert(1)",
      `<iframe src="javascript:alert(1)"></iframe>`,
      "https://user@www.google.com/maps/embed?pb=1",
      "https://www.google.com/maps/embed",
    ]
  ) {
    assertEquals(parseMapEmbed(bad), null, bad);
  }
});

Deno.test("the iframe is written by the server with the URL escaped", () => {
  const html = mapIframe('https://www.google.com/maps/embed?pb=1&q="x"');
  assertEquals(html.includes('src="https://www.google.com/maps/embed?pb=1&amp;q=&quot;x&quot;"'), true);
});
