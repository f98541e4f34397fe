// The public quote request: the page /demande-de-devis (its island and nothing else, the event type
// chosen by a link, the home page's call to action), POST /api/deal/request (the estimate equals the
// engine's, the deal in 'start' with its contact, hidden from partners, seen by the admin, linked to a
// signed-in customer, the acknowledgement email), its French messages (422, a past date, 429 after ten
// requests from one address), the browser checks agreeing with the server, and the same form posted
// without JavaScript.
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { Client, httpTest, testEnv, type TestResponse } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { getManifest } from "../../lib/islands/manifest.ts";
import {
  type CommissionTier,
  computeTotals,
  DEFAULT_COMMISSION_TIERS,
  DEFAULT_PRICING,
  priceQuote,
  type PricingConfig,
  validatePricing,
} from "../../lib/deals/pricing.ts";
import { formatEuros } from "../../lib/money.ts";
import { estimateToJson, type RequestEstimate } from "../../lib/deals/estimate.ts";
import { DEFAULT_DEVISEUR_SETTINGS, deviseurOf, type NamedSetting } from "../../lib/deals/settings.ts";
import {
  EMPTY_REQUEST,
  REQUEST_MESSAGES,
  requestErrors,
  type RequestValues,
} from "../../components/deals/request/rules.ts";

const PAGE = "/demande-de-devis";
const API = "/api/deal/request";
const PARTNER = "partenaire@example.fr";
const PARTNER2 = "partenaire2@example.fr";
const ADMIN = "admin@example.fr";
const CUSTOMER2 = "client2@example.fr";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

let ipCounter = 0;
/** A client address of its own: the limit of ten requests an hour is per address. */
function freshIp(): string {
  ipCounter++;
  return `10.66.${(ipCounter >> 8) & 255}.${(ipCounter & 255) || 1}`;
}

let counter = 0;
function uniqueEmail(): string {
  counter++;
  return `demande.${Date.now().toString(36)}.${counter}@example.fr`;
}

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** A complete request, as the island sends it. */
function request(overrides: Record<string, unknown> = {}): Json {
  return {
    type_d_evenement: "Mariage - soirée dansante",
    deal_prestation_date: inDays(120),
    horaire_souhaite: "19:30",
    nombre_de_participants: 120,
    duree_2_service: 240,
    ville: "Lyon",
    adresse_precise: "Domaine des Saules, 12 chemin des Vignes, 69003 Lyon",
    distance_en_km: 25,
    bar_mobile: true,
    type_de_recette: "classic",
    creation_de_recette: false,
    description: "Mariage en extérieur, thème champêtre.",
    firstname: "Julie",
    lastname: "Lefèvre",
    email: uniqueEmail(),
    phone: "06 12 34 56 78",
    consent: true,
    ...overrides,
  };
}

/** The estimate the engine computes for `body` with the settings stored now (the server's inputs). */
/** The estimate the engine gives `body`, in cents (the island's props; the API answers it in euros). */
async function expectedEstimate(body: Json): Promise<Json> {
  const { db } = await testEnv();
  const stored = Object.fromEntries(
    (await systemQuery<{ key: string; value: unknown }>(
      db,
      "select key, value from public.settings where key in ('deviseur_pricing', 'deviseur_settings', 'deviseur_fixed_commission_tiers')",
    )).map((r) => [r.key, r.value]),
  );
  const grid = stored.deviseur_pricing && !validatePricing(stored.deviseur_pricing as PricingConfig)
    ? stored.deviseur_pricing as PricingConfig
    : DEFAULT_PRICING;
  const deviseur = deviseurOf((stored.deviseur_settings as NamedSetting[]) ?? DEFAULT_DEVISEUR_SETTINGS);
  const tiers = (stored.deviseur_fixed_commission_tiers as CommissionTier[]) ?? DEFAULT_COMMISSION_TIERS;
  const quote = priceQuote(grid, {
    guests: body.nombre_de_participants,
    durationMinutes: body.duree_2_service,
    recipeType: body.type_de_recette,
    customRecipe: body.creation_de_recette,
    mobileBar: body.bar_mobile,
    distanceKm: body.distance_en_km,
  });
  const totals = computeTotals(quote.lines, {
    vat: deviseur.vatRate,
    commissionRate: deviseur.commissionRate,
  }, {
    guests: body.nombre_de_participants,
    nbCocktails: quote.nbCocktails,
    commissionTiers: tiers,
  });
  return {
    nbCocktails: quote.nbCocktails,
    staff: quote.staff,
    totalHT: totals.totalInvoiceByPartner,
    projectManagement: totals.projectManagement,
    vatAmount: totals.vatAmount,
    totalTTC: totals.totalTTC,
    pricePerPerson: totals.pricePerPerson,
    lines: quote.lines.map((l) => ({
      label: l.label,
      qty: l.qty,
      unitCost: l.unitCost,
      totalCost: l.totalCost,
    })),
  };
}

async function send(body: Json, client = new Client({ ip: freshIp() })): Promise<TestResponse> {
  return await client.post(API, body);
}

async function dealByToken(token: string): Promise<Json> {
  const { db } = await testEnv();
  const [row] = await systemQuery<Json>(
    db,
    `select d.id, d.status, d.customer_id as "customerId", d.company_id as "companyId", d.service_date as "serviceDate",
       d.properties, d.settings, d.total_ht as "totalHt", d.totals, c.firstname, c.lastname, c.email, c.phone,
       c.service_address as "serviceAddress"
     from public.deals d join public.deal_contacts c on c.deal_id = d.id where d.token = $1`,
    [token],
  );
  assert(row, `no deal for token ${token}`);
  return row;
}

async function loggedIn(email: string): Promise<Client> {
  const client = new Client({ ip: freshIp() });
  await client.login(email);
  return client;
}

/** The text as it appears in HTML (apostrophes may be escaped). */
function includesHtml(html: string, text: string): boolean {
  return [text, text.replaceAll("'", "&#39;"), text.replaceAll("'", "&#x27;"), text.replaceAll("'", "&apos;")]
    .some((variant) => html.includes(variant));
}

/** The island's serialised props in the page. */
function islandProps(html: string): Json {
  const match = /data-island="DealRequestForm" data-props="([^"]*)"/.exec(html);
  assert(match, "the DealRequestForm island is on the page");
  const decoded = match[1].replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">").replaceAll("&amp;", "&");
  return JSON.parse(decoded);
}

// ---------------------------------------------------------------------------------------------------
// The page.

httpTest("the page renders the form island, and no other JavaScript", async () => {
  const res = await new Client({ ip: freshIp() }).get(PAGE);
  assertEquals(res.status, 200);
  assertMatch(res.contentType, /text\/html/);
  assert(res.text.includes("<h1") && res.text.includes("Demander un devis"));
  const islands = [...res.text.matchAll(/data-island="([A-Za-z]+)"/g)].map((m) => m[1]);
  assertEquals(islands, ["DealRequestForm"]);
  const scripts = [...res.text.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);
  const asset = getManifest().islands.DealRequestForm;
  assertEquals(scripts.length, 1, `scripts: ${scripts.join(" ")}`);
  assert(scripts[0].includes(`src="${asset.file}"`), scripts[0]);
  const preloads = [...res.text.matchAll(/<link[^>]*modulepreload[^>]*href="([^"]+)"/gi)].map((m) => m[1]);
  assertEquals(preloads.sort(), [...asset.imports].sort(), "only the island's own chunks are preloaded");
  // Every field of the request is there, labelled in French, and the form also works without JavaScript.
  for (
    const name of [
      "type_d_evenement",
      "deal_prestation_date",
      "horaire_souhaite",
      "nombre_de_participants",
      "duree_2_service",
      "ville",
      "adresse_precise",
      "distance_en_km",
      "bar_mobile",
      "type_de_recette",
      "creation_de_recette",
      "firstname",
      "lastname",
      "email",
      "phone",
      "description",
      "consent",
    ]
  ) assert(res.text.includes(`name="${name}"`), `field ${name}`);
  assert(res.text.includes('action="/demande-de-devis"') && res.text.includes('method="post"'));
  for (
    const label of [
      "Type d'événement",
      "Horaire souhaité",
      "Nombre d'invités",
      "Durée du service",
      "+ de 8h00",
      "1h30",
      "Oui, il nous faut un bar",
      "Non, une table est à disposition",
      "Cocktails signature",
      "Cocktails classiques",
      "Mocktails",
      "Uniquement pour un menu entièrement sans alcool.",
      "Création de recettes sur mesure",
      "Date à confirmer",
    ]
  ) assert(includesHtml(res.text, label), `label ${label}`);
  const props = islandProps(res.text);
  assertEquals(props.today, today());
  assert(props.cities.includes("Lyon") && props.cities.includes("Paris"), "the demo cities are suggested");
  // Start times every 30 minutes from 08:00 to 00:00, and the eight event types.
  assert(res.text.includes('value="08:00"') && res.text.includes('value="00:00"'));
  assert(!res.text.includes('value="07:30"'));
});

httpTest("a link chooses the event type (?evenement=mariage) and the city (?ville=)", async () => {
  const res = await new Client({ ip: freshIp() }).get(`${PAGE}?evenement=mariage&ville=Annecy`);
  assertEquals(res.status, 200);
  const props = islandProps(res.text);
  assertEquals(props.initial.type_d_evenement, "Mariage - soirée dansante");
  assertEquals(props.initial.ville, "Annecy");
  assertMatch(res.text, /<option[^>]*selected[^>]*>Mariage - soirée dansante<\/option>/);
  for (
    const [slug, type] of [["seminaire", "Entreprise séminaire"], ["anniversaire", "Anniversaire"], [
      "inconnu",
      "",
    ]]
  ) {
    const page = await new Client({ ip: freshIp() }).get(`${PAGE}?evenement=${slug}`);
    assertEquals(islandProps(page.text).initial.type_d_evenement, type, slug);
  }
});

httpTest("a signed-in customer finds their name and email filled in", async () => {
  const customer = await loggedIn(CUSTOMER2);
  const props = islandProps((await customer.get(PAGE)).text);
  assertEquals([props.initial.firstname, props.initial.lastname, props.initial.email], [
    "Hugo",
    "Petit",
    CUSTOMER2,
  ]);
});

httpTest("the home page calls to action 'Demander un devis' and the demo menus link the page", async () => {
  const home = await new Client({ ip: freshIp() }).get("/");
  assertMatch(home.text, /<a[^>]*href="\/demande-de-devis"[^>]*>Demander un devis<\/a>/);
  assert(home.text.includes('href="/demande-de-devis?evenement=mariage"'));
  const { db } = await testEnv();
  const items = await systemQuery<{ menu: string; label: string; url: string }>(
    db,
    "select menu_code as menu, label, url from public.menu_items where url like '/demande-de-devis%' order by menu_code, position",
  );
  assert(items.some((i) => i.menu === "main" && i.label === "Demander un devis" && i.url === PAGE));
  assert(
    items.some((i) =>
      i.menu === "footer1" && i.label === "Bar à cocktails pour mariage" &&
      i.url === `${PAGE}?evenement=mariage`
    ),
  );
});

// ---------------------------------------------------------------------------------------------------
// POST /api/deal/request.

httpTest(
  "a request answers its token and the engine's estimate; the deal waits in 'start' with its contact",
  async () => {
    const body = request();
    const res = await send(body);
    assertEquals(res.status, 200, res.text);
    const json = res.json<Json>();
    assertEquals(json.status, "success");
    assertMatch(json.results.token, /^[0-9a-f]{64}$/);
    const expected = await expectedEstimate(body);
    assertEquals(json.results.estimate, estimateToJson(expected as RequestEstimate), "in euros");
    assertEquals(
      expected.projectManagement + expected.lines.reduce((s: number, l: Json) => s + l.totalCost, 0),
      expected.totalHT,
    );
    // The estimate's total HT is the lines plus the 'Gestion de projet' half of the fee.
    const lines = json.results.estimate.lines.reduce(
      (s: number, l: Json) => s + Math.round(l.totalCost * 100),
      0,
    );
    assert(Math.round(json.results.estimate.totalHT * 100) > lines);

    const deal = await dealByToken(json.results.token);
    assertEquals(deal.status, "start");
    assertEquals([deal.customerId, deal.companyId], [null, null]);
    assertEquals(deal.serviceDate, body.deal_prestation_date);
    assertEquals(
      [deal.firstname, deal.lastname, deal.email, deal.phone, deal.serviceAddress],
      ["Julie", "Lefèvre", body.email, "+33612345678", body.adresse_precise],
    );
    assertEquals(deal.totalHt, Math.round(json.results.estimate.totalHT * 100));
    assertEquals(deal.properties.type_d_evenement, body.type_d_evenement);
    assertEquals(deal.properties.horaire_souhaite, "19:30");
    assertEquals(deal.properties.bar_mobile___table_a_dispo, "true");
    assertEquals(deal.settings.cocktailListType, "classic");
  },
);

httpTest("a request without a date is accepted: the deal shows 'Date à confirmer'", async () => {
  const res = await send(request({ deal_prestation_date: "", horaire_souhaite: "", distance_en_km: "" }));
  assertEquals(res.status, 200, res.text);
  const token = res.json<Json>().results.token;
  const deal = await dealByToken(token);
  assertEquals(deal.serviceDate, null);
  const admin = await loggedIn(ADMIN);
  const seen = (await admin.get(`/api/deal/get/${deal.id}`)).json<Json>().results;
  assertMatch(seen.name, /date à confirmer/);
});

httpTest(
  "a new request is invisible to partners, even once a partner is chosen, and visible to the admin",
  async () => {
    const body = request();
    const token = (await send(body)).json<Json>().results.token;
    const deal = await dealByToken(token);
    const partner = await loggedIn(PARTNER);
    assertEquals((await partner.get(`/api/deal/get/${deal.id}`)).status, 404);
    const { db } = await testEnv();
    const [company] = await systemQuery<{ id: string }>(db, "select id from public.users where email = $1", [
      PARTNER,
    ]);
    await systemQuery(db, "update public.deals set company_id = $1 where id = $2", [company.id, deal.id]);
    assertEquals((await partner.get(`/api/deal/get/${deal.id}`)).status, 404, "'start' stays with the admin");
    const list = (await partner.get("/api/deal/index")).json<Json>().results as Json[];
    assert(!list.some((d) => d.id === deal.id));
    const other = await loggedIn(PARTNER2);
    assertEquals((await other.get(`/api/deal/get/${deal.id}`)).status, 404);

    const admin = await loggedIn(ADMIN);
    const seen = await admin.get(`/api/deal/get/${deal.id}`);
    assertEquals(seen.status, 200, seen.text);
    const result = seen.json<Json>().results;
    assertEquals([result.status, result.email, result.firstname, result.phone], [
      "start",
      body.email,
      "Julie",
      "+33612345678",
    ]);
    assertEquals(result.properties.adresse_precise, body.adresse_precise);
  },
);

httpTest("a signed-in customer's request is linked to them; another signed-in role's is not", async () => {
  const customer = await loggedIn(CUSTOMER2);
  const res = await send(request({ email: CUSTOMER2 }), customer);
  assertEquals(res.status, 200, res.text);
  const token = res.json<Json>().results.token;
  const deal = await dealByToken(token);
  const { db } = await testEnv();
  const [user] = await systemQuery<{ id: string }>(db, "select id from public.users where email = $1", [
    CUSTOMER2,
  ]);
  assertEquals(deal.customerId, user.id);
  const mine = (await customer.get("/api/customer/deal/index")).json<Json>().results as Json[];
  assert(mine.some((d) => d.id === deal.id), "the customer finds it among their quotes");

  const partner = await loggedIn(PARTNER);
  const fromPartner = await send(request(), partner);
  assertEquals(fromPartner.status, 200);
  assertEquals((await dealByToken(fromPartner.json<Json>().results.token)).customerId, null);
});

httpTest(
  "the acknowledgement email is in the outbox with the estimate, and nothing the visitor typed",
  async () => {
    const body = request({
      firstname: "Mallory",
      lastname: "Achetez-ici",
      description: "Gagnez un iPhone sur evil.example",
      adresse_precise: "Cliquez sur evil.example/promo",
      ville: "Spamville",
    });
    const res = await send(body);
    const { token, estimate } = res.json<Json>().results;
    const { db } = await testEnv();
    const mails = await systemQuery<
      { template: string; subject: string; text_body: string; html_body: string }
    >(
      db,
      "select template, subject, text_body, html_body from public.email_outbox where recipient = $1",
      [body.email],
    );
    assertEquals(mails.length, 1);
    assertEquals(mails[0].template, "deal-request-received");
    assertEquals(mails[0].subject, "Votre demande de devis est bien reçue");
    const ttc = formatEuros(Math.round(estimate.totalTTC * 100));
    assert(mails[0].text_body.includes(`${ttc} TTC`), mails[0].text_body);
    assert(mails[0].text_body.includes(`/deal/show/${token}`));
    // Anyone may type any address: the first email greets neutrally and repeats no typed text.
    assert(mails[0].text_body.startsWith("Bonjour,"), mails[0].text_body);
    for (const typed of ["Mallory", "Achetez-ici", "iPhone", "evil.example", "Spamville"]) {
      assert(!mails[0].text_body.includes(typed), `the text body carries ${typed}`);
      assert(!mails[0].html_body.includes(typed), `the HTML body carries ${typed}`);
    }
  },
);

httpTest(
  "a quote request refuses control characters in a one-line field and a dirty email (422, French)",
  async () => {
    const { db } = await testEnv();
    const [{ n: before }] = await systemQuery<{ n: number }>(
      db,
      "select count(*)::int as n from public.deals",
    );
    for (
      const [field, value] of [["firstname", "Ju\r\nlie"], ["lastname", "Le\u001bfèvre"], [
        "ville",
        "Ly\ud800on",
      ]]
    ) {
      const res = await send(request({ [field]: value }));
      assertEquals(res.status, 422, `${field}: ${JSON.stringify(value)}`);
      assertEquals(res.json<Json>().errors[field], "Ce champ contient des caractères non autorisés.");
    }
    for (const email of ["victim-x@evil.example>,<foo", "a@b.fr\r\nBcc: c@d.fr", '"quoted"@evil.example']) {
      const res = await send(request({ email }));
      assertEquals(res.status, 422, email);
      assertEquals(res.json<Json>().errors.email, "L'email doit être valide.");
    }
    // A multi-line field keeps its line breaks.
    assertEquals((await send(request({ description: "Ligne 1\r\nLigne 2\tfin" }))).status, 200);
    const [{ n: after }] = await systemQuery<{ n: number }>(
      db,
      "select count(*)::int as n from public.deals",
    );
    assertEquals(after, before + 1, "only the valid request created a deal");
  },
);

// ---------------------------------------------------------------------------------------------------
// French messages.

httpTest("invalid input answers 422 with a French message per field, and creates nothing", async () => {
  const { db } = await testEnv();
  const [{ n: before }] = await systemQuery<{ n: number }>(db, "select count(*)::int as n from public.deals");
  const res = await send({
    type_d_evenement: "Bar-mitsva",
    nombre_de_participants: "beaucoup",
    duree_2_service: 45,
    horaire_souhaite: "07:00",
    type_de_recette: "tiki",
    distance_en_km: -3,
    email: "pas-un-email",
    consent: false,
  });
  assertEquals(res.status, 422);
  const json = res.json<Json>();
  assertEquals(json.status, "error");
  assertEquals(json.message, "Veuillez renseigner tous les champs obligatoires");
  assertEquals(json.errors, {
    type_d_evenement: "Type d'événement non proposé.",
    horaire_souhaite: "Horaire non proposé.",
    nombre_de_participants: "Veuillez saisir un nombre valide.",
    duree_2_service: "Durée non proposée.",
    ville: "Ce champ est requis",
    distance_en_km: "Veuillez saisir un nombre valide.",
    type_de_recette: "Type de recette non proposé.",
    firstname: "Ce champ est requis",
    lastname: "Ce champ est requis",
    email: "L'email doit être valide.",
    phone: "Votre téléphone est requis.",
    consent: "Vous devez accepter d'être contacté dans le cadre de l'organisation de votre événement",
  });
  const empty = await send({});
  assertEquals(empty.status, 422);
  const fields = empty.json<Json>().errors;
  assertEquals(fields.type_d_evenement, "Ce champ est requis");
  assertEquals(fields.nombre_de_participants, "Ce champ est requis");
  assertEquals(fields.duree_2_service, "Ce champ est requis");
  assertEquals(fields.email, "Votre email est requis.");
  const phone = await send(request({ phone: "12345" }));
  assertEquals(phone.status, 422);
  assertEquals(phone.json<Json>().errors, { phone: "Le téléphone doit être valide." });
  const [{ n: after }] = await systemQuery<{ n: number }>(db, "select count(*)::int as n from public.deals");
  assertEquals(after, before);
});

httpTest("a past date is refused; today is accepted", async () => {
  const past = await send(request({ deal_prestation_date: inDays(-1) }));
  assertEquals(past.status, 422);
  assertEquals(past.json<Json>().errors, {
    deal_prestation_date: "La date doit être aujourd'hui ou plus tard.",
  });
  const badDate = await send(request({ deal_prestation_date: "2027-02-30" }));
  assertEquals(badDate.json<Json>().errors, {
    deal_prestation_date: "La date doit être aujourd'hui ou plus tard.",
  });
  assertEquals((await send(request({ deal_prestation_date: today() }))).status, 200);
});

httpTest("an eleventh request from one address within the hour answers 429 in French", async () => {
  const client = new Client({ ip: freshIp() });
  for (let i = 1; i <= 10; i++) {
    const res = await send(request(), client);
    assertEquals(res.status, 200, `request ${i}: ${res.text}`);
  }
  const refused = await send(request(), client);
  assertEquals(refused.status, 429);
  assertEquals(refused.json<Json>().message, REQUEST_MESSAGES.tooMany);
  // Another address is not affected.
  assertEquals((await send(request())).status, 200);
});

httpTest("the browser's checks give the server's messages for the same mistakes", async () => {
  const values = (overrides: Partial<RequestValues>): RequestValues => ({
    ...EMPTY_REQUEST,
    type_d_evenement: "Anniversaire",
    nombre_de_participants: "40",
    duree_2_service: "180",
    ville: "Lyon",
    firstname: "Hugo",
    lastname: "Petit",
    email: uniqueEmail(),
    phone: "0612345678",
    consent: true,
    ...overrides,
  });
  const { requestPayload } = await import("../../components/deals/request/rules.ts");
  const cases: Partial<RequestValues>[] = [
    {},
    { type_d_evenement: "" },
    { deal_prestation_date: inDays(-2) },
    { deal_prestation_date: "2027-13-01" },
    { nombre_de_participants: "" },
    { nombre_de_participants: "0" },
    { nombre_de_participants: "12,5" },
    { nombre_de_participants: "6000" },
    { duree_2_service: "" },
    { duree_2_service: "100" },
    { horaire_souhaite: "07:30" },
    { ville: "   " },
    { ville: "x".repeat(121) },
    { distance_en_km: "-1" },
    { distance_en_km: "1001" },
    { distance_en_km: "abc" },
    { description: "x".repeat(2001) },
    { firstname: "", lastname: "" },
    { email: "" },
    { email: "camille@example" },
    { phone: "" },
    { phone: "12" },
    { consent: false },
    { ...EMPTY_REQUEST, email: "", phone: "" },
  ];
  for (const overrides of cases) {
    const v = values(overrides);
    const browser = requestErrors(v, today());
    const res = await send(requestPayload(v));
    const server = res.status === 200 ? {} : res.json<Json>().errors;
    assertEquals(browser, server, `${JSON.stringify(overrides).slice(0, 80)}: ${res.status}`);
  }
});

// ---------------------------------------------------------------------------------------------------
// Without JavaScript.

httpTest(
  "without JavaScript the form posts to the page, which shows the estimate or the messages",
  async () => {
    const client = new Client({ ip: freshIp() });
    const email = uniqueEmail();
    const form: Record<string, string> = {
      type_d_evenement: "Anniversaire",
      deal_prestation_date: "",
      horaire_souhaite: "20:00",
      nombre_de_participants: "40",
      duree_2_service: "180",
      ville: "Bordeaux",
      adresse_precise: "",
      distance_en_km: "",
      bar_mobile: "false",
      type_de_recette: "mocktail",
      creation_de_recette: "false",
      firstname: "Camille",
      lastname: "Bernard",
      email,
      phone: "06 00 00 00 99",
      description: "",
    };
    const refused = await client.request("POST", PAGE, { form });
    assertEquals(refused.status, 422);
    assert(includesHtml(refused.text, REQUEST_MESSAGES.consent));
    assert(includesHtml(refused.text, "Veuillez renseigner tous les champs obligatoires"));
    assertEquals(islandProps(refused.text).initial.ville, "Bordeaux", "the values are kept");

    const sent = await client.request("POST", PAGE, { form: { ...form, consent: "true" } });
    assertEquals(sent.status, 200, sent.text.slice(0, 300));
    assert(sent.text.includes('data-testid="request-estimate"'));
    assert(includesHtml(sent.text, "Votre estimation immédiate"));
    assert(includesHtml(sent.text, "Date à confirmer"));
    const props = islandProps(sent.text);
    const expected = await expectedEstimate({
      nombre_de_participants: 40,
      duree_2_service: 180,
      type_de_recette: "mocktail",
      creation_de_recette: false,
      bar_mobile: false,
      distance_en_km: 0,
    });
    assertEquals(props.outcome.estimate, expected, "the island's props: cents");
    assert(sent.text.includes(formatEuros(expected.totalTTC)));
    const deal = await dealByToken(props.outcome.token);
    assertEquals([deal.email, deal.status, deal.serviceDate], [email, "start", null]);
  },
);
