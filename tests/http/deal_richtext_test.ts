// Rich text of a deal (admin description, partner description) and its map, against script
// injection: what is stored through PATCH /api/deal/{id}, what GET /api/deal/get/{id} answers, and
// the deal page's HTML (the 'Présentation' island rendered on the server) carry no script, no event
// handler and no javascript: URL; the formatting the editor makes survives. Values filled into the
// admin description's placeholders (the customer's address) are escaped.
import { Parser } from "htmlparser2";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import DealPresentation from "../../islands/DealPresentation.tsx";
import type { DealPayload } from "../../lib/deals/payload.ts";
import { MAP_INVALID } from "../../lib/deals/map.ts";
import { normalizeLink } from "../../components/richtext/links.ts";
import {
  filledAdminDescription,
  templateValuesOf,
} from "../../components/deals/presentation/template_values.ts";

const ADMIN = "admin@example.fr";
const PARTNER = "partenaire@example.fr";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** One attack per entry (some swallow what follows them, so they are also sent one by one). */
const ATTACKS = [
  `<script>alert("xss-1")</script><p>texte 1</p>`,
  `<img src=x onerror="alert('xss-2')">`,
  `<img src="javascript:alert('xss-3')">`,
  `<a href="javascript:alert('xss-4')">lien 4</a>`,
  `<a href="JaVaScRiPt:alert('xss-5')">lien 5</a>`,
  `<a href="&#106;avascript&#58;alert('xss-6')">lien 6</a>`,
  `<a href="  java\tscript:alert('xss-7')">lien 7</a>`,
  `<p onclick="alert('xss-8')" onmouseover="alert('xss-8b')">clic 8</p>`,
  `<svg onload="alert('xss-9')"><circle r="4"/></svg>`,
  `<iframe src="javascript:alert('xss-10')"></iframe><iframe srcdoc="<script>alert('xss-10b')</script>"></iframe>`,
  `<p style="background-image:url(javascript:alert('xss-11'))">style 11</p>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=alert('xss-12')>`,
  `<noscript><p title="</noscript><img src=x onerror=alert('xss-13')>"></noscript>`,
  `<form action="javascript:alert('xss-14')"><button formaction="javascript:alert(14)">go</button></form>`,
  `<object data="javascript:alert('xss-15')"></object><embed src="javascript:alert('xss-15b')">`,
  `<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxNik8L3NjcmlwdD4=">data 16</a>`,
  `<details open ontoggle="alert('xss-17')"><summary>17</summary></details>`,
  `<meta http-equiv="refresh" content="0;url=javascript:alert('xss-18')"><base href="https://evil.example/">`,
  `<a href="vbscript:msgbox('xss-19')">vb 19</a><img src="//evil.example/x.png">`,
  `<p style="position:fixed;inset:0;z-index:9999" class="fixed inset-0 z-50 opacity-0">couverture 20</p>`,
  `<template><img src=x onerror=alert('xss-21')></template><textarea><img src=x onerror=alert(21)></textarea>`,
  `<p id="app" data-x="1">identifiant 22</p>`,
];
const ALL_ATTACKS = ATTACKS.join("\n");

/** What the editor produces, which must survive. */
const FORMATTED =
  `<h2>Notre offre</h2><p style="text-align:center"><span style="font-family:'Permanent Marker', cursive;` +
  `font-size:32px;color:#c33d2b">Titre</span></p><p><strong>gras</strong> <em>italique</em> <u>souligné</u> ` +
  `<a href="https://exemple.fr/bar" target="_blank">lien</a></p><ul><li><p>un</p></li></ul>`;

const URL_ATTRIBUTES = new Set([
  "href",
  "src",
  "action",
  "formaction",
  "xlink:href",
  "data",
  "poster",
  "background",
]);

/** The dangerous things found in `html`, parsed as a browser would (entities decoded). `page`:
 * a whole page, whose own module scripts (/build/) and icons are allowed. */
function dangers(html: string, options: { page?: boolean } = {}): string[] {
  const found: string[] = [];
  const parser = new Parser({
    onopentag(name, attribs) {
      for (const [attribute, raw] of Object.entries(attribs)) {
        // deno-lint-ignore no-control-regex
        const value = raw.replace(/[\u0000-\u0020]/g, "").toLowerCase();
        if (attribute.startsWith("on")) found.push(`<${name} ${attribute}>`);
        if (attribute === "srcdoc") found.push(`<${name} srcdoc>`);
        if (URL_ATTRIBUTES.has(attribute) && /^(javascript|vbscript|data):/.test(value)) {
          found.push(`<${name} ${attribute}="${raw}">`);
        }
        if (attribute === "style" && /url\(|expression\(|position:fixed|position:absolute/.test(value)) {
          found.push(`<${name} style="${raw}">`);
        }
      }
      if (name === "script" && !(options.page && /^\/build\/[\w/.-]+\.js$/.test(attribs.src ?? ""))) {
        found.push(`<script ${JSON.stringify(attribs)}>`);
      }
      if (name === "iframe" && !(attribs.src ?? "").startsWith("https://www.google.com/maps/embed?")) {
        found.push(`<iframe src="${attribs.src}">`);
      }
      if (["object", "embed", "base", "applet", "frame", "frameset"].includes(name)) found.push(`<${name}>`);
      if (name === "meta" && attribs["http-equiv"]) found.push(`<meta http-equiv>`);
      if (
        !options.page &&
        ["svg", "math", "form", "style", "template", "textarea", "meta", "link"].includes(name)
      ) {
        found.push(`<${name}>`);
      }
      const classes = (attribs.class ?? "").split(/\s+/);
      if (!options.page && classes.some((c) => ["fixed", "inset-0", "z-50", "opacity-0"].includes(c))) {
        found.push(`<${name} class="${attribs.class}">`);
      }
    },
  }, { decodeEntities: true, lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  return found;
}

let ipCounter = 0;
const freshIp = () => `10.78.${(++ipCounter >> 8) & 255}.${(ipCounter & 255) || 1}`;

async function signedIn(email: string): Promise<Client> {
  const client = new Client({ ip: freshIp() });
  await client.login(email);
  return client;
}

/** A deal requested with `address` as its precise address, sent to the demo partner, who may see the
 * address. */
async function partnerDeal(address: string): Promise<number> {
  const n = `${Date.now()}${++ipCounter}`;
  const res = await new Client({ ip: freshIp() }).post("/api/deal/request", {
    type_d_evenement: "Mariage - soirée dansante",
    deal_prestation_date: new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10),
    horaire_souhaite: "22:30",
    nombre_de_participants: 80,
    duree_2_service: 240,
    ville: "Lyon",
    adresse_precise: address,
    distance_en_km: 5,
    bar_mobile: true,
    type_de_recette: "signature",
    creation_de_recette: false,
    description: `<script>alert("xss-request")</script>`,
    firstname: "Jeanne",
    lastname: `Texte${n}`,
    email: `texte.${n}@example.fr`,
    phone: `+3368${n.slice(-7)}`,
    consent: true,
  });
  assertEquals(res.status, 200, res.text);
  const { db } = await testEnv();
  const [row] = await systemQuery<{ id: number }>(db, "select id from public.deals where token = $1", [
    res.json<Json>().results.token,
  ]);
  const [partner] = await systemQuery<{ id: string }>(db, "select id from public.users where email = $1", [
    PARTNER,
  ]);
  const admin = await signedIn(ADMIN);
  const assigned = await admin.patch(`/api/deal/${row.id}`, {
    company: partner.id,
    adminSettings: { showServiceAddress: true },
  });
  assertEquals(assigned.status, 200, assigned.text);
  assertEquals((await admin.post(`/api/deal/${row.id}/send-to-partner`)).status, 200);
  return Number(row.id);
}

const ADDRESS = `<img src=x onerror="alert('xss-address')"> 12 quai "Saint" & fils`;

httpTest(
  "descriptions: what is stored and read back runs nothing, and keeps the editor's formatting",
  async () => {
    const dealId = await partnerDeal(ADDRESS);
    const admin = await signedIn(ADMIN);
    const partner = await signedIn(PARTNER);
    const { db } = await testEnv();
    for (const attack of [ALL_ATTACKS, ...ATTACKS]) {
      const byPartner = await partner.patch(`/api/deal/${dealId}`, {
        description: `${FORMATTED}\n${attack}`,
      });
      assertEquals(byPartner.status, 200, byPartner.text);
      const byAdmin = await admin.patch(`/api/deal/${dealId}`, {
        adminDescription: `<p>Adresse : {{adresse}}, {{staff}}, {{periode}}</p>${FORMATTED}\n${attack}`,
      });
      assertEquals(byAdmin.status, 200, byAdmin.text);
      for (const [who, client] of [["admin", admin], ["partner", partner]] as const) {
        const deal = (await client.get(`/api/deal/get/${dealId}`)).json<Json>().results;
        for (const field of ["description", "adminDescription"]) {
          const html: string = deal[field];
          assertEquals(dangers(html), [], `${who} reads ${field} after ${attack}: ${html}`);
          assert(!/javascript|vbscript/i.test(html), `${field}: no javascript: left at all (${attack})`);
          // The formatting survives the sanitiser.
          for (
            const kept of [
              "<h2>Notre offre</h2>",
              "text-align:center",
              "font-size:32px",
              "color:#c33d2b",
              "Permanent Marker",
              "<strong>gras</strong>",
              "<u>souligné</u>",
              'href="https://exemple.fr/bar"',
              'rel="noopener noreferrer nofollow"',
            ]
          ) assert(html.includes(kept), `${field} keeps ${kept}: ${html}`);
        }
        assert(deal.adminDescription.includes("{{adresse}}"), "placeholders are stored as typed");
      }
      // What the database holds is the sanitised text.
      const [row] = await systemQuery<{ description: string; adminDescription: string }>(
        db,
        `select description, admin_description as "adminDescription" from public.deals where id = $1`,
        [dealId],
      );
      assertEquals(dangers(row.description), [], attack);
      assertEquals(dangers(row.adminDescription), [], attack);
    }
    // Ids are prefixed so that text cannot take the page's own elements' names.
    const last = (await partner.get(`/api/deal/get/${dealId}`)).json<Json>().results;
    assert(
      last.description.includes('id="rt-app"') && last.description.includes("identifiant 22"),
      last.description,
    );
  },
);

httpTest(
  "the deal page's HTML (admin and partner) carries no injected script, handler or javascript: URL",
  async () => {
    const dealId = await partnerDeal(ADDRESS);
    const admin = await signedIn(ADMIN);
    const partner = await signedIn(PARTNER);
    assertEquals(
      (await partner.patch(`/api/deal/${dealId}`, { description: `${FORMATTED}${ALL_ATTACKS}` })).status,
      200,
    );
    assertEquals(
      (await admin.patch(`/api/deal/${dealId}`, {
        adminDescription: `<p>Adresse : {{adresse}}</p>${ALL_ATTACKS}`,
      })).status,
      200,
    );
    for (const [who, client] of [["admin", admin], ["partner", partner]] as const) {
      const page = await client.get(`/dashboard/espace-partenaire/deal/${dealId}`);
      assertEquals(page.status, 200, `${who}: ${page.text.slice(0, 300)}`);
      assert(
        page.text.includes('data-island="DealPresentation"'),
        `${who}: the Présentation island is on the page`,
      );
      assertEquals(dangers(page.text, { page: true }), [], `${who}'s page`);
      assert(!/javascript:/i.test(page.text), `${who}'s page has no javascript: anywhere`);
    }
    // The partner reads the admin description filled: the customer's address is text, not markup.
    const html = (await partner.get(`/dashboard/espace-partenaire/deal/${dealId}`)).text;
    assert(html.includes("Adresse : &lt;img src=x onerror="), "the filled address is escaped");
  },
);

httpTest("the Présentation island rendered alone: the filled admin description is escaped", async () => {
  const dealId = await partnerDeal(ADDRESS);
  const admin = await signedIn(ADMIN);
  const partner = await signedIn(PARTNER);
  assertEquals(
    (await admin.patch(`/api/deal/${dealId}`, {
      adminDescription: `<p>Adresse : {{adresse}} ; {{staff}} de {{periode}}.</p>${ALL_ATTACKS}`,
      adminSettings: { disableQuoteEdits: true },
    })).status,
    200,
  );
  const deal = (await partner.get(`/api/deal/get/${dealId}`)).json<{ results: DealPayload }>().results;
  assertEquals(deal.properties.adresse_precise, ADDRESS, "the partner may see the address");
  const html = renderToString(h(DealPresentation, { deal, role: "Company" }));
  assertEquals(dangers(html, { page: true }), [], html);
  assert(!html.includes("<script"), "no script at all");
  assert(
    html.includes("Adresse : &lt;img src=x onerror=&quot;alert(&#39;xss-address&#39;)&quot;&gt; 12 quai"),
    html,
  );
  assert(html.includes("2 barmen de 22h30 à 02h30"), "placeholders filled");
  assert(
    html.includes("Votre description") && html.includes("Les modifications de ce devis sont désactivées"),
  );
  const forAdmin = renderToString(h(DealPresentation, { deal, role: "Admin" }));
  assert(forAdmin.includes("Description du partenaire") && forAdmin.includes("Description admin"));
  assertEquals(dangers(forAdmin, { page: true }), []);
  assert(!forAdmin.includes("<script"), "no script at all");
});

httpTest("the map: only a Google Maps embed; the iframe is written by the server from its URL", async () => {
  const dealId = await partnerDeal("1 place Bellecour");
  const partner = await signedIn(PARTNER);
  for (
    const bad of [
      `<iframe src="javascript:alert('xss-map')"></iframe>`,
      `<iframe src="https://evil.example/maps/embed?pb=1"></iframe>`,
      `<script>alert(1)</script>`,
      `<iframe src="https://www.google.com/maps/embed?pb=1"></iframe><script>alert(2)</script>`,
      `javascript:alert(3)`,
    ]
  ) {
    const res = await partner.patch(`/api/deal/${dealId}`, { map: bad });
    assertEquals(res.status, 422, `${bad}: ${res.text}`);
    assertEquals(res.json<Json>().message, MAP_INVALID);
  }
  const ok = await partner.patch(`/api/deal/${dealId}`, {
    map:
      `<iframe src="https://www.google.com/maps/embed?pb=!1m18!2d4.83&amp;x=1" onload="alert('xss-map')" ` +
      `width="600" style="border:0;"></iframe>`,
  });
  assertEquals(ok.status, 200, ok.text);
  const deal = ok.json<Json>().results;
  assertEquals(deal.mapUrl, "https://www.google.com/maps/embed?pb=!1m18!2d4.83&x=1");
  assertEquals(dangers(deal.map), []);
  assert(
    !deal.map.includes("onload") && deal.map.startsWith('<iframe src="https://www.google.com/maps/embed?'),
  );
  const page = await partner.get(`/dashboard/espace-partenaire/deal/${dealId}`);
  assertEquals(dangers(page.text, { page: true }), []);
  assert(
    page.text.includes("https://www.google.com/maps/embed?pb=!1m18!2d4.83&amp;x=1"),
    "the map is on the page",
  );
});

Deno.test("editor links: only what the sanitiser keeps", () => {
  assertEquals(normalizeLink("https://exemple.fr/a?b=1"), "https://exemple.fr/a?b=1");
  assertEquals(normalizeLink(" exemple.fr/carte "), "https://exemple.fr/carte");
  assertEquals(normalizeLink("contact@exemple.fr"), "mailto:contact@exemple.fr");
  assertEquals(normalizeLink("http://exemple.fr/a"), "http://exemple.fr/a");
  assertEquals(normalizeLink(""), "");
  for (
    const bad of [
      "tel:+33612345678",
      "/logout",
      "//evil.example",
      "javascript:alert(1)",
      "JAVASCRIPT:alert(1)",
      "data:text/html,x",
      "bonjour",
      "https://a b",
    ]
  ) {
    assertEquals(normalizeLink(bad), null, bad);
  }
});

Deno.test("admin description placeholders: values from the deal payload, escaped", () => {
  const deal = {
    adminDescription:
      "<p>{{staff}}, {{periode}}, {{duree}}, {{adresse}}, {{acompte}}, {{validite}}, {{chat}}</p>",
    adminSettings: { showChatForPartner: false, showChatToPartner: true },
    properties: {
      duree_2_service: "180",
      horaire_souhaite: "23:00",
      bar_mobile___table_a_dispo: "true",
      nombre_de_participants: 60,
      adresse_precise: "<b>1</b> rue",
      validite_devis__en_jours_: 15,
    },
    calculations: { nbCocktails: 120, officialStaffCount: 2 },
    settings: { depositPercentage: null, nbCocktailsAuthorized: 3 },
    editedAt: null,
  } as unknown as DealPayload;
  const values = templateValuesOf(deal);
  assertEquals([values.staff, values.durationMinutes, values.startTime, values.mobileBar], [
    2,
    180,
    "23:00",
    true,
  ]);
  assertEquals([values.guests, values.validityDays, values.depositPercentage, values.chatAvailable], [
    60,
    15,
    35,
    true,
  ]);
  assertEquals(
    filledAdminDescription(deal),
    "<p>2 barmen, 23h00 à 02h00, 3h00, &lt;b&gt;1&lt;/b&gt; rue, 35 %, 15, " +
      "Le chat avec votre partenaire est ouvert sur cette page.</p>",
  );
});
