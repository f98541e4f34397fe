// The deal detail page (spec 001 §2.1-2.5) at /dashboard/espace-partenaire/deal/{id}: who may open it
// (admins, the deal's partner once the deal was sent to it; 404 for another partner, 403 for a
// customer, the login page for a visitor), what it renders, and that a partner's page — its HTML and
// its islands' props — never carries the customer's email, phone or addresses while the admin has
// not shown them.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, type TestResponse } from "../support/app.ts";
import {
  ADMIN,
  anonymous,
  dealForPartner,
  dealOf,
  forceStatus,
  type Json,
  loggedIn,
  PARTNER,
  PARTNER2,
  registeredCustomer,
} from "./deals_fixtures_test.ts";
import { DEAL_MESSAGES } from "../../lib/deals/rules.ts";

const pageOf = (id: number | string) => `/dashboard/espace-partenaire/deal/${id}`;

/** preact-render-to-string escapes text and attributes: read them back as the browser would. */
function decode(html: string): string {
  return html
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The serialised props of an island of the page. */
function islandProps(page: TestResponse, name: string): Json {
  const match = new RegExp(`data-island="${name}" data-props="([^"]*)"`).exec(page.text);
  assert(match, `the page has the island ${name}`);
  return JSON.parse(decode(match[1]));
}

/** The national and international spellings of a French phone number in E.164. */
function phoneSpellings(e164: string): string[] {
  const national = `0${e164.replace(/^\+33/, "")}`;
  return [e164, national, national.replace(/(\d{2})(?=\d)/g, "$1 "), e164.replace(/^\+/, "")];
}

async function openPage(client: Client, id: number, status = 200): Promise<TestResponse> {
  const page = await client.get(pageOf(id));
  assertEquals(page.status, status, `page ${id}: ${page.text.slice(0, 300)}`);
  return page;
}

httpTest("deal page: an anonymous visitor is sent to the login page and back", async () => {
  const res = await anonymous().get(pageOf(12));
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), `/login?redirect=${encodeURIComponent(pageOf(12))}`);
});

httpTest("deal page: the admin sees the header, the tabs and every customer detail", async () => {
  const admin = await loggedIn(ADMIN);
  const deal = await dealForPartner(admin, PARTNER);
  await admin.patch(`/api/deal/${deal.id}`, { hubspotId: "HS-4242" });
  const page = await openPage(admin, deal.id);
  const html = decode(page.text);
  assert(page.contentType.includes("text/html"));
  for (
    const text of [
      "Retour à la liste des devis",
      'href="/dashboard/admin/devis"',
      "Nouvelle demande",
      "Créé le ",
      "HubSpot : HS-4242",
      "Aperçu",
      "Présentation",
      "Paramètres",
      "Paramètres admin",
      "Demande client",
      "Informations principales",
      "Informations secondaires",
      "Commentaires Admin",
      "Coordonnées",
      "Lignes du devis",
      "Statut en cours",
      "Indicateurs clés",
      "État des paiements",
      "Devis déjà envoyé au partenaire",
      "Marquer devis accepté",
      String(deal.request.email),
    ]
  ) assert(html.includes(text), `the admin's page shows ${text}`);
  assert(!html.includes("Modifications désactivées"), "no lock chip while unlocked");
  const props = islandProps(page, "DealDetail");
  assertEquals(props.role, "Admin");
  assertEquals(props.backHref, "/dashboard/admin/devis");
  assertEquals(props.deal.id, deal.id);
  assertEquals(props.deal.email, deal.request.email);
  assertEquals(props.deal.properties.adresse_precise, deal.request.adresse_precise);
  assertEquals(props.deal.hubspotId, "HS-4242");
  assertEquals(
    props.history.map((h: Json) => [h.fromStatus, h.toStatus]),
    [[null, "start"], ["start", "new"]],
  );
  assert(props.history.every((h: Json) => typeof h.at === "number"), "history dates as unix seconds");
  const stored = (await admin.get(`/api/company/settings/cocktails/${props.deal.company.id}`)).json<
    { results: { value: { signature: unknown[] } } }
  >().results.value;
  assertEquals(
    props.catalogue.signature.length,
    stored.signature.length,
    "the partner's catalogue for the settings tab",
  );
  assert(props.catalogue.signature.length > 0);
  assert(html.includes(`data-deal-id="${deal.id}"`), "the presentation slot");
  assertEquals(islandProps(page, "DealPresentation").deal.id, deal.id);
  // The creation date reads DD/MM/YYYY HH:mm.
  assert(/Créé le \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/.test(html), "creation date format");
  // The admin always has the chat, in its tab's slot (lib/chat).
  assert(html.includes('id="deal-chat-tab"'), "the chat tab's slot");
  assertEquals(islandProps(page, "DealChat").dealId, deal.id);
  assert(html.includes(`href="/quote/download/${deal.id}"`), "the quote download link");
});

httpTest("deal page: the assigned partner's page never carries hidden customer details", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const customer = await registeredCustomer();
  const deal = await dealForPartner(admin, PARTNER, { client: customer.client });
  const full = dealOf(await admin.get(`/api/deal/get/${deal.id}`));
  const secrets: Record<string, string[]> = {
    email: [String(deal.request.email), customer.email],
    phone: [...phoneSpellings(String(full.phone)), ...phoneSpellings(String(full.customer.phone))],
    address: [customer.name, customer.siren, customer.address],
    service: [String(deal.request.adresse_precise)],
  };

  const page = await openPage(partner, deal.id);
  const html = decode(page.text);
  for (const [kind, values] of Object.entries(secrets)) {
    for (const value of values) {
      assert(!html.includes(value), `the partner's page hides the ${kind} ${value}`);
    }
  }
  for (
    const text of ["Retour à mes devis", 'href="/dashboard/partenaire/devis"', "Coordonnées", "Jeanne"]
  ) assert(html.includes(text), `the partner's page shows ${text}`);
  for (
    const text of [
      "Paramètres admin",
      "HubSpot",
      'data-testid="mark-accepted"',
      'data-testid="send-to-partner"',
    ]
  ) {
    assert(!html.includes(text), `the partner's page has no ${text}`);
  }
  assert(html.includes("Valider ma disponibilité et les cocktails"), "the partner's validation button");
  assert(html.includes(DEAL_MESSAGES.noComment), "no admin comment yet");
  const props = islandProps(page, "DealDetail");
  assertEquals(props.role, "Company");
  assertEquals([props.deal.email, props.deal.phone], [null, null]);
  assertEquals(props.deal.properties.adresse_precise, undefined);
  const c = props.deal.customer;
  assertEquals([c.email, c.phone, c.name, c.siren, c.address1, c.zipcode, c.city], [
    null,
    null,
    null,
    null,
    null,
    null,
    null,
  ]);
  assertEquals(props.deal.hubspotId, null);
  const presentation = islandProps(page, "DealPresentation");
  assertEquals([presentation.deal.email, presentation.deal.phone], [null, null]);

  // Shown by the admin, the email appears — and nothing else.
  dealOf(await admin.patch(`/api/deal/${deal.id}`, { adminSettings: { showEmailForPartner: true } }));
  const shown = decode((await openPage(partner, deal.id)).text);
  assert(shown.includes(String(deal.request.email)), "the email once shown");
  for (const value of [...secrets.phone, ...secrets.address, ...secrets.service]) {
    assert(!shown.includes(value), `still hidden: ${value}`);
  }
});

httpTest(
  "deal page: locked edits show the banner, and the partner the 'Modifications désactivées' chip",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const deal = await dealForPartner(admin, PARTNER);
    dealOf(
      await admin.patch(`/api/deal/${deal.id}`, {
        adminSettings: { disableQuoteEdits: true },
        adminComments: "Appeler le client avant jeudi",
      }),
    );
    const partnerHtml = decode((await openPage(partner, deal.id)).text);
    assert(partnerHtml.includes(DEAL_MESSAGES.locked), "the lock banner");
    assert(partnerHtml.includes(DEAL_MESSAGES.editsDisabledChip), "the partner's chip");
    assert(partnerHtml.includes("Appeler le client avant jeudi"), "the admin's comment, read-only");
    assert(!partnerHtml.includes('data-testid="open-refuse"'), "no refuse button while locked");
    const adminHtml = decode((await openPage(admin, deal.id)).text);
    assert(adminHtml.includes(DEAL_MESSAGES.locked), "the admin sees the banner too");
    assert(!adminHtml.includes(DEAL_MESSAGES.editsDisabledChip), "but not the partner's chip");
    assert(!adminHtml.includes('data-testid="open-refuse"'), "nor a refuse button while locked");
  },
);

httpTest("deal page: a refused deal shows its banner", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const deal = await dealForPartner(admin, PARTNER);
  await forceStatus(admin, deal.id, "refused_partner");
  const html = decode((await openPage(partner, deal.id)).text);
  assert(
    html.includes("Devis refusé par le partenaire : Partenaire indisponible à cette date"),
    "refused banner",
  );
  assert(!html.includes('data-testid="open-refuse"'), "no refuse button once refused");
});

httpTest("deal page: another partner gets 404, a customer 403, unknown or malformed ids 404", async () => {
  const admin = await loggedIn(ADMIN);
  const customer = await registeredCustomer();
  const deal = await dealForPartner(admin, PARTNER, { client: customer.client });
  const other = await loggedIn(PARTNER2);
  const page404 = await openPage(other, deal.id, 404);
  assert(page404.contentType.includes("text/html"), "an error page, not JSON");
  assert(!decode(page404.text).includes(String(deal.request.email)), "nothing of the deal");
  // Even the deal's own customer: the back office is for admins and partners.
  await openPage(customer.client, deal.id, 403);
  for (const id of ["abc", "0", "-1", "1.5", "99999999999"]) {
    assertEquals((await admin.get(pageOf(id))).status, 404, `id ${id}`);
  }
});

httpTest("deal page: a partner cannot open a deal not yet sent to it; the admin can", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const deal = await dealForPartner(admin, PARTNER, { send: false });
  await openPage(partner, deal.id, 404);
  const html = decode((await openPage(admin, deal.id)).text);
  assert(html.includes("Envoyer le devis au partenaire"), "the admin can send it");
  assert(html.includes("Devis généré"), "status start");
});

httpTest("deal page: the islands' bundles load", async () => {
  const admin = await loggedIn(ADMIN);
  const deal = await dealForPartner(admin, PARTNER);
  const page = await openPage(admin, deal.id);
  const scripts = [...page.text.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]);
  const main = scripts.find((s) => /\/build\/islands\/DealDetail-[\w-]+\.js$/.test(s));
  assert(main, `the DealDetail bundle is linked: ${scripts.join(", ")}`);
  assert(
    scripts.some((s) => /\/build\/islands\/DealPresentation-[\w-]+\.js$/.test(s)),
    "and DealPresentation's",
  );
  for (const src of scripts) {
    const res = await admin.get(src);
    assertEquals(res.status, 200, src);
    assert(res.contentType.includes("javascript"), `${src}: ${res.contentType}`);
  }
  const bundle = await admin.get(main);
  assert(bundle.text.includes("Voir le statut"), "the bundle is the deal page's");
});
