// The workshops' back office over HTTP: the API under /api/admin/session… and the dashboard screens,
// allowed to admins and refused to anonymous visitors (401 / login), customers and partners (403), an
// impersonating admin acting as the customer included; creating and editing sessions and dates, the
// capacity that moves the places left and cannot drop below what is taken, a date's holds and
// registrations.
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { bookingFields, Client, httpTest, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";

const ADMIN = "admin@example.fr";
const PARTNER = "partenaire@example.fr";
const CUSTOMER = "client@example.fr";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

async function admin(): Promise<Client> {
  const client = new Client();
  await client.login(ADMIN);
  return client;
}

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

httpTest("sessions admin: every path is refused to visitors, customers and partners", async () => {
  const { db } = await testEnv();
  const [date] = await systemQuery<{ uuid: string; session: number }>(
    db,
    "select uuid::text as uuid, session_id as session from public.session_dates limit 1",
  );
  const calls: [string, string, Json?][] = [
    ["GET", "/api/admin/sessions"],
    ["POST", "/api/admin/sessions", { slug: "x", title: "X", city: "Paris" }],
    ["GET", `/api/admin/session/${date.session}`],
    ["PATCH", `/api/admin/session/${date.session}`, { slug: "x", title: "X", city: "Paris" }],
    ["POST", `/api/admin/session/${date.session}/dates`, { dtstart: 2000000000, places: 3, priceTTC: 10 }],
    ["PATCH", `/api/admin/session/date/${date.uuid}`, { dtstart: 2000000000, places: 3, priceTTC: 10 }],
    ["GET", `/api/admin/session/date/${date.uuid}/bookings`],
  ];
  const customer = new Client();
  await customer.login(CUSTOMER);
  const partner = new Client();
  await partner.login(PARTNER);
  for (const [method, path, json] of calls) {
    assertEquals(
      (await new Client().request(method, path, { json })).status,
      401,
      `anonymous ${method} ${path}`,
    );
    assertEquals((await customer.request(method, path, { json })).status, 403, `customer ${method} ${path}`);
    assertEquals((await partner.request(method, path, { json })).status, 403, `partner ${method} ${path}`);
  }
  const page = await new Client().get("/dashboard/admin/ateliers");
  assertEquals(page.status, 303);
  assertMatch(page.headers.get("location") ?? "", /^\/login/);
  assertEquals((await customer.get("/dashboard/admin/ateliers")).status, 403);
  assertEquals((await partner.get(`/dashboard/admin/ateliers/date/${date.uuid}`)).status, 403);
  assertEquals(
    (await partner.request("POST", "/dashboard/admin/ateliers", { form: { title: "x" } })).status,
    403,
  );
  // An admin impersonating a customer acts as that customer.
  const impersonating = await admin();
  const [client] = await systemQuery<{ id: string }>(db, "select id from public.users where email = $1", [
    CUSTOMER,
  ]);
  const switched = await impersonating.post(`/admin/switch/${client.id}`);
  assertEquals(switched.status, 303);
  assertEquals(
    (await impersonating.get("/api/admin/sessions")).status,
    403,
    "impersonating: the customer's rights",
  );
  assertEquals((await impersonating.get("/api/cart")).status, 200, "and the customer's cart");
});

httpTest("sessions admin: create a session and its dates, edit the capacity, read the bookings", async () => {
  const a = await admin();
  const slug = `atelier-${unique()}`;
  const created = await a.post("/api/admin/sessions", {
    slug,
    title: "Atelier whisky",
    city: "Lille",
    description: "Tour d'Écosse en cinq verres.",
    published: true,
  });
  assertEquals(created.status, 200, created.text);
  const id = created.json<Json>().results.id;
  const duplicate = await a.post("/api/admin/sessions", { slug, title: "Autre", city: "Lille" });
  assertEquals(duplicate.status, 422);
  assertEquals(duplicate.json<Json>().errors.slug, "Cette adresse est déjà celle d'un autre atelier.");
  const invalid = await a.post("/api/admin/sessions", { slug: "Pas Bon", title: "", city: "Lille" });
  assertEquals(invalid.status, 422);
  assert(invalid.json<Json>().errors.title && invalid.json<Json>().errors.slug);

  const dtstart = Math.floor(Date.now() / 1000) + 8 * 86400;
  const date = await a.post(`/api/admin/session/${id}/dates`, {
    dtstart,
    places: 4,
    priceTTC: "49,90",
    travelCostTTC: 0,
    additionalCosts: [{ title: "Verre gravé", ht: 5, vat: 20 }],
  });
  assertEquals(date.status, 200, date.text);
  const uuid = date.json<Json>().results.uuid;
  const bad = await a.post(`/api/admin/session/${id}/dates`, {
    dtstart: "demain",
    places: -1,
    priceTTC: "1,234",
  });
  assertEquals(bad.status, 422);
  assertEquals(Object.keys(bad.json<Json>().errors).sort(), ["dtstart", "places", "priceTTC"]);
  const same = await a.post(`/api/admin/session/${id}/dates`, { dtstart, places: 4, priceTTC: 10 });
  assertEquals(same.json<Json>().errors.dtstart, "Cette session a déjà une date à cette heure.");

  // The public sees it, with the price of §9 (49,90 + 5 × 1,2 = 55,90 €).
  const offers = (await new Client().post(`/session/${slug}/dates`, {})).json<Json>().results;
  assertEquals(offers.length, 1);
  assertEquals(offers[0].priceTTC, 49.9);
  assertMatch((await new Client().get(`/session/${slug}`)).text, /55,90\s€/);

  // A visitor holds 3 places; the capacity follows, never below what is taken.
  const visitor = new Client();
  assertEquals(
    (await visitor.post(`/session/${slug}/date/${uuid}`, { ...(await bookingFields(uuid)), quantity: 3 }))
      .status,
    200,
  );
  const fields = { dtstart, priceTTC: 49.9, additionalCosts: [{ title: "Verre gravé", ht: 5, vat: 20 }] };
  const tooLow = await a.patch(`/api/admin/session/date/${uuid}`, { ...fields, places: 2 });
  assertEquals(tooLow.status, 422);
  assertMatch(tooLow.json<Json>().errors.places, /sous les places déjà réservées/);
  assertEquals((await a.patch(`/api/admin/session/date/${uuid}`, { ...fields, places: 10 })).status, 200);
  const bookings = (await a.get(`/api/admin/session/date/${uuid}/bookings`)).json<Json>().results;
  assertEquals(bookings.date.places, 10);
  assertEquals(bookings.date.placesLeft, 7, "the 3 held places stay held");
  assertEquals(bookings.holds.length, 1);
  assertEquals(bookings.holds[0].quantity, 3);
  assertEquals(bookings.holds[0].customer, null, "an anonymous visitor's hold");
  assertEquals(bookings.registrations, []);

  // Unpublishing hides it from the public.
  assertEquals(
    (await a.patch(`/api/admin/session/${id}`, {
      slug,
      title: "Atelier whisky",
      city: "Lille",
      published: false,
    }))
      .status,
    200,
  );
  assertEquals((await new Client().get(`/session/${slug}`)).status, 404);
  assertEquals((await a.get(`/api/admin/session/${id}`)).json<Json>().results.published, false);
  assertEquals((await a.get("/api/admin/session/999999999")).status, 404);
});

httpTest("sessions admin: the dashboard screens list, create and edit through forms", async () => {
  const a = await admin();
  const list = await a.get("/dashboard/admin/ateliers");
  assertEquals(list.status, 200);
  assertMatch(list.text, /Atelier Mojito et rhums du monde/);
  assertMatch(list.text, /href="\/dashboard\/admin\/ateliers"[^>]*>[\s\S]*?Ateliers cocktails/);
  const slug = `atelier-${unique()}`;
  const created = await a.request("POST", "/dashboard/admin/ateliers", {
    form: { slug, title: "Atelier tiki", city: "Nice", description: "", published: "1" },
  });
  assertEquals(created.status, 303);
  const page = created.headers.get("location")!;
  assertMatch(page, /^\/dashboard\/admin\/ateliers\/\d+$/);
  const added = await a.request("POST", `${page}/dates`, {
    form: {
      dtstart: "2031-06-12T19:30",
      places: "8",
      priceTTC: "45",
      travelCostTTC: "",
      costTitle: "",
      state: "open",
    },
  });
  assertEquals(added.status, 303);
  const detail = await a.get(page);
  assertMatch(detail.text, /12\/06\/2031 19:30/, "the form's time is Paris time");
  assertMatch(detail.text, /8 \/ 8/);
  const refused = await a.request("POST", `${page}/dates`, {
    form: { dtstart: "", places: "x", priceTTC: "45" },
  });
  assertEquals(refused.status, 303);
  assertMatch((await a.get(page)).text, /Date et heure invalides/);
  const { db } = await testEnv();
  const [date] = await systemQuery<{ uuid: string }>(
    db,
    "select d.uuid::text as uuid from public.session_dates d join public.workshop_sessions s on s.id = d.session_id where s.slug = $1",
    [slug],
  );
  const datePage = await a.get(`/dashboard/admin/ateliers/date/${date.uuid}`);
  assertEquals(datePage.status, 200);
  assertMatch(datePage.text, /Aucune place gardée en panier/);
  // The demo's full date shows its registrations and their statuses.
  const [full] = await systemQuery<{ uuid: string }>(
    db,
    `select d.uuid::text as uuid from public.session_dates d join public.workshop_sessions s on s.id = d.session_id
     where s.slug = 'atelier-mojito-paris' and d.places_left = 0`,
  );
  const fullPage = await a.get(`/dashboard/admin/ateliers/date/${full.uuid}`);
  assertMatch(fullPage.text, /client@example\.fr/);
  assertMatch(fullPage.text, /Facturé/);
  assertMatch(fullPage.text, /En attente/);
});
