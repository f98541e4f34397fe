import { assertEquals } from "../../tests/support/assert.ts";
import { richTextToPlain, sanitizeRichText } from "./sanitize.ts";

Deno.test("the editor's formatting survives", () => {
  const html =
    '<h2 style="text-align: center">Titre</h2><p class="intro" data-block="1"><strong>Gras</strong> <em>it</em> ' +
    '<span style="font-family: Permanent Marker; font-size: 24px; color: #d94f3d">stylé</span></p>' +
    '<ul><li>un</li></ul><a href="https://example.fr" target="_blank">lien</a>';
  const clean = sanitizeRichText(html);
  assertEquals(clean.includes('<h2 style="text-align:center">Titre</h2>'), true, clean);
  assertEquals(clean.includes('class="intro" data-block="1"'), true, clean);
  assertEquals(clean.includes("font-family:Permanent Marker;font-size:24px;color:#d94f3d"), true, clean);
  assertEquals(clean.includes('rel="noopener noreferrer nofollow"'), true, clean);
});

Deno.test("script, handlers, frames, javascript: URLs and dangerous CSS are removed", () => {
  const attacks: [string, RegExp][] = [
    ["<script>alert(1)</script><p>ok</p>", /script|alert/i],
    ['<img src=x onerror="alert(1)">', /onerror|alert/i],
    ['<a href="javascript:alert(1)">x</a>', /javascript/i],
    ['<a href="JaVaScRiPt:alert(1)">x</a>', /javascript/i],
    ['<a href="&#106;avascript:alert(1)">x</a>', /javascript|&#106;/i],
    ['<iframe src="https://evil.example"></iframe>', /iframe|evil/i],
    ['<p style="background-image: url(https://evil.example/x.png)">x</p>', /url\(|evil/i],
    ['<p style="position: fixed; inset: 0; z-index: 9999">x</p>', /position|z-index|inset/i],
    ['<p style="font-size: 900px">x</p>', /font-size/i],
    ['<p style="color: expression(alert(1))">x</p>', /expression|alert/i],
    ["<svg><script>alert(1)</script></svg>", /svg|script|alert/i],
    ['<form action="https://evil.example"><input name="x"></form>', /form|input/i],
    ["<style>body{display:none}</style>", /style|display/i],
    ['<img src="http://evil.example/x.png">', /http:/i],
    ['<img src="data:image/svg+xml;base64,PHN2Zz4=">', /data:/i],
    ['<p class="fixed inset-0 z-50 md:absolute">x</p>', /fixed|inset-0|z-50|absolute/],
    ['<math><mi xlink:href="javascript:alert(1)">x</mi></math>', /javascript|xlink/i],
    ['<p><a href="//evil.example">x</a></p>', /evil/],
  ];
  for (const [html, forbidden] of attacks) {
    const clean = sanitizeRichText(html);
    assertEquals(forbidden.test(clean), false, `${html} → ${clean}`);
  }
});

Deno.test("ids are prefixed so content cannot clobber the page's elements", () => {
  assertEquals(sanitizeRichText('<p id="drawer-folded">x</p>'), '<p id="rt-drawer-folded">x</p>');
});

Deno.test("plain text of a rich text", () => {
  assertEquals(richTextToPlain("<p>Bonjour <strong>vous</strong></p><p></p>"), "Bonjour vous");
});
