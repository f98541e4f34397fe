// The deals capability's list and settings screens (spec 001 §2.7–§2.9, §2.11, §2.12): who may open
// each page, the admin list's first render (search, creation-date filters, pages, sort: the same use
// case as GET /api/deal/index), the saved settings shown back, the partner's own grid and cocktails,
// and the server's validation of a bad grid and of bad commission tiers (422 with the spec's message).
// Deals are created through the API with a name unique to this run, so that other deals in the
// database never change what is expected. Global settings changed here are put back afterwards.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, testEnv, type TestResponse } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { DEFAULT_COMMISSION_TIERS, DEFAULT_PRICING, type PricingConfig } from "../../lib/deals/pricing.ts";
import {
  DEFAULT_LIST_QUERY,
  paidOf,
  queryString,
  rangeLabel,
  rowFromItem,
  rowFromJson,
} from "../../components/deals/list/rows.ts";

const ADMIN = "admin@example.fr";
const PARTNER = "partenaire@example.fr";
const PARTNER2 = "partenaire2@example.fr";
const CUSTOMER = "client@example.fr";

const ADMIN_PAGES = [
  "/dashboard/admin/devis",
  "/dashboard/admin/devis/parametres",
  "/dashboard/admin/devis/grille-tarifaire",
];
const PARTNER_PAGES = [
  "/dashboard/partenaire/devis",
  "/dashboard/partenaire/grille-tarifaire",
  "/dashboard/partenaire/cocktails",
];

const GAP =
  'Il ne doit pas y avoir de trou entre les tranches (le "Entre" doit être égal à la tranche précédente + 1).';
const NOT_ABOVE = 'La valeur "Entre" doit être supérieure à la tranche précédente.';
const tierMessage = (name: string) =>
  `Erreur dans la ${name}: Vérifiez que toutes les valeurs sont renseignées et que les tranches sont cohérentes.`;

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

let ipCounter = 0;
const freshIp = () => `10.77.${(++ipCounter >> 8) & 255}.${(ipCounter & 255) || 1}`;
const unique = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function loggedIn(email: string): Promise<Client> {
  const client = new Client({ ip: freshIp() });
  await client.login(email);
  return client;
}

async function userIdOf(email: string): Promise<string> {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ id: string }>(db, "select id from public.users where email = $1", [
    email,
  ]);
  return row.id;
}

function ok(res: TestResponse, context = ""): Json {
  assertEquals(res.status, 200, `${context} ${res.text.slice(0, 300)}`);
  return res.json<Json>();
}

/** GET /api/deal/index's answer (spec 001 §7: `results` is the list, the paging beside it). */
function adminListPage(json: Json): Json {
  assert(Array.isArray(json.results), "results is the list");
  return { items: json.results, total: json.total, page: json.page, perPage: json.perPage };
}

function refused(res: TestResponse, status: number, message: string, context = ""): Json {
  assertEquals(res.status, status, `${context} ${res.text.slice(0, 300)}`);
  const json = res.json<Json>();
  assertEquals([json.status, json.message], ["error", message], context);
  return json;
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

let phoneCounter = 0;
const mobile = () => `+3376${String((Date.now() % 100_000) * 100 + (++phoneCounter % 100)).padStart(7, "0")}`;

/** A visitor's quote request (its own client address: requests are limited per address). */
async function requestDeal(lastname: string, guests: number, serviceDate = inDays(60)) {
  const visitor = new Client({ ip: freshIp() });
  const res = await visitor.post("/api/deal/request", {
    type_d_evenement: "Anniversaire",
    deal_prestation_date: serviceDate,
    horaire_souhaite: "19:00",
    nombre_de_participants: guests,
    duree_2_service: 180,
    ville: "Lyon",
    adresse_precise: "12 quai des Célestins",
    distance_en_km: 10,
    bar_mobile: false,
    type_de_recette: "signature",
    creation_de_recette: false,
    description: "Soirée test des écrans",
    firstname: "Jeanne",
    lastname,
    email: `${unique("ecran")}@example.fr`,
    phone: mobile(),
    consent: true,
  });
  const token = String(ok(res, "request").results.token);
  const { db } = await testEnv();
  const [row] = await systemQuery<{ id: number }>(db, "select id from public.deals where token = $1", [
    token,
  ]);
  return { id: Number(row.id), token };
}

async function backdate(id: number, day: string) {
  const { db } = await testEnv();
  await systemQuery(db, "update public.deals set created_at = $2::timestamptz where id = $1", [
    id,
    `${day}T10:00:00Z`,
  ]);
}

/** The deal ids of a list page, in their order (the table's rows; the cards repeat them). */
function rowIds(html: string): number[] {
  const table = html.slice(
    html.indexOf('data-testid="deals-table"'),
    html.indexOf('data-testid="deals-cards"'),
  );
  return [...table.matchAll(/<tr[^>]*data-deal-id="(\d+)"/g)].map((m) => Number(m[1]));
}

/** The props an island was rendered with. */
function islandProps(html: string, name: string): Json {
  const match = new RegExp(`data-island="${name}" data-props="([^"]*)"`).exec(html);
  assert(match, `island ${name} on the page`);
  const text = match[1].replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">")
    .replace(/&#39;/g, "'").replace(/&amp;/g, "&");
  return JSON.parse(text);
}

function sideMenu(html: string): string {
  const start = html.indexOf('aria-label="Menu du tableau de bord"');
  return html.slice(start, html.indexOf("</nav>", start));
}

// ---------------------------------------------------------------------------------------------------
// The list's pure pieces.

Deno.test("list rows: the use case's item and the API's JSON both give cents and unix seconds", () => {
  const stored = {
    id: 7,
    token: "t",
    name: "Anniversaire – Durand – 12/06/2027",
    hubspotId: null,
    status: "send" as const,
    serviceDate: "2027-06-12",
    guests: 40,
    eventType: "Anniversaire",
    totalHt: 123456,
    createdAt: new Date("2026-11-21T10:00:00Z"),
    customerName: "Jeanne Durand",
    companyId: null,
    companyName: null,
    depositAmount: 30050,
    totalAmountPaid: null,
  };
  const expected = { ...stored, createdAt: 1795255200 };
  assertEquals(rowFromItem(stored), expected, "the list use cases' item: cents and a Date");
  assertEquals(
    rowFromJson({ ...stored, createdAt: 1795255200, totalHt: 1234.56, depositAmount: 300.5 }),
    expected,
    "as GET /api/deal/index answers it: euros and unix seconds",
  );
  assertEquals(paidOf(expected), { label: "Acompte payé", cents: 30050 });
  assertEquals(paidOf({ depositAmount: 30050, totalAmountPaid: 123456 }), { label: "Payé", cents: 123456 });
  assertEquals(paidOf({ depositAmount: null, totalAmountPaid: null }), null);
});

Deno.test("list query: defaults stay out of the URL; the range reads in French", () => {
  assertEquals(queryString(DEFAULT_LIST_QUERY), "");
  assertEquals(
    queryString({ ...DEFAULT_LIST_QUERY, search: " Dupont ", from: "2026-01-01", page: 2, sort: "totalHt" }),
    "?search=Dupont&from=2026-01-01&page=2&sort=totalHt",
  );
  assertEquals(rangeLabel(0, 1, 25), "Aucun devis");
  assertEquals(rangeLabel(53, 3, 25), "51–53 sur 53");
});

// ---------------------------------------------------------------------------------------------------
// Access.

httpTest("deal screens: anonymous visitors are sent to the login page and back", async () => {
  const visitor = new Client({ ip: freshIp() });
  for (const path of [...ADMIN_PAGES, ...PARTNER_PAGES, "/dashboard/admin/devis?search=x&page=2"]) {
    const res = await visitor.get(path);
    assertEquals(res.status, 303, path);
    assertEquals(res.headers.get("location"), `/login?redirect=${encodeURIComponent(path)}`, path);
  }
});

httpTest("deal screens: each page is refused (403) to the other roles", async () => {
  const cases: [string, string[]][] = [
    [PARTNER, ADMIN_PAGES],
    [CUSTOMER, [...ADMIN_PAGES, ...PARTNER_PAGES]],
    [ADMIN, PARTNER_PAGES],
  ];
  for (const [email, paths] of cases) {
    const client = await loggedIn(email);
    for (const path of paths) {
      const res = await client.get(path);
      assertEquals(res.status, 403, `${email} ${path}`);
      assert(res.text.includes("Vous n'avez pas accès à cette page."), `${email} ${path}: French message`);
      assert(!res.text.includes('data-island="AdminDealsList"'), "no data leaks into the error page");
    }
  }
});

httpTest("deal screens: each role's side menu links its pages", async () => {
  const partner = await loggedIn(PARTNER);
  const partnerMenu = sideMenu((await partner.get("/dashboard/partenaire/devis")).text);
  for (
    const label of ["Mon tableau de bord", "Mes devis", "Ma grille tarifaire", "Mes cocktails", "Mon profil"]
  ) {
    assert(partnerMenu.includes(label), `partner sees ${label}`);
  }
  assert(!partnerMenu.includes("Mes demandes de devis en cours"), "not the customer's page");
  assert(/href="\/dashboard\/partenaire\/devis"[^>]*aria-current="page"/.test(partnerMenu), "current page");

  const admin = await loggedIn(ADMIN);
  const adminMenu = sideMenu((await admin.get("/dashboard/admin/devis/parametres")).text);
  assert(
    /href="\/dashboard\/admin\/devis"[^>]*aria-current="page"/.test(adminMenu),
    "admin's 'Devis', current",
  );
  assert(!adminMenu.includes("Mes cocktails"));

  const customer = await loggedIn(CUSTOMER);
  const customerMenu = sideMenu((await customer.get("/dashboard")).text);
  assert(customerMenu.includes("Mes demandes de devis en cours"));
  // The customer's own 'Mes devis', never the partner's or the admin's pages.
  assert(customerMenu.includes('href="/dashboard/client/devis"'), "the customer's quotes");
  assert(customerMenu.includes('href="/dashboard/client/reglements"'), "the customer's payments");
  assert(
    !customerMenu.includes("/dashboard/partenaire/") && !customerMenu.includes("/dashboard/admin/devis"),
    "no partner or admin page",
  );
});

// ---------------------------------------------------------------------------------------------------
// The admin list.

httpTest("admin list page: tabs, search box and filters, rendered by the server", async () => {
  const admin = await loggedIn(ADMIN);
  const res = await admin.get("/dashboard/admin/devis");
  assertEquals(res.status, 200);
  for (
    const text of [
      "Liste des devis",
      "Paramètres",
      "Grille tarifaire",
      "Recherche par client, partenaire ou ID...",
    ]
  ) {
    assert(res.text.includes(text), text);
  }
  assert(res.text.includes('href="/dashboard/admin/devis/parametres"'));
  assert(res.text.includes('href="/dashboard/admin/devis/grille-tarifaire"'));
  assert(/aria-current="page"[^>]*>Liste des devis/.test(res.text), "current tab");
  assert(res.text.includes('name="from"') && res.text.includes('name="to"'), "date filters");
  assert(res.text.includes("Réinitialiser"));
  assert(res.text.includes('data-island="AdminDealsList"'));
});

httpTest("admin list page: search, date filters, pages and sort answer like the API", async () => {
  const admin = await loggedIn(ADMIN);
  const name = unique("Ecranlist");
  const guests = [20, 80, 50, 140, 35];
  const deals = [];
  for (const n of guests) deals.push(await requestDeal(name, n));
  // Creation days: oldest first.
  const days = ["2026-01-05", "2026-01-20", "2026-02-03", "2026-02-18", "2026-03-01"];
  for (const [i, deal] of deals.entries()) await backdate(deal.id, days[i]);
  const ids = deals.map((d) => d.id);
  const newestFirst = [...ids].reverse();
  const page = async (query: string) => {
    const res = await admin.get(`/dashboard/admin/devis?search=${encodeURIComponent(name)}${query}`);
    assertEquals(res.status, 200, `${query}: ${res.text.slice(0, 200)}`);
    return res.text;
  };
  const api = async (query: string) =>
    adminListPage(ok(await admin.get(`/api/deal/index?search=${encodeURIComponent(name)}${query}`), query));

  // Default: created_at descending, everything on one page.
  const all = await page("");
  assertEquals(rowIds(all), newestFirst);
  assertEquals(islandProps(all, "AdminDealsList").total, 5);
  assert(all.includes("1–5 sur 5"), "range");
  assertEquals((await api("")).items.map((d: Json) => d.id), newestFirst, "the API agrees");

  // The search is case-insensitive; another name finds none of them.
  const upper = await admin.get(`/dashboard/admin/devis?search=${encodeURIComponent(name.toUpperCase())}`);
  assertEquals(rowIds(upper.text), newestFirst);
  const none = await admin.get(`/dashboard/admin/devis?search=${unique("personne")}`);
  assertEquals(rowIds(none.text), []);
  assert(none.text.includes("Aucun devis ne correspond à votre recherche."));

  // Creation-date filters (the dates' second choice, dateField=createdAt), both ends included; empty
  // fields (a form sent without JavaScript) ignored.
  const created = "&dateField=createdAt";
  assertEquals(rowIds(await page(`${created}&from=2026-01-20&to=2026-02-18`)), [ids[3], ids[2], ids[1]]);
  assertEquals(rowIds(await page(`${created}&from=2026-02-04`)), [ids[4], ids[3]]);
  assertEquals(rowIds(await page(`${created}&to=2026-01-19`)), [ids[0]]);
  assertEquals(rowIds(await page("&from=&to=&sort=")), newestFirst);
  assertEquals((await api(`${created}&from=2026-01-20&to=2026-02-18`)).items.map((d: Json) => d.id), [
    ids[3],
    ids[2],
    ids[1],
  ]);

  // Pages of two: totals on every page, the last page holds the rest.
  const first = await page("&perPage=2");
  assertEquals(rowIds(first), newestFirst.slice(0, 2));
  assert(first.includes("1–2 sur 5") && first.includes("Page 1 sur 3"));
  assert(
    first.includes(`href="/dashboard/admin/devis?search=${name}&amp;page=2&amp;perPage=2"`),
    "next page link",
  );
  assertEquals(rowIds(await page("&perPage=2&page=2")), newestFirst.slice(2, 4));
  const last = await page("&perPage=2&page=3");
  assertEquals(rowIds(last), newestFirst.slice(4));
  assert(last.includes("5–5 sur 5"));
  assertEquals(islandProps(last, "AdminDealsList").query.page, 3);
  const apiPage = await api("&perPage=2&page=3");
  assertEquals([apiPage.total, apiPage.page, apiPage.perPage, apiPage.items.length], [5, 3, 2, 1]);

  // Sort: oldest first, by amount (more guests cost more), by id.
  assertEquals(rowIds(await page("&sort=createdAt&direction=asc")), ids);
  const byAmount = [...deals.keys()].sort((a, b) => guests[b] - guests[a]).map((i) => ids[i]);
  assertEquals(rowIds(await page("&sort=totalHt")), byAmount);
  assertEquals(rowIds(await page("&sort=totalHt&direction=asc")), [...byAmount].reverse());
  assertEquals(rowIds(await page("&sort=id&direction=asc")), [...ids].sort((a, b) => a - b));
  const sorted = await page("&sort=totalHt&direction=asc");
  assertEquals(islandProps(sorted, "AdminDealsList").query.sort, "totalHt");
  assert(/aria-sort="ascending"/.test(sorted), "the sorted column says so");

  // A bad filter is a French 4xx, never a 500.
  const bad = await admin.get("/dashboard/admin/devis?from=2026-02-30");
  assertEquals(bad.status, 422);
  assert(bad.text.includes("La recherche est invalide."));
  refused(await admin.get("/api/deal/index?sort=secret"), 422, "La recherche est invalide.");
});

httpTest(
  "admin list page: columns, links, the partner, paid amounts; a paid deal cannot be deleted",
  async () => {
    const admin = await loggedIn(ADMIN);
    const name = unique("Ecrancols");
    const a = await requestDeal(name, 60, "2027-06-12");
    const b = await requestDeal(name, 30);
    ok(await admin.patch(`/api/deal/${a.id}`, { company: await userIdOf(PARTNER2), hubspotId: "HS-4242" }));
    // A deposit paid by hand: the list shows it.
    ok(await admin.patch(`/api/deal/${a.id}`, { status: "send" }), "status");
    ok(await admin.post(`/api/deal/${a.id}/payments`, { kind: "deposit", amount: 123.45 }), "deposit");

    const html = (await admin.get(`/dashboard/admin/devis?search=${name}`)).text;
    assertEquals(rowIds(html), [b.id, a.id]);
    const row = html.slice(
      html.indexOf(`data-deal-id="${a.id}"`),
      html.indexOf("</tr>", html.indexOf(`data-deal-id="${a.id}"`)),
    );
    assert(row.includes(`#${a.id}`) && row.includes("HubSpot HS-4242"), "id and HubSpot id");
    assert(row.includes("Jeanne " + name), "customer");
    assert(row.includes("12/06/2027"), "service date DD/MM/YYYY");
    assert(row.includes(">60<"), "guests");
    assert(row.includes("Anniversaire"), "event type");
    assert(row.includes("Mixologie Events"), "partner");
    assert(/Acompte payé : <span[^>]*>123,45\s€/.test(row), `paid amount: ${row}`);
    assert(row.includes(`href="/deal/show/${a.token}"`), "public page");
    assert(row.includes(`href="/dashboard/espace-partenaire/deal/${a.id}"`), "edit page");
    assert(
      row.includes(`href="/quote/download/${a.id}"`),
      "download quote (tests/http/backoffice_billing_test.ts)",
    );
    const props = islandProps(html, "AdminDealsList");
    const itemA = props.rows.find((r: Json) => r.id === a.id);
    assertEquals([itemA.depositAmount, itemA.companyName, itemA.serviceDate], [
      12345,
      "Mixologie Events",
      "2027-06-12",
    ]);

    // Delete: a paid deal answers 409 in French; an unpaid one goes.
    refused(await admin.delete(`/api/deal/${a.id}`), 409, "Un devis payé ne peut pas être supprimé.");
    assertEquals(ok(await admin.delete(`/api/deal/${b.id}`)).status, "success");
    assertEquals(rowIds((await admin.get(`/dashboard/admin/devis?search=${name}`)).text), [a.id]);
  },
);

// ---------------------------------------------------------------------------------------------------
// The partner's quotes.

httpTest("'Mes devis': the partner's deals with their links, none of the others'", async () => {
  const admin = await loggedIn(ADMIN);
  const name = unique("Ecranpart");
  const mine = await requestDeal(name, 45, "2027-09-04");
  const notSent = await requestDeal(name, 45);
  const others = await requestDeal(name, 45);
  const partnerId = await userIdOf(PARTNER);
  ok(await admin.patch(`/api/deal/${mine.id}`, { company: partnerId }));
  ok(await admin.post(`/api/deal/${mine.id}/send-to-partner`));
  ok(await admin.patch(`/api/deal/${notSent.id}`, { company: partnerId }));
  ok(await admin.patch(`/api/deal/${others.id}`, { company: await userIdOf(PARTNER2) }));
  ok(await admin.post(`/api/deal/${others.id}/send-to-partner`));

  const partner = await loggedIn(PARTNER);
  const res = await partner.get("/dashboard/partenaire/devis");
  assertEquals(res.status, 200);
  for (
    const header of ["# Demande", "Client", "Date presta", "Nb de pax", "Type d'evt", "Montant HT", "Statut"]
  ) {
    // Static template text may carry its apostrophe as an entity.
    assert(res.text.replaceAll("&#39;", "'").includes(`>${header}<`), header);
  }
  const ids = rowIds(res.text);
  assert(ids.includes(mine.id), "its sent deal");
  assert(!ids.includes(notSent.id), "not a deal still in 'start'");
  assert(!ids.includes(others.id), "not another partner's deal");
  const row = res.text.slice(res.text.indexOf(`data-deal-id="${mine.id}"`));
  assert(row.includes(`href="/deal/show/${mine.token}"`) && row.includes("Voir sur le site"));
  assert(
    row.includes(`href="/dashboard/espace-partenaire/deal/${mine.id}"`) && row.includes("Editer/Détails"),
  );
  assert(row.includes("04/09/2027") && row.includes("Nouvelle demande"));
  assert(!res.text.includes("<script"), "a page without islands ships no JavaScript");
  assert(!res.text.includes("Partenaire</th>"), "no partner column for a partner");
});

// ---------------------------------------------------------------------------------------------------
// Settings.

httpTest("'Paramètres': the saved values are shown back, and bad commission tiers are refused", async () => {
  const admin = await loggedIn(ADMIN);
  const original = {
    settings: ok(await admin.get("/api/settings/deviseur_settings")).results.value,
    field1: ok(await admin.get("/api/settings/deviseur_custom_field_1")).results.value,
    flag: ok(await admin.get("/api/settings/deviseur_show_custom_field_2_on_invoice")).results.value,
  };
  try {
    const settings = (original.settings as Json[]).map((s) =>
      s.id === "commission_rate"
        ? { ...s, value: 12.5 }
        : s.id === "quote_validity_days"
        ? { ...s, value: 45 }
        : s
    );
    ok(await admin.patch("/api/settings/deviseur_settings", { value: settings, type: "json" }));
    const tiers = [{ from: 0, to: 1500, cost: 40 }, { from: 1501, to: 999999, cost: 90.5 }];
    ok(await admin.patch("/api/settings/deviseur_fixed_commission_tiers", { value: tiers, type: "json" }));
    ok(
      await admin.patch("/api/settings/deviseur_custom_field_1", {
        value: "<p>Conditions <strong>spéciales</strong></p>",
      }),
    );
    ok(await admin.patch("/api/settings/deviseur_show_custom_field_2_on_invoice", { value: true }));

    const res = await admin.get("/dashboard/admin/devis/parametres");
    assertEquals(res.status, 200);
    for (
      const text of [
        "Commission fixe",
        "Description",
        "Champ libre 1",
        "Champ libre 2",
        "Texte à côté de la signature",
        "Sauvegarder les paramètres",
        "Afficher sur le devis",
        "Afficher sur la facture",
      ]
    ) {
      assert(res.text.includes(text), text);
    }
    assert(/aria-current="page"[^>]*>Paramètres/.test(res.text), "current tab");
    const props = islandProps(res.text, "DeviseurSettingsForm");
    assertEquals(props.settings.find((s: Json) => s.id === "commission_rate").value, 12.5);
    assertEquals(props.commissionTiers, tiers);
    assertEquals(props.texts.deviseur_custom_field_1, "<p>Conditions <strong>spéciales</strong></p>");
    assertEquals(props.flags.deviseur_show_custom_field_2_on_invoice, true);
    // The inputs carry the values (the form reads right before its script runs).
    assert(/id="deviseur-commission_rate"[^>]*value="12.5"/.test(res.text), "numeric setting in its input");
    assert(res.text.includes(">%<"), "its suffix");
    assert(/id="commission-1-cost"[^>]*value="90.5"/.test(res.text), "commission tier in its row");
    assert(/name="deviseur_show_custom_field_2_on_invoice"[^>]*checked/.test(res.text), "checkbox checked");

    // Commission tiers the server refuses, with the spec's messages.
    const bad = async (value: unknown) =>
      await admin.patch("/api/settings/deviseur_fixed_commission_tiers", { value });
    refused(await bad([{ from: 0, to: 1000, cost: 50 }, { from: 1500, to: 3000, cost: 80 }]), 422, GAP);
    const overlap = refused(
      await bad([{ from: 0, to: 1000, cost: 50 }, { from: 900, to: 3000, cost: 80 }]),
      422,
      NOT_ABOVE,
    );
    assertEquals(overlap.errors, { tiers: NOT_ABOVE, _row: "1" });
    refused(await bad([{ from: 10, to: 5, cost: 50 }]), 422, tierMessage("tranche 1"));
    refused(
      await bad([{ from: 0, to: 100, cost: 5 }, { from: 101, to: 200, cost: -1 }]),
      422,
      tierMessage("tranche 2"),
    );
    assertEquals(
      ok(await admin.get("/api/settings/deviseur_fixed_commission_tiers")).results.value,
      tiers,
      "nothing saved",
    );
    // Only admins write settings.
    const partner = await loggedIn(PARTNER);
    refused(
      await partner.patch("/api/settings/deviseur_fixed_commission_tiers", { value: tiers }),
      403,
      "Vous n'avez pas accès à cette page.",
    );
  } finally {
    ok(await admin.patch("/api/settings/deviseur_settings", { value: original.settings }));
    ok(
      await admin.patch("/api/settings/deviseur_fixed_commission_tiers", { value: DEFAULT_COMMISSION_TIERS }),
    );
    ok(await admin.patch("/api/settings/deviseur_custom_field_1", { value: original.field1 }));
    ok(await admin.patch("/api/settings/deviseur_show_custom_field_2_on_invoice", { value: original.flag }));
  }
});

function grid(change: (config: PricingConfig) => void): PricingConfig {
  const config = structuredClone(DEFAULT_PRICING);
  change(config);
  return config;
}

httpTest(
  "'Grille tarifaire': the default grid is shown back; a bad grid answers 422 with the spec's message",
  async () => {
    const admin = await loggedIn(ADMIN);
    const original = ok(await admin.get("/api/settings/deviseur_pricing")).results.value;
    try {
      const saved = grid((c) => {
        c.settings[0].value = 60;
        c.flatFees[1].value = 175.5;
        c.cocktailTiers[0].signature = 9.9;
      });
      const answer = ok(await admin.patch("/api/settings/deviseur_pricing", { value: saved, type: "json" }));
      assertEquals(answer.message, "Grille tarifaire sauvegardée avec succès.");

      const res = await admin.get("/dashboard/admin/devis/grille-tarifaire");
      assertEquals(res.status, 200);
      assert(/aria-current="page"[^>]*>Grille tarifaire/.test(res.text), "current tab");
      assert(res.text.includes("Les partenaires la prennent comme base et peuvent la"), "the note");
      assert(res.text.includes("Sauvegarder les tarifs"));
      const props = islandProps(res.text, "PricingGridForm");
      assertEquals(props.initial, saved);
      assertEquals(props.saveUrl, "/api/settings/deviseur_pricing");
      assert(/id="grid-setting-min_cocktail"[^>]*value="60"/.test(res.text), "a parameter in its input");
      assert(/id="grid-fee-bm"[^>]*value="175.5"/.test(res.text), "a flat fee in its input");
      assert(/id="cocktailTiers-0-signature"[^>]*value="9.9"/.test(res.text), "a tier price in its row");
      assert(res.text.includes("2h00"), "durations show their hours");

      // Validation order: cocktail tiers, then staff, then duration; the first error is answered.
      const patch = (value: unknown) =>
        admin.patch("/api/settings/deviseur_pricing", { value, type: "json" });
      const cocktailGap = refused(
        await patch(grid((c) => {
          c.cocktailTiers[1].from = 150;
          c.staffTiers[0].from = 999;
        })),
        422,
        GAP,
      );
      assertEquals(cocktailGap.errors, { cocktailTiers: GAP, _row: "1" });
      refused(
        await patch(grid((c) => (c.cocktailTiers[2].mocktail = -1))),
        422,
        tierMessage("tranche de cocktails 3"),
      );
      const staff = refused(
        await patch(grid((c) => {
          c.staffTiers[0].to = 0;
          c.durationTiers[0].cost = -5;
        })),
        422,
        tierMessage("tranche de staff 1"),
      );
      assertEquals(staff.errors._row, "0");
      refused(
        await patch(grid((c) => c.staffTiers.push({ fromGuests: 90000, toGuests: 200000, staffCount: 5 }))),
        422,
        NOT_ABOVE,
      );
      refused(await patch(grid((c) => (c.durationTiers[1].from = 100))), 422, NOT_ABOVE);
      refused(
        await patch(grid((c) => (c.durationTiers[3].cost = Number.NaN))),
        422,
        tierMessage("tranche de durée 4"),
      );
      assertEquals(
        ok(await admin.get("/api/settings/deviseur_pricing")).results.value,
        saved,
        "nothing saved",
      );
      // New staff tiers use fromGuests/toGuests/staffCount: accepted.
      ok(
        await patch(grid((c) => {
          c.staffTiers[3].to = 500;
          c.staffTiers.push({ fromGuests: 501, toGuests: 100000, staffCount: 6 });
        })),
      );
    } finally {
      ok(await admin.patch("/api/settings/deviseur_pricing", { value: original, type: "json" }));
    }
  },
);

httpTest(
  "'Ma grille tarifaire': the default grid until the partner saves its own; only its own",
  async () => {
    const partner2 = await loggedIn(PARTNER2);
    const partner2Id = await userIdOf(PARTNER2);
    const partnerId = await userIdOf(PARTNER);
    const { db } = await testEnv();
    const before = await systemQuery<{ value: unknown }>(
      db,
      "select value from public.company_settings where user_id = $1 and name = 'deviseur_pricing'",
      [partner2Id],
    );
    try {
      await systemQuery(
        db,
        "delete from public.company_settings where user_id = $1 and name = 'deviseur_pricing'",
        [
          partner2Id,
        ],
      );
      const defaults = ok(await partner2.get("/api/settings/deviseur_pricing")).results.value;
      const first = await partner2.get("/dashboard/partenaire/grille-tarifaire");
      assertEquals(first.status, 200);
      assert(first.text.includes("Vous utilisez la grille par défaut"));
      const props = islandProps(first.text, "PricingGridForm");
      assertEquals(props.initial, defaults);
      assertEquals(props.saveUrl, `/api/company/settings/deviseur_pricing/${partner2Id}`);
      assertEquals(props.fallbackUrl, "/api/settings/deviseur_pricing");

      const own = grid((c) => (c.settings[1].value = 1.25));
      const saved = ok(
        await partner2.patch(`/api/company/settings/deviseur_pricing/${partner2Id}`, { value: own }),
      );
      assertEquals(saved.message, "Grille tarifaire sauvegardée avec succès.");
      const again = await partner2.get("/dashboard/partenaire/grille-tarifaire");
      assert(again.text.includes("Vous avez personnalisé votre grille"));
      assertEquals(islandProps(again.text, "PricingGridForm").initial, own);
      assert(/id="grid-setting-nb_cocktail_per_h_per_person"[^>]*value="1.25"/.test(again.text));

      // The server checks a partner's grid too, and refuses another partner's record.
      refused(
        await partner2.patch(`/api/company/settings/deviseur_pricing/${partner2Id}`, {
          value: grid((c) => (c.cocktailTiers[1].from = 99)),
        }),
        422,
        NOT_ABOVE,
      );
      refused(
        await partner2.patch(`/api/company/settings/deviseur_pricing/${partnerId}`, { value: own }),
        403,
        "Vous n'avez pas accès à cette page.",
      );
      refused(
        await partner2.patch("/api/settings/deviseur_pricing", { value: own }),
        403,
        "Vous n'avez pas accès à cette page.",
      );
    } finally {
      await systemQuery(
        db,
        "delete from public.company_settings where user_id = $1 and name = 'deviseur_pricing'",
        [
          partner2Id,
        ],
      );
      if (before[0]) {
        await systemQuery(
          db,
          "insert into public.company_settings (user_id, name, value) values ($1, 'deviseur_pricing', $2::jsonb)",
          [partner2Id, JSON.stringify(before[0].value)],
        );
      }
    }
  },
);

httpTest(
  "'Mes cocktails': the partner's catalogue is shown in its tabs and saved as 'cocktails'",
  async () => {
    const partner2 = await loggedIn(PARTNER2);
    const partner2Id = await userIdOf(PARTNER2);
    const before = ok(await partner2.get(`/api/company/settings/cocktails/${partner2Id}`)).results;
    try {
      const empty = await partner2.get("/dashboard/partenaire/cocktails");
      assertEquals(empty.status, 200);
      for (const tab of ["Signature", "Classique", "Mocktail", "Ajouter un cocktail"]) {
        assert(
          empty.text.includes(tab),
          tab,
        );
      }

      const name = unique("Spritz");
      const catalogue = {
        signature: [{ name, description: "Apérol, prosecco, eau gazeuse" }],
        classic: [{ id: "mojito-1", name: "Mojito", description: "Rhum, menthe, citron vert" }],
        mocktail: [],
      };
      const saved = ok(
        await partner2.patch(`/api/company/settings/cocktails/${partner2Id}`, { value: catalogue }),
      );
      assertEquals(saved.message, "Cocktail sauvegardé avec succès !");
      const stored = saved.results.value;
      assert(
        typeof stored.signature[0].id === "string" && stored.signature[0].id.length > 0,
        "an id is given",
      );
      assertEquals(stored.signature[0].photo, "", "an empty photo by default");

      const page = await partner2.get("/dashboard/partenaire/cocktails");
      const props = islandProps(page.text, "CocktailCatalogue");
      assertEquals(props.userId, partner2Id);
      assertEquals(props.catalogue, stored);
      assert(page.text.includes(name) && page.text.includes("Apérol, prosecco, eau gazeuse"));

      // Name and description are required; another partner's record is out of reach.
      refused(
        await partner2.patch(`/api/company/settings/cocktails/${partner2Id}`, {
          value: { signature: [{ name: "Sans description", description: " " }], classic: [], mocktail: [] },
        }),
        422,
        "Le nom et la description du cocktail sont obligatoires.",
      );
      refused(
        await partner2.patch(`/api/company/settings/cocktails/${await userIdOf(PARTNER)}`, {
          value: catalogue,
        }),
        403,
        "Vous n'avez pas accès à cette page.",
      );
    } finally {
      ok(
        await partner2.patch(`/api/company/settings/cocktails/${partner2Id}`, {
          value: before?.value ?? { signature: [], classic: [], mocktail: [] },
        }),
      );
    }
  },
);
