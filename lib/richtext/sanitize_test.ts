import { assert, assertEquals } from "../../tests/support/assert.ts";
import { cleanStoredRichText, richTextToPlain, sanitizeRichText } from "./sanitize.ts";

Deno.test("the editor's formatting survives", () => {
  const html =
    '<h2 style="text-align: center">Titre</h2><p class="intro" data-block="1"><strong>Gras</strong> <em>it</em> ' +
    '<span style="font-family: Permanent Marker; font-size: 24px; color: #d94f3d">stylé</span></p>' +
    '<ul><li>un</li></ul><a href="https://example.fr" target="_blank">lien</a>';
  const clean = sanitizeRichText(html);
  assertEquals(clean.includes('<h2 style="text-align:center">Titre</h2>'), true, clean);
  assertEquals(clean.includes('class="rt-intro" data-block="1"'), true, clean);
  assertEquals(clean.includes("font-family:Permanent Marker;font-size:24px;color:#d94f3d"), true, clean);
  assertEquals(clean.includes('rel="noopener noreferrer nofollow"'), true, clean);
});

Deno.test("sanitising is a fixpoint: what is stored reads back the same when sanitised again", () => {
  const html = '<p style="margin: 0 auto; padding: 8px 12px; line-height: 1.5" class="a b" id="x">' +
    '<span style="font-size: 24px; color: rgb(10, 20, 30)">t</span></p>' +
    '<img src="/media/deals/12/0f3c2a1b-aaaa.jpg" alt="photo" width="320">' +
    '<a href="mailto:bar@exemple.fr">m</a> <a href="http://exemple.fr/a?b=1&amp;c=2">h</a>';
  const once = sanitizeRichText(html);
  assertEquals(sanitizeRichText(once), once);
  assertEquals(cleanStoredRichText(once), once);
  assert(once.includes("margin:0 auto;padding:8px 12px;line-height:1.5"), once);
  assert(once.includes('class="rt-a rt-b" id="rt-x"'), once);
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
    ['<p class="fixed inset-0 z-50 md:absolute">x</p>', /["\s](fixed|inset-0|z-50|md:absolute)[\s"]/],
    ['<math><mi xlink:href="javascript:alert(1)">x</mi></math>', /javascript|xlink/i],
    ['<p><a href="//evil.example">x</a></p>', /evil/],
  ];
  for (const [html, forbidden] of attacks) {
    const clean = sanitizeRichText(html);
    assertEquals(forbidden.test(clean), false, `${html} → ${clean}`);
  }
});

/** The declarations of every style attribute in `html`. */
function declarations(html: string): string[] {
  return [...html.matchAll(/style="([^"]*)"/g)].flatMap((m) => m[1].split(";").filter(Boolean));
}

Deno.test("no negative margin or padding, in any unit, shorthand or calc()", () => {
  for (
    const style of [
      "margin-top:-460px",
      "margin-top: -460PX",
      "margin-top:-460px !important",
      "margin-top: -.5em",
      "margin-left:-20%",
      "margin-right:-3rem",
      "margin-bottom:-1vh",
      "margin:-10px",
      "margin: 0 -5px",
      "margin: 0 0 0 -5px",
      "margin-top: calc(-100vh)",
      "margin-top: calc(0px - 460px)",
      "margin-top: -webkit-calc(-100vh)",
      "margin-top: min(-460px, 0px)",
      "margin-top: var(--x)",
      "margin-top: \\2d 460px",
      "margin-top: - 460px",
      "margin-block-start:-460px",
      "margin-inline:-40px",
      "padding-left:-4px",
      "padding: 0 -4px",
      "padding-top: -1em",
    ]
  ) {
    const clean = sanitizeRichText(`<div style="${style}">AVIS</div>`);
    assertEquals(declarations(clean), [], `${style} → ${clean}`);
    assertEquals(clean, "<div>AVIS</div>", style);
  }
  // Positive spacing the way pasted text carries it stays.
  assertEquals(
    declarations(sanitizeRichText('<p style="margin-top: 12px; margin: 0 auto 1em; padding: 4px 8px">x</p>')),
    ["margin-top:12px", "margin:0 auto 1em", "padding:4px 8px"],
  );
});

Deno.test("no positioning, stacking, transforms or offsets", () => {
  for (
    const style of [
      "position:absolute",
      "position: fixed",
      "position:relative",
      "position:sticky",
      "z-index:9999",
      "transform: translateY(-460px)",
      "translate: 0 -460px",
      "rotate: 180deg",
      "scale: 20",
      "inset:0",
      "inset-block-start: 0",
      "top:-460px",
      "left:0",
      "right:0",
      "bottom:0",
      "float:left",
      "display:none",
      "opacity:0",
      "visibility:hidden",
      "overflow:hidden",
      "clip-path: inset(0)",
      "pointer-events:none",
      "content: 'x'",
      "zoom: 20",
    ]
  ) {
    const clean = sanitizeRichText(`<div style="${style}">x</div>`);
    assertEquals(declarations(clean), [], `${style} → ${clean}`);
  }
});

Deno.test("no url(), expression() or @import in styles", () => {
  for (
    const style of [
      "background: url(https://evil.example/x.png)",
      "background-image: url(/logout)",
      "background-color: url(/logout)",
      "list-style-image: url(/logout)",
      "list-style-type: url(/logout)",
      "color: expression(alert(1))",
      "color: red; @import url(/logout)",
      "font-family: Arial; @import 'https://evil.example/x.css'",
      "font-family: url(/logout)",
      "cursor: url(/logout), auto",
      "border-image: url(/logout)",
      "color: \\75 rl(/logout)",
    ]
  ) {
    const clean = sanitizeRichText(`<p style="${style}">x</p>`);
    assert(!/url|expression|@import|logout|evil/i.test(clean), `${style} → ${clean}`);
  }
});

Deno.test("no sizes that could cover the page", () => {
  for (
    const style of [
      "width: 5000px",
      "width: 200%",
      "width: 100vw",
      "height: 9999px",
      "height: 100vh",
      "height: 300em",
      "min-height: 100vh",
      "font-size: 900px",
      "line-height: 40",
      "line-height: 900px",
      "margin-top: 3000px",
      "padding-bottom: 5000px",
      "margin: 0 0 90em",
    ]
  ) {
    const clean = sanitizeRichText(`<div style="${style}">x</div>`);
    assertEquals(declarations(clean), [], `${style} → ${clean}`);
  }
  for (const style of ["width:50%", "width:320px", "height:200px", "line-height:1.4", "font-size:180px"]) {
    assertEquals(declarations(sanitizeRichText(`<div style="${style}">x</div>`)), [style]);
  }
  const img = sanitizeRichText('<img src="/media/deals/1/a.jpg" width="99999" height="50000">');
  assertEquals(img, '<img src="/media/deals/1/a.jpg" />');
});

Deno.test("images only from the app's own media", () => {
  for (
    const src of [
      "/media/deals/12/0f3c2a1b-aaaa.jpg",
      "/media/deals/12/thumbs/0f3c2a1b-aaaa.webp",
    ]
  ) {
    assertEquals(sanitizeRichText(`<img src="${src}" alt="Bar">`), `<img src="${src}" alt="Bar" />`);
  }
  for (
    const src of [
      "/logout",
      "/admin/switch-back",
      "/LOGOUT",
      "&#47;logout",
      "//evil.example/x.png",
      "\\\\evil.example/x.png",
      "/\\evil.example/x.png",
      "https://evil.example/x.png",
      "http://evil.example/x.png",
      "https://localhost:8000/logout",
      "data:image/png;base64,iVBORw0KGgo=",
      "javascript:alert(1)",
      "/media/../logout",
      "/media/deals/../../logout",
      "/media/deals/%2e%2e/%2e%2e/logout",
      "/media/deals\\..\\..\\logout",
      "/media/deals/1/x.jpg?next=/logout",
      "/media/deals/1/x.jpg#x",
      "/media//logout",
      "/media/",
      "/MEDIA/deals/1/x.jpg",
      " /logout",
      "/media/deals/1/x.jpg\t/../../../logout",
      "/api/user/get",
      "logout",
      "",
    ]
  ) {
    const clean = sanitizeRichText(`<p>avant<img src="${src}" alt="x">après</p>`);
    assertEquals(clean, "<p>avantaprès</p>", `${src} → ${clean}`);
  }
  // srcset and other URL attributes are never kept, even beside an own image.
  assertEquals(
    sanitizeRichText('<img src="/media/deals/1/a.jpg" srcset="/logout 1x" longdesc="/logout">'),
    '<img src="/media/deals/1/a.jpg" />',
  );
  assertEquals(sanitizeRichText('<img alt="sans source">'), "");
});

Deno.test("links: http, https and mailto only, never followed, never with the opener", () => {
  const kept = [
    "https://exemple.fr/bar?x=1&amp;y=2",
    "http://exemple.fr",
    "mailto:bar@exemple.fr",
    "HTTPS://EXEMPLE.FR",
  ];
  for (const href of kept) {
    assertEquals(
      sanitizeRichText(`<a href="${href}" target="_top" rel="opener">lien</a>`),
      `<a href="${href}" rel="noopener noreferrer nofollow">lien</a>`,
    );
  }
  assertEquals(
    sanitizeRichText('<a href="https://exemple.fr" target="_blank">lien</a>'),
    '<a href="https://exemple.fr" target="_blank" rel="noopener noreferrer nofollow">lien</a>',
  );
  for (
    const href of [
      "/logout",
      "//evil.example",
      "/\\evil.example",
      "#rt-x",
      "?logout",
      "logout",
      "javascript:alert(1)",
      "data:text/html,x",
      "tel:+33612345678",
      "ftp://exemple.fr",
      "https:/evil.example",
      "https:evil.example",
    ]
  ) {
    assertEquals(sanitizeRichText(`<a href="${href}">lien</a>`), "<a>lien</a>", href);
  }
});

Deno.test("no attribute the app's own scripts read (islands), classes and ids in their own namespace", () => {
  const clean = sanitizeRichText(
    `<div data-island="CustomerPayments" data-props='{"amount":1}' data-testid="pay-button" data-x="1" ` +
      `class="-mt-96 h-screen w-screen bg-white sr-only" id="main">x</div>`,
  );
  assertEquals(
    clean,
    '<div data-x="1" class="rt--mt-96 rt-h-screen rt-w-screen rt-bg-white rt-sr-only" id="rt-main">x</div>',
  );
  assertEquals(sanitizeRichText('<p class="rt-a">x</p>'), '<p class="rt-a">x</p>');
});

Deno.test("the reported attack: a white block pulled over the quote and a logout image", () => {
  const attack =
    `<p>Notre offre</p><div style="margin-top:-460px;background-color:#ffffff;position:absolute;` +
    `top:0;left:0;width:100%;height:2000px;z-index:9999;transform:translateY(-100px)">` +
    `<h1>AVIS IMPORTANT</h1><p>Réglez sur l'IBAN FR76 3000 6000 0112 3456 7890 189</p></div>` +
    `<img src="/logout"><img src="/admin/switch-back">`;
  const clean = sanitizeRichText(attack);
  assertEquals(
    clean,
    '<p>Notre offre</p><div style="background-color:#ffffff;width:100%">' +
      "<h1>AVIS IMPORTANT</h1><p>Réglez sur l'IBAN FR76 3000 6000 0112 3456 7890 189</p></div>",
  );
});

Deno.test("stored rich text is sanitised again when read (content saved before a rule existed)", () => {
  const stored = '<div style="margin-top:-460px;position:absolute">x</div><img src="/logout" />';
  assertEquals(cleanStoredRichText(stored), "<div>x</div>");
  assertEquals(cleanStoredRichText(stored), "<div>x</div>", "the remembered answer is the same");
  assertEquals(cleanStoredRichText(""), "");
});

Deno.test("ids are prefixed so content cannot clobber the page's elements", () => {
  assertEquals(sanitizeRichText('<p id="drawer-folded">x</p>'), '<p id="rt-drawer-folded">x</p>');
});

Deno.test("plain text of a rich text", () => {
  assertEquals(richTextToPlain("<p>Bonjour <strong>vous</strong></p><p></p>"), "Bonjour vous");
});
