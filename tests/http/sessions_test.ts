// Cocktail-workshop sessions over HTTP (spec 000 §2-§5, §7-§9), PGlite and PostgreSQL: the catalogue,
// a session's page and dates (server-rendered, `?date=` preselecting), POST …/dates with its offers,
// adding to the cart (anonymous by cookie, customers in their own cart; partners and admins refused),
// every refusal ('COMPLET', 'BIENTÔT DISPO', quantity, a moved date), the cart API and page, the cart
// joining the account at login, hold expiry through the job registry, and seat alerts.
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { bookingFields, Client, httpTest, registrationPayload, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { JOBS } from "../../lib/jobs/registry.ts";
import { statementAs, systemActor } from "../../lib/actor.ts";

const ADMIN = "admin@example.fr";
const PARTNER = "partenaire@example.fr";
const CUSTOMER = "client@example.fr";
const CUSTOMER2 = "client2@example.fr";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

let sessionCounter = 0;
/** A published session of this test run, with the dates given (days from now, places, …). */
async function makeSession(
  dates: { inDays: number; places: number; soon?: boolean; priceTTC?: number; state?: string }[],
  published = true,
) {
  const { db } = await testEnv();
  const slug = `test-atelier-${Date.now().toString(36)}-${++sessionCounter}`;
  const [session] = await systemQuery<{ id: number }>(
    db,
    `insert into public.workshop_sessions (slug, title, city, published) values ($1, 'Atelier test', 'Nantes', $2)
     returning id`,
    [slug, published],
  );
  const uuids: string[] = [];
  for (const d of dates) {
    const [row] = await systemQuery<{ uuid: string }>(
      db,
      `insert into public.session_dates (session_id, dtstart, places, places_left, price_ttc, travel_cost_ttc,
         additional_costs, soon, state)
       values ($1, date_trunc('minute', now()) + make_interval(days => $2), $3, $3, $4, 500,
         '[{"title":"Kit","ht":1000,"vat":20}]', $5, $6) returning uuid::text as uuid`,
      [session.id, d.inDays, d.places, d.priceTTC ?? 4000, d.soon ?? false, d.state ?? "open"],
    );
    uuids.push(row.uuid);
  }
  return { id: session.id, slug, uuids };
}

async function placesLeft(uuid: string): Promise<number> {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ n: number }>(
    db,
    "select places_left as n from public.session_dates where uuid = $1",
    [uuid],
  );
  return row.n;
}

async function offersOf(client: Client, slug: string, body: Json = {}): Promise<Json[]> {
  const response = await client.post(`/session/${slug}/dates`, body);
  assertEquals(response.status, 200, response.text);
  const json = response.json<Json>();
  assertEquals(json.status, "success");
  return json.results;
}

/** Adds `uuid` to the cart with the form's `session` and `timestamp` unless `body` gives its own. */
const book = async (client: Client, slug: string, uuid: string, body: Json) =>
  client.post(`/session/${slug}/date/${uuid}`, { ...(await bookingFields(uuid)), ...body });

httpTest(
  "sessions: the catalogue lists the published sessions with their next dates and price from",
  async () => {
    const hidden = await makeSession([{ inDays: 5, places: 3 }], false);
    const response = await new Client().get("/sessions");
    assertEquals(response.status, 200);
    assertMatch(response.text, /Atelier Mojito et rhums du monde/);
    assertMatch(response.text, /Atelier mocktails sans alcool/);
    // Gin tonic: 55 € + the kit 10 € HT at 20 % = 67 €.
    assertMatch(response.text, /À partir de 67,00\s€ par personne/);
    assert(!response.text.includes(hidden.slug), "an unpublished session is not listed");
    // The site menu leads there.
    const home = await new Client().get("/");
    assertMatch(home.text, /href="\/sessions"[^>]*>Ateliers cocktails/);
  },
);

httpTest("sessions: the page renders dates, places and prices on the server; ?date= preselects", async () => {
  const s = await makeSession([
    { inDays: 3, places: 5 },
    { inDays: 4, places: 1 },
    { inDays: 5, places: 0 },
    { inDays: 6, places: 8, soon: true },
    { inDays: 7, places: 8, state: "closed" },
  ]);
  const offers = await offersOf(new Client(), s.slug);
  // A closed date shows 'COMPLET' (no place, no alert: the organiser stopped its sales).
  assertEquals(offers.length, 5);
  assertEquals([offers[4].places, offers[4].closed], [0, true]);
  assertEquals(offers.slice(0, 4).some((o) => "closed" in o), false);
  const page = await new Client().get(`/session/${s.slug}?date=${offers[1].dtstart}`);
  assertEquals(page.status, 200);
  assertMatch(page.text, /Dates de la session/);
  assertMatch(page.text, /5 places restantes/);
  assertMatch(page.text, /1 place restante/);
  assertMatch(page.text, /COMPLET/);
  assertMatch(page.text, /BIENTÔT DISPO/);
  // The 'BIENTÔT DISPO' date shows its places like every other date (000 §2).
  assertMatch(page.text, /8 places restantes/);
  assertMatch(page.text, /TON CHOIX/);
  // 40 € + 5 € travel + 10 € HT kit at 20 % = 57 € for one place.
  assertMatch(page.text, /57,00\s€/);
  assertMatch(page.text, new RegExp(`<form method="post" action="/session/${s.slug}/date/${s.uuids[0]}"`));
  assertEquals((await new Client().get("/session/pas-de-session")).status, 404);
  assertEquals((await new Client().get("/session/A%20B")).status, 404);
});

httpTest("sessions: an unpublished session is hidden from visitors, visible to admins", async () => {
  const s = await makeSession([{ inDays: 3, places: 5 }], false);
  assertEquals((await new Client().get(`/session/${s.slug}`)).status, 404);
  const customer = new Client();
  await customer.login(CUSTOMER);
  assertEquals((await customer.get(`/session/${s.slug}`)).status, 404);
  assertEquals((await book(new Client(), s.slug, s.uuids[0], { quantity: 1 })).status, 404);
  const admin = new Client();
  await admin.login(ADMIN);
  assertEquals((await admin.get(`/session/${s.slug}`)).status, 200);
});

httpTest("sessions: POST …/dates answers every offer field, filtered by start and end", async () => {
  const s = await makeSession([{ inDays: 3, places: 5 }, { inDays: 10, places: 2 }]);
  const [first, second] = await offersOf(new Client(), s.slug);
  assertEquals(Object.keys(first).sort(), [
    "additionalCosts",
    "dtstart",
    "id",
    "places",
    "popup",
    "priceTTC",
    "quantity",
    "selected",
    "session_id",
    "shareUrl",
    "soon",
    "timestamp",
    "travelCostTTC",
    "url",
    "uuid",
  ]);
  assertEquals(first.url, `/session/${s.slug}/date/${s.uuids[0]}`);
  assertEquals(first.session_id, s.id);
  assertEquals(first.places, 5);
  assertEquals(first.quantity, 1);
  assertEquals(first.priceTTC, 40);
  assertEquals(first.travelCostTTC, 5);
  assertEquals(first.additionalCosts, [{ title: "Kit", ht: 10, vat: 20 }]);
  assertEquals(first.shareUrl, `http://localhost:8000/session/${s.slug}?date=${first.dtstart}`);
  assertEquals([first.selected, first.popup], [false, false]);
  // A link to one date (`date`, and `popup` to add it at once, §4) marks that one only.
  const chosen = await offersOf(new Client(), s.slug, { date: second.dtstart, popup: "1" });
  assertEquals(chosen.map((o) => [o.selected, o.popup]), [[false, false], [true, true]]);
  const later = await offersOf(new Client(), s.slug, { start: first.dtstart + 1 });
  assertEquals(later.map((o) => o.uuid), [second.uuid]);
  const earlier = await offersOf(new Client(), s.slug, { end: String(first.dtstart) });
  assertEquals(earlier.map((o) => o.uuid), [first.uuid]);
  // Form-encoded too.
  const form = await new Client().request("POST", `/session/${s.slug}/dates`, {
    form: { start: String(second.dtstart) },
    headers: { accept: "application/json" },
  });
  assertEquals(form.json<Json>().results.length, 1);
  for (const bad of [{ start: "hier" }, { end: -5 }, { start: 2000, end: 1000 }]) {
    const response = await new Client().post(`/session/${s.slug}/dates`, bad);
    assertEquals(response.status, 422, JSON.stringify(bad));
    assertEquals(response.json<Json>().message, "La période choisie est invalide.");
  }
});

httpTest("sessions: an anonymous visitor books into a cookie cart that holds the places", async () => {
  const s = await makeSession([{ inDays: 3, places: 5 }]);
  const [offer] = await offersOf(new Client(), s.slug);
  const visitor = new Client();
  const added = await book(visitor, s.slug, s.uuids[0], {
    session: offer.session_id,
    timestamp: offer.timestamp,
    quantity: 2,
  });
  assertEquals(added.status, 200, added.text);
  assertEquals(added.json<Json>().message, "Places réservées : elles vous sont gardées pendant 20 minutes.");
  assertEquals(added.json<Json>().results.placesLeft, 3);
  assert(visitor.cookies.get("cart"), "the cart cookie is set");
  assertMatch(added.headers.getSetCookie().join(";"), /cart=[^;]+;.*HttpOnly/i);
  assertEquals(await placesLeft(s.uuids[0]), 3);
  assertEquals((await offersOf(new Client(), s.slug))[0].places, 3, "the offer shows what is left now");

  const cart = (await visitor.get("/api/cart")).json<Json>().results;
  assertEquals(cart.lines.length, 1);
  assertEquals(cart.lines[0].quantity, 2);
  assertEquals(cart.lines[0].total, 11400, "2 × 57 €, in cents");
  assertEquals(cart.total, 11400);
  assert(cart.lines[0].expiresAt - cart.now > 19 * 60 && cart.lines[0].expiresAt - cart.now <= 20 * 60);
  // Another visitor (no cookie, or another cookie) sees an empty cart and cannot touch the line.
  const other = new Client();
  assertEquals((await other.get("/api/cart")).json<Json>().results.lines, []);
  assertEquals((await other.patch(`/api/cart/line/${cart.lines[0].id}`, { quantity: 1 })).status, 404);
  assertEquals((await other.delete(`/api/cart/line/${cart.lines[0].id}`)).status, 404);
  other.cookies.set("cart", "x".repeat(43));
  assertEquals((await other.get("/api/cart")).json<Json>().results.lines, []);
  assertEquals(await placesLeft(s.uuids[0]), 3);
});

httpTest("sessions: full, soon, quantity and a moved date are refused with the spec's words", async () => {
  const s = await makeSession([{ inDays: 3, places: 0 }, { inDays: 4, places: 6, soon: true }, {
    inDays: 5,
    places: 3,
  }]);
  const visitor = new Client();
  const full = await book(visitor, s.slug, s.uuids[0], { quantity: 1 });
  assertEquals(full.status, 409);
  assertEquals(full.json<Json>().message, "COMPLET");
  const soon = await book(visitor, s.slug, s.uuids[1], { quantity: 1 });
  assertEquals(soon.status, 409);
  assertEquals(soon.json<Json>().message, "BIENTÔT DISPO");
  // (null is a missing quantity: see the next test.)
  for (const quantity of [0, 4, -1, 1.5, "deux"]) {
    const response = await book(visitor, s.slug, s.uuids[2], { quantity });
    assertEquals(response.status, 422, String(quantity));
    assertEquals(response.json<Json>().message, "Veuillez choisir entre 1 et 3 places.");
  }
  const moved = await book(visitor, s.slug, s.uuids[2], { quantity: 1, timestamp: 12345 });
  assertEquals(moved.status, 409);
  assertMatch(moved.json<Json>().message, /a changé/);
  const otherSession = await book(visitor, s.slug, s.uuids[2], { quantity: 1, session: 999999 });
  assertEquals(otherSession.status, 409);
  const wrongSlug = await book(visitor, "atelier-mojito-paris", s.uuids[2], { quantity: 1 });
  assertEquals(wrongSlug.status, 404);
  assertEquals((await book(visitor, s.slug, "not-a-uuid", { quantity: 1 })).status, 404);
  const broken = await visitor.request("POST", `/session/${s.slug}/date/${s.uuids[2]}`, {
    body: "{",
    headers: { "content-type": "application/json" },
  });
  assertEquals(broken.status, 400);
  assertEquals(await placesLeft(s.uuids[2]), 3, "nothing was held by a refused request");
});

httpTest(
  "sessions: adding to the cart needs session, timestamp and quantity (422 naming what is missing)",
  async () => {
    const s = await makeSession([{ inDays: 3, places: 4 }]);
    const [offer] = await offersOf(new Client(), s.slug);
    const complete: Json = { session: offer.session_id, timestamp: offer.timestamp, quantity: 1 };
    const visitor = new Client();
    const empty = await visitor.post(`/session/${s.slug}/date/${s.uuids[0]}`, {});
    assertEquals(empty.status, 422, empty.text);
    assertEquals(
      empty.json<Json>().message,
      "Les champs « session », « timestamp » et « quantity » sont requis.",
    );
    assertEquals(empty.json<Json>().errors, {
      session: "Ce champ est requis",
      timestamp: "Ce champ est requis",
      quantity: "Ce champ est requis",
    });
    for (const field of ["session", "timestamp", "quantity"]) {
      for (const missing of [undefined, "", null]) {
        const body = { ...complete, [field]: missing };
        if (missing === undefined) delete body[field];
        const response = await visitor.post(`/session/${s.slug}/date/${s.uuids[0]}`, body);
        assertEquals(response.status, 422, `${field}: ${JSON.stringify(missing)}`);
        assertEquals(response.json<Json>().message, `Le champ « ${field} » est requis.`);
        assertEquals(Object.keys(response.json<Json>().errors), [field]);
      }
    }
    // The form rendered on the server (used without JavaScript) posts all three, enabled; without one of
    // them it goes back to the session page, nothing held.
    const page = (await visitor.get(`/session/${s.slug}`)).text;
    const action = `<form method="post" action="/session/${s.slug}/date/${s.uuids[0]}"`;
    const html = page.slice(page.indexOf(action), page.indexOf("</form>", page.indexOf(action)));
    const posted: Record<string, string> = {};
    for (const [input] of html.matchAll(/<input[^>]*>/g)) {
      const name = /name="([^"]*)"/.exec(input)?.[1];
      if (name && !/\sdisabled/.test(input)) posted[name] = /value="([^"]*)"/.exec(input)?.[1] ?? "";
    }
    assertEquals(posted, {
      session: String(offer.session_id),
      timestamp: String(offer.timestamp),
      quantity: "1",
    });
    const { quantity: _, ...withoutQuantity } = posted;
    const form = await visitor.request("POST", `/session/${s.slug}/date/${s.uuids[0]}`, {
      form: withoutQuantity,
      headers: { accept: "text/html" },
    });
    assertEquals(form.status, 303);
    assertEquals(form.headers.get("location"), `/session/${s.slug}`);
    assertEquals(await placesLeft(s.uuids[0]), 4, "nothing was held by a request missing a field");
    assertEquals((await visitor.get("/api/cart")).json<Json>().results.lines.length, 0);
    const sent = await visitor.request("POST", `/session/${s.slug}/date/${s.uuids[0]}`, {
      form: posted,
      headers: { accept: "text/html" },
    });
    assertEquals(sent.headers.get("location"), "/panier", "the whole form books");
    assertEquals(await placesLeft(s.uuids[0]), 3);
    assertEquals((await visitor.post(`/session/${s.slug}/date/${s.uuids[0]}`, complete)).status, 200);
    assertEquals(await placesLeft(s.uuids[0]), 2);
  },
);

httpTest("sessions: partners and admins cannot book; customers book into their own cart", async () => {
  const s = await makeSession([{ inDays: 3, places: 5 }]);
  for (const email of [PARTNER, ADMIN]) {
    const user = new Client();
    await user.login(email);
    const response = await book(user, s.slug, s.uuids[0], { quantity: 1 });
    assertEquals(response.status, 403, email);
    assertMatch(response.json<Json>().message, /Seuls les clients/);
    assertEquals((await user.get("/api/cart")).status, 403, email);
    const page = await user.get("/panier");
    assertEquals(page.status, 403, email);
    assertMatch(page.text, /Seuls les clients/);
  }
  const customer = new Client();
  await customer.login(CUSTOMER);
  assertEquals((await book(customer, s.slug, s.uuids[0], { quantity: 2 })).status, 200);
  assert(!customer.cookies.has("cart"), "a customer's cart needs no cookie");
  const lines = (await customer.get("/api/cart")).json<Json>().results.lines as Json[];
  const line = lines.find((l) => l.dateUuid === s.uuids[0])!;
  assertEquals(line.quantity, 2);
  const customer2 = new Client();
  await customer2.login(CUSTOMER2);
  assert(!(await customer2.get("/api/cart")).json<Json>().results.lines.some((l: Json) => l.id === line.id));
  assertEquals((await customer2.patch(`/api/cart/line/${line.id}`, { quantity: 1 })).status, 404);
  assertEquals((await customer2.delete(`/api/cart/line/${line.id}`)).status, 404);
  // The owner changes and removes it; places follow.
  assertEquals((await customer.patch(`/api/cart/line/${line.id}`, { quantity: 6 })).status, 422);
  const changed = await customer.patch(`/api/cart/line/${line.id}`, { quantity: 5 });
  assertEquals(changed.status, 200, changed.text);
  assertEquals(await placesLeft(s.uuids[0]), 0);
  assertEquals((await customer.delete(`/api/cart/line/${line.id}`)).status, 200);
  assertEquals(await placesLeft(s.uuids[0]), 5);
  assertEquals((await customer.delete(`/api/cart/line/${line.id}`)).status, 404);
  assertEquals((await customer.patch("/api/cart/line/123", { quantity: 1 })).status, 404);
});

httpTest("sessions: without JavaScript the booking form redirects to the cart page", async () => {
  const s = await makeSession([{ inDays: 3, places: 4 }, { inDays: 4, places: 0 }]);
  const [offer] = await offersOf(new Client(), s.slug);
  const visitor = new Client();
  const posted = await visitor.request("POST", `/session/${s.slug}/date/${s.uuids[0]}`, {
    form: { session: String(offer.session_id), timestamp: String(offer.timestamp), quantity: "3" },
    headers: { accept: "text/html" },
  });
  assertEquals(posted.status, 303);
  assertEquals(posted.headers.get("location"), "/panier");
  const page = await visitor.get("/panier");
  assertEquals(page.status, 200);
  assertMatch(page.text, /Atelier test/);
  assertMatch(page.text, /Places gardées encore/);
  assertMatch(page.text, /171,00\s€/, "3 × 57 €");
  // An anonymous visitor is asked to sign in before paying (the checkout is for customers).
  assertMatch(page.text, /Veuillez vous connecter pour régler votre réservation/);
  assert(!/data-testid="cart-pay"/.test(page.text), "no pay button for a visitor");
  const fields = await bookingFields(s.uuids[1]);
  const full = await visitor.request("POST", `/session/${s.slug}/date/${s.uuids[1]}`, {
    form: { session: String(fields.session), timestamp: String(fields.timestamp), quantity: "1" },
    headers: { accept: "text/html" },
  });
  assertEquals(full.status, 303);
  assertEquals(full.headers.get("location"), `/session/${s.slug}`);
  assertMatch((await visitor.get(`/session/${s.slug}`)).text, /COMPLET/);
});

httpTest("sessions: at login the anonymous cart joins the customer's cart", async () => {
  const s = await makeSession([{ inDays: 3, places: 6 }]);
  const visitor = new Client();
  assertEquals((await book(visitor, s.slug, s.uuids[0], { quantity: 2 })).status, 200);
  await visitor.login(CUSTOMER2);
  assert(!visitor.cookies.has("cart"), "the cart cookie is cleared once merged");
  const lines = (await visitor.get("/api/cart")).json<Json>().results.lines as Json[];
  assertEquals(lines.find((l) => l.dateUuid === s.uuids[0])?.quantity, 2);
  assertEquals(await placesLeft(s.uuids[0]), 4, "the places stayed held");
  // A partner logging in with an anonymous cart keeps no cart (and does not take it).
  const other = new Client();
  assertEquals((await book(other, s.slug, s.uuids[0], { quantity: 1 })).status, 200);
  await other.login(PARTNER);
  assert(other.cookies.has("cart"), "the anonymous cart stays with its cookie");
});

httpTest("sessions: expired holds give their places back through the job registry", async () => {
  const { db } = await testEnv();
  const s = await makeSession([{ inDays: 3, places: 4 }]);
  const visitor = new Client();
  assertEquals((await book(visitor, s.slug, s.uuids[0], { quantity: 3 })).status, 200);
  assertEquals(await placesLeft(s.uuids[0]), 1);
  await systemQuery(
    db,
    `update public.cart_lines set expires_at = now() - interval '1 second'
     where date_id = (select id from public.session_dates where uuid = $1)`,
    [s.uuids[0]],
  );
  // The cart no longer shows an expired hold, even before the job has run.
  assertEquals((await visitor.get("/api/cart")).json<Json>().results.lines, []);
  const job = JOBS.find((j) => j.name === "release-expired-holds");
  assert(job?.sql, "the registry runs release_expired_holds");
  assertEquals(job.schedule, "* * * * *");
  await statementAs(db, systemActor("job"), job.sql);
  assertEquals(await placesLeft(s.uuids[0]), 4, "every place is back on sale");
});

httpTest("sessions: when a hold expires the cart says so instead of 'Votre panier est vide.'", async () => {
  const { db } = await testEnv();
  const s = await makeSession([{ inDays: 3, places: 4 }, { inDays: 4, places: 4 }]);
  const expire = () =>
    systemQuery(
      db,
      `update public.cart_lines set expires_at = now() - interval '1 second'
       where date_id = (select id from public.session_dates where uuid = $1)`,
      [s.uuids[0]],
    );
  const job = JOBS.find((j) => j.name === "release-expired-holds")!;
  const cartPage = async (client: Client) => {
    const page = await client.get("/panier");
    assertEquals(page.status, 200);
    return page.text.replaceAll("&#39;", "'");
  };
  const expired = "Votre réservation a expiré";
  const empty = "Votre panier est vide.";
  for (const email of [null, `panier.${Date.now()}@example.fr`]) {
    const client = new Client();
    if (email) {
      const res = await client.post("/api/security/registration", { ...registrationPayload(), email });
      assert(res.status === 200 || res.status === 201, res.text);
    }
    assertEquals((await book(client, s.slug, s.uuids[0], { quantity: 1 })).status, 200);
    await expire();
    // Before the job gives the places back, then after.
    let html = await cartPage(client);
    assert(
      html.includes(expired) && !html.includes(empty),
      `${email ?? "visitor"}: expired, not yet released`,
    );
    assertEquals((await client.get("/api/cart")).json<Json>().results.holdExpired, true);
    await statementAs(db, systemActor("job"), job.sql!);
    html = await cartPage(client);
    assert(html.includes(expired) && !html.includes(empty), `${email ?? "visitor"}: released`);
    // A new hold, removed by the shopper: the cart is simply empty.
    assertEquals((await book(client, s.slug, s.uuids[1], { quantity: 1 })).status, 200);
    const line = (await client.get("/api/cart")).json<Json>().results.lines[0];
    assertEquals((await client.delete(`/api/cart/line/${line.id}`)).status, 200);
    html = await cartPage(client);
    assert(html.includes(empty) && !html.includes(expired), `${email ?? "visitor"}: removed, not expired`);
  }
  // A new visitor's cart is empty, not expired.
  assert((await cartPage(new Client())).includes(empty));
});

httpTest("sessions: a hold on a date also takes back that date's expired holds at once", async () => {
  const { db } = await testEnv();
  const s = await makeSession([{ inDays: 3, places: 2 }]);
  assertEquals((await book(new Client(), s.slug, s.uuids[0], { quantity: 2 })).status, 200);
  assertEquals(
    (await book(new Client(), s.slug, s.uuids[0], { quantity: 1 })).json<Json>().message,
    "COMPLET",
  );
  await systemQuery(
    db,
    `update public.cart_lines set expires_at = now() - interval '1 second'
     where date_id = (select id from public.session_dates where uuid = $1)`,
    [s.uuids[0]],
  );
  const late = await book(new Client(), s.slug, s.uuids[0], { quantity: 2 });
  assertEquals(late.status, 200, "the expired places are sold again without waiting for the job");
  assertEquals(await placesLeft(s.uuids[0]), 0);
});

httpTest(
  "sessions: seat alerts, one per date and email, with the spec's messages and one email",
  async () => {
    const { db } = await testEnv();
    const s = await makeSession([{ inDays: 3, places: 0 }, { inDays: 4, places: 3 }]);
    const visitor = new Client();
    const missing = await visitor.post("/date/mail/alert", { date: s.uuids[0] });
    assertEquals(missing.status, 422);
    assertEquals(missing.json<Json>().errors, {
      email: "Veuillez renseigner votre email",
      optin: "Veuillez accepter d'être contacté",
    });
    const noOptin = await visitor.post("/date/mail/alert", {
      date: s.uuids[0],
      email: "a@b.fr",
      optin: false,
    });
    assertEquals(noOptin.json<Json>().message, "Veuillez accepter d'être contacté");
    assertEquals(
      (await visitor.post("/date/mail/alert", { date: s.uuids[0], email: "pas un email", optin: true }))
        .status,
      422,
    );
    const email = `alerte.${Date.now()}@example.fr`;
    const ok = await visitor.post("/date/mail/alert", { date: s.uuids[0], email, optin: true });
    assertEquals(ok.status, 200, ok.text);
    assertEquals(ok.json<Json>().message, "Votre alerte a bien été prise en compte");
    assertMatch(ok.json<Json>().note, /email de confirmation.*spams/);
    const again = await visitor.post("/date/mail/alert", {
      date: s.uuids[0],
      email: email.toUpperCase(),
      optin: "1",
    });
    assertEquals(again.status, 200);
    const [alerts] = await systemQuery<{ n: number }>(
      db,
      "select count(*)::int as n from public.seat_alerts where email = $1",
      [email],
    );
    assertEquals(alerts.n, 1, "the same email twice on one date is one alert");
    const [mails] = await systemQuery<{ n: number }>(
      db,
      "select count(*)::int as n from public.email_outbox where recipient = $1 and template = 'seat-alert-confirmation'",
      [email],
    );
    assertEquals(mails.n, 1, "one confirmation email");
    const open = await visitor.post("/date/mail/alert", { date: s.uuids[1], email, optin: true });
    assertEquals(open.status, 409, "a date with places left is booked, not watched");
    assertEquals((await visitor.post("/date/mail/alert", { date: "nope", email, optin: true })).status, 404);
    // Who reads alerts: the admin, and nobody else through the API's tables.
    const partner = new Client();
    await partner.login(PARTNER);
    assertEquals((await partner.get("/api/admin/session/date/" + s.uuids[0] + "/bookings")).status, 403);
  },
);

httpTest("sessions: anonymous holds and seat alerts are limited per client address", async () => {
  const s = await makeSession([{ inDays: 3, places: 0 }, { inDays: 4, places: 5 }]);
  // Seat alerts: each may email any address, so 10 an hour per client address.
  const alerting = new Client({ ip: "10.91.0.1" });
  for (let i = 0; i < 10; i++) {
    const ok = await alerting.post("/date/mail/alert", {
      date: s.uuids[0],
      email: `a${i}.${s.id}@example.fr`,
      optin: true,
    });
    assertEquals(ok.status, 200, `alert ${i}`);
  }
  const refused = await alerting.post("/date/mail/alert", {
    date: s.uuids[0],
    email: `z.${s.id}@example.fr`,
    optin: true,
  });
  assertEquals(refused.status, 429);
  assertEquals(refused.json<Json>().message, "Trop d'alertes demandées. Veuillez réessayer plus tard.");
  assertEquals(
    (await new Client({ ip: "10.91.0.2" }).post("/date/mail/alert", {
      date: s.uuids[0],
      email: `z.${s.id}@example.fr`,
      optin: true,
    })).status,
    200,
    "another address is not limited",
  );

  // Anonymous holds: 60 requests in 10 minutes per client address (refused ones count too).
  const flooding = new Client({ ip: "10.91.0.3" });
  for (let i = 0; i < 60; i++) {
    assertEquals((await book(flooding, s.slug, s.uuids[1], { quantity: 0 })).status, 422, `hold ${i}`);
  }
  const tooMany = await book(flooding, s.slug, s.uuids[1], { quantity: 1 });
  assertEquals(tooMany.status, 429);
  assertMatch(tooMany.json<Json>().message, /Trop de réservations demandées/);
  assertEquals(await placesLeft(s.uuids[1]), 5);
  // A signed-in customer from the same address is not limited.
  const customer = new Client({ ip: "10.91.0.3" });
  await customer.login(CUSTOMER2);
  assertEquals((await book(customer, s.slug, s.uuids[1], { quantity: 1 })).status, 200);
});

httpTest(
  "sessions: 'Vos sessions' and GET /api/customer/registrations show a customer its own bookings only",
  async () => {
    const customer = new Client();
    await customer.login(CUSTOMER);
    const api = await customer.get("/api/customer/registrations");
    assertEquals(api.status, 200);
    const results = api.json<Json>().results as Json[];
    // The demo: client@example.fr booked 4 + 3 places of the Mojito workshop (invoiced) and 6 mocktails,
    // 2 Mojito places still pending, and 2 Gin tonic places paid then canceled by the organiser: one
    // registration in every status (README).
    assertEquals(results.length, 5);
    assertEquals(
      results.map((r) => `${r.status} ${r.quantity}`).sort(),
      ["canceled 2", "invoiced 3", "invoiced 4", "invoiced 6", "pending 2"],
    );
    const first = results.find((r) => r.quantity === 4)!;
    assertEquals(Object.keys(first).sort(), [
      "amount",
      "discount",
      "id",
      "orderReference",
      "quantity",
      "sessionDate",
      "status",
      "unpaidUntil",
      "url",
      "venue",
    ]);
    assertEquals([first.venue, first.unpaidUntil], ["Paris", null]);
    assertMatch(first.orderReference, /^Commande n° \d+$/);
    assertEquals(first.status, "invoiced");
    assertEquals(first.amount, 180);
    assertEquals(first.discount, {});
    assertEquals(first.sessionDate.session, {
      title: "Atelier Mojito et rhums du monde",
      slug: "atelier-mojito-paris",
    });
    const page = await customer.get("/dashboard/client/sessions");
    assertEquals(page.status, 200);
    assertMatch(page.text, /Vos sessions<\/h1>/);
    assertMatch(page.text, /Facturé/);
    assertMatch(page.text, /En attente/);
    assertMatch(page.text, /Annulé/);
    assertMatch(page.text, /contact@example\.fr/);
    // Share: on the pending row only.
    assertEquals(
      page.text.match(/data-island="SessionShareButton"/g)?.length,
      1,
      "share on pending rows only",
    );

    // client2 has pending rows: the share action, and none of client's rows.
    const customer2 = new Client();
    await customer2.login(CUSTOMER2);
    const own = (await customer2.get("/api/customer/registrations")).json<Json>().results as Json[];
    assert(own.length >= 1 && own.every((r) => r.status === "pending"));
    assert(!own.some((r) => results.some((x) => x.id === r.id)), "another customer's rows are not listed");
    const page2 = await customer2.get("/dashboard/client/sessions");
    assertMatch(page2.text, /En attente/);
    assertMatch(page2.text, /data-island="SessionShareButton"/);
    assertMatch(page2.text, /session\/atelier-mojito-paris\?date=\d+/);

    // Denied side: anonymous 401 / login, partners and admins 403.
    assertEquals((await new Client().get("/api/customer/registrations")).status, 401);
    assertEquals((await new Client().get("/dashboard/client/sessions")).status, 303);
    for (const email of [PARTNER, ADMIN]) {
      const user = new Client();
      await user.login(email);
      assertEquals((await user.get("/api/customer/registrations")).status, 403, email);
      assertEquals((await user.get("/dashboard/client/sessions")).status, 403, email);
    }
    // A new customer: the empty state.
    const fresh = new Client();
    const email = `vide.${Date.now()}@example.fr`;
    const registered = await fresh.post("/api/security/registration", {
      firstname: "Léa",
      lastname: "Vide",
      birthdate: "1990-01-01",
      address: "1 rue A",
      zipcode: "75001",
      city: "Paris",
      phone: `06${String(Date.now()).slice(-8)}`,
      email,
      password: "Cocktail#2026",
      passwordConfirmation: "Cocktail#2026",
      terms: true,
      privacy: true,
      age: true,
      optin: true,
    });
    assertEquals(registered.status, 200, registered.text);
    assertMatch(
      (await fresh.get("/dashboard/client/sessions")).text,
      /Aucune session pour l(&#39;|')instant/,
    );
  },
);
