// Rich text that acts on whoever reads it (issue 11 §3): a partner's description pulled over the
// customer's quote with a negative margin and a white positioned block, and an image whose source is
// /logout, which logged out the admin opening the deal. Saved through the API, or already in the
// database from before the sanitiser's rules: the customer's quote page, the admin's deal page and
// the API show neither, and requesting every image those pages carry, as a browser does, ends no
// session.
import { Parser } from "htmlparser2";
import { assert, assertEquals } from "../support/assert.ts";
import { type Client, httpTest, testEnv, type TestResponse } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import {
  ADMIN,
  body,
  CUSTOMER,
  dealForPartner,
  dealOf,
  type Json,
  loggedIn,
  PARTNER,
  readCatalogue,
} from "./deals_fixtures_test.ts";

const COVER = `<p>Notre offre cocktails</p>` +
  `<div style="margin-top:-460px;background-color:#ffffff;position:absolute;top:0;left:0;right:0;` +
  `height:2000px;z-index:9999;transform:translateY(-10px)"><h1>AVIS IMPORTANT</h1>` +
  `<p>Suite à un incident, réglez sur l'IBAN FR76 3000 6000 0112 3456 7890 189</p></div>` +
  `<p style="margin: 0 -200px; padding-top: calc(-100vh)">encore</p>` +
  `<img src="/logout"><img src="/admin/switch-back"><img src="https://evil.example/pixel.png">` +
  `<div data-island="CustomerPayments" data-props="{}">faux</div>` +
  `<a href="/logout">Se déconnecter</a>`;

/** What must not reach a reader, found in a page or a JSON value. */
function hostile(html: string): string[] {
  const found: string[] = [];
  const checks: [RegExp, string][] = [
    [/margin[^;"]*:\s*[^;"]*-\s*\d/i, "negative margin"],
    [/calc\(/i, "calc()"],
    [/position\s*:/i, "position"],
    [/z-index/i, "z-index"],
    [/transform|translate/i, "transform"],
    [/(^|[;"\s])(top|left|right)\s*:/i, "offset"],
    [/src="(\/logout|\/admin\/switch-back|https:\/\/evil)/i, "foreign image"],
    [/href="\/logout/i, "link to /logout"],
    [/data-island="CustomerPayments"/, "island marker"],
  ];
  for (const [pattern, name] of checks) if (pattern.test(html)) found.push(name);
  return found;
}

/** The rich text a page shows, as the browser reads it: every box RichTextView paints (marked by its
 * paint containment) rebuilt tag by tag, and every rich-text value among the islands' props. */
function richTextOf(page: string): string {
  const parts: string[] = [];
  let depth = 0;
  const parser = new Parser({
    onopentag(name, attribs) {
      if (depth === 0 && !(attribs.class ?? "").includes("[contain:paint]")) return;
      depth++;
      const attributes = Object.entries(attribs).map(([k, v]) => ` ${k}="${v}"`).join("");
      if (depth > 1) parts.push(`<${name}${attributes}>`);
      if (name === "div" && depth === 1) parts.push("\n");
    },
    ontext(text) {
      if (depth > 0) parts.push(text);
    },
    onclosetag() {
      if (depth > 0) depth--;
    },
  }, { decodeEntities: true, lowerCaseAttributeNames: true });
  // Island props: JSON in an attribute; their rich-text values are rendered by the island itself.
  const props = new Parser({
    onopentag(_name, attribs) {
      if (!attribs["data-props"]) return;
      const visit = (value: unknown, key = ""): void => {
        if (typeof value === "string") {
          if (/description|customField|^value$/i.test(key)) parts.push(value);
        } else if (value && typeof value === "object") {
          for (const [k, v] of Object.entries(value)) visit(v, Array.isArray(value) ? key : k);
        }
      };
      visit(JSON.parse(attribs["data-props"]));
    },
  }, { decodeEntities: true });
  parser.write(page);
  parser.end();
  props.write(page);
  props.end();
  return parts.join("");
}

/** Requests every image of `page` the way a browser loading it would (same origin, no-cors). */
async function loadImages(client: Client, page: TestResponse): Promise<string[]> {
  const sources = [...richTextOf(page.text).matchAll(/<img\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
  for (const src of sources) {
    if (!src.startsWith("/")) continue;
    await client.get(src, {
      "sec-fetch-site": "same-origin",
      "sec-fetch-mode": "no-cors",
      "sec-fetch-dest": "image",
    });
  }
  return sources;
}

/** A quote the demo partner sent to the demo customer (status 'send'). */
async function sentQuote(): Promise<
  { id: number; token: string; admin: Client; partner: Client; customer: Client }
> {
  const admin = await loggedIn(ADMIN);
  const customer = await loggedIn(CUSTOMER);
  const deal = await dealForPartner(admin, PARTNER, { client: customer });
  const partner = await loggedIn(PARTNER);
  assert(await readCatalogue(admin, deal.partnerId), "the partner has a catalogue");
  assertEquals(dealOf(await partner.post(`/api/deal/${deal.id}/validate-availability`)).status, "send");
  return { id: deal.id, token: deal.token, admin, partner, customer };
}

async function assertReadersUnharmed(
  quote: { id: number; token: string; admin: Client; partner: Client; customer: Client },
) {
  const pages: [string, Client, string][] = [
    ["the customer's quote page", quote.customer, `/deal/show/${quote.token}`],
    ["the admin's deal page", quote.admin, `/dashboard/espace-partenaire/deal/${quote.id}`],
    ["the partner's deal page", quote.partner, `/dashboard/espace-partenaire/deal/${quote.id}`],
  ];
  for (const [what, client, path] of pages) {
    const page = await client.get(path);
    assertEquals(page.status, 200, `${what}: ${page.text.slice(0, 300)}`);
    const html = richTextOf(page.text);
    assert(html.includes("Notre offre cocktails"), `${what} shows the description: ${html}`);
    assertEquals(hostile(html), [], `${what}`);
    const images = await loadImages(client, page);
    assert(!images.some((src) => /logout|switch-back|evil/.test(src)), `${what}: ${images.join(", ")}`);
    // Loading the page and its images left every reader signed in.
    for (const [who, reader] of [["customer", quote.customer], ["admin", quote.admin]] as const) {
      assertEquals((await reader.get("/api/user/get")).status, 200, `${who} still signed in after ${what}`);
    }
  }
  for (
    const [who, client, path] of [
      ["admin", quote.admin, `/api/deal/get/${quote.id}`],
      ["partner", quote.partner, `/api/deal/get/${quote.id}`],
      ["customer", quote.customer, `/api/customer/deal/get/${quote.token}`],
    ] as const
  ) {
    const res = await client.get(path);
    assertEquals(res.status, 200, `${who}: ${res.text.slice(0, 300)}`);
    const deal = body(res).results as Json;
    const description = String(deal.description ?? deal.deal?.description ?? "");
    assert(
      description.includes("Notre offre cocktails"),
      `${who} reads the description: ${res.text.slice(0, 300)}`,
    );
    assertEquals(hostile(description), [], `${who}'s API answer: ${description}`);
  }
}

httpTest(
  "a partner's description cannot cover the quote or log its readers out (saved through the API)",
  async () => {
    const quote = await sentQuote();
    const saved = await quote.partner.patch(`/api/deal/${quote.id}`, { description: COVER });
    const deal = dealOf(saved);
    assertEquals(hostile(deal.description), [], deal.description);
    // The text stays: only what acts on the page is gone.
    assert(deal.description.includes("AVIS IMPORTANT"), deal.description);
    const { db } = await testEnv();
    const [row] = await systemQuery<{ description: string }>(
      db,
      "select description from public.deals where id = $1",
      [
        quote.id,
      ],
    );
    assertEquals(hostile(row.description), [], `stored: ${row.description}`);
    await assertReadersUnharmed(quote);
  },
);

httpTest("a description stored before the rules existed is sanitised again when it is read", async () => {
  const quote = await sentQuote();
  const { db } = await testEnv();
  // Written straight into the database, as content saved under the older rules would be.
  await systemQuery(db, "update public.deals set description = $2, admin_description = $3 where id = $1", [
    quote.id,
    COVER,
    `<p>Votre prestation</p><div style="margin-top:-300px;position:fixed;inset:0">x</div><img src="/logout">`,
  ]);
  await assertReadersUnharmed(quote);
  const page = richTextOf((await quote.customer.get(`/deal/show/${quote.token}`)).text);
  assert(page.includes("Votre prestation"), "the admin description is shown");
});

httpTest(
  "a rich-text setting stored before the rules existed is sanitised again when it is read",
  async () => {
    const admin = await loggedIn(ADMIN);
    const { db } = await testEnv();
    const before = await admin.get("/api/settings/deviseur_custom_field_1");
    assertEquals(before.status, 200, before.text);
    const previous = body(before).results;
    try {
      await systemQuery(
        db,
        `insert into public.settings (key, value, type) values ('deviseur_custom_field_1', to_jsonb($1::text), 'text')
       on conflict (key) do update set value = excluded.value, type = excluded.type`,
        [COVER],
      );
      const value = String(body(await admin.get("/api/settings/deviseur_custom_field_1")).results.value);
      assert(value.includes("Notre offre cocktails"), value);
      assertEquals(hostile(value), [], value);
      const page = await admin.get("/dashboard/admin/devis/parametres");
      assertEquals(page.status, 200, page.text.slice(0, 300));
      const shown = richTextOf(page.text);
      assert(shown.includes("Notre offre cocktails"), `the settings page shows the field: ${shown}`);
      assertEquals(hostile(shown), [], "the settings page");
    } finally {
      const restored = await admin.patch("/api/settings/deviseur_custom_field_1", {
        value: previous?.value ?? "",
      });
      assertEquals(restored.status, 200, restored.text);
    }
  },
);
