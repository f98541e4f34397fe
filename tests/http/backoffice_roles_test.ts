// The back office is for partners and admins (issue "Quotes and payments, second pass" §3): a customer
// — signed in, or an admin impersonating one — is refused every back-office route of routes/deals_api.ts,
// routes/deal_photos_api.ts and routes/settings_api.ts, where a customer used to read the back-office
// view of their own deals (commission rate, admin comments) through GET /api/deal/index and
// /api/deal/get/{id}. The quote engine's settings are the admins'; a partner reads only the grid its
// own grid starts from (deviseur_pricing). Each route as anonymous, customer, partner of another deal,
// the deal's partner, admin and admin impersonating.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, type TestResponse } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { testEnv } from "../support/app.ts";
import {
  ADMIN,
  anonymous,
  assertError,
  body,
  CUSTOMER,
  dealForPartner,
  dealOf,
  freshIp,
  loggedIn,
  MSG,
  PARTNER,
  PARTNER2,
  userIdOf,
} from "./deals_fixtures_test.ts";

async function impersonating(email: string): Promise<Client> {
  const admin = new Client({ ip: freshIp() });
  await admin.login(ADMIN);
  const res = await admin.request("POST", `/admin/switch/${await userIdOf(email)}`);
  assertEquals(res.status, 303, `switch: ${res.status} ${res.text.slice(0, 200)}`);
  return admin;
}

const SECRET_COMMENT = "Commission négociée : ne pas montrer au client";

type Call = (c: Client) => Promise<TestResponse>;

httpTest("a customer is refused every back-office deal route, even for their own deal", async () => {
  const admin = await loggedIn(ADMIN);
  const customer = await loggedIn(CUSTOMER);
  const deal = await dealForPartner(admin, PARTNER, { client: customer });
  dealOf(await admin.patch(`/api/deal/${deal.id}`, { adminComments: SECRET_COMMENT }));
  // The customer's own deal, linked to them (as the page links it).
  const { db } = await testEnv();
  await systemQuery(db, "update public.deals set customer_id = $1 where id = $2", [
    await userIdOf(CUSTOMER),
    deal.id,
  ]);
  // The way the attacker worked: the back-office list and the deal by id.
  const list = await customer.get("/api/deal/index");
  assertError(list, 403, MSG.notAllowed, "customer GET /api/deal/index");
  assert(!list.text.includes(SECRET_COMMENT) && !list.text.includes("commissionRate"));
  const got = await customer.get(`/api/deal/get/${deal.id}`);
  assertError(got, 403, MSG.notAllowed, "customer GET /api/deal/get");
  assert(!got.text.includes(SECRET_COMMENT));

  const id = deal.id;
  const calls: Record<string, Call> = {
    "GET index": (c) => c.get("/api/deal/index"),
    "GET get": (c) => c.get(`/api/deal/get/${id}`),
    "GET history": (c) => c.get(`/api/deal/${id}/history`),
    "GET cocktail-validation": (c) => c.get(`/api/deal/${id}/cocktail-validation`),
    "PATCH": (c) => c.patch(`/api/deal/${id}`, { description: "<p>x</p>" }),
    "DELETE": (c) => c.delete(`/api/deal/${id}`),
    "POST send-to-partner": (c) => c.post(`/api/deal/${id}/send-to-partner`),
    "POST validate-availability": (c) => c.post(`/api/deal/${id}/validate-availability`),
    "POST accept": (c) => c.post(`/api/deal/${id}/accept`),
    "POST payments": (c) => c.post(`/api/deal/${id}/payments`, { kind: "deposit", amount: 100 }),
    "GET payments": (c) => c.get(`/api/deal/${id}/payments`),
    "POST refunds": (c) => c.post(`/api/deal/${id}/refunds`, { paymentId: "x", amount: 1 }),
    "POST refuse": (c) => c.post(`/api/deal/${id}/refuse`, { reason: "other_provider" }),
    "POST reset-choices": (c) => c.post(`/api/deal/${id}/reset-choices`),
    "POST upload-photos": (c) => c.post(`/api/deal/upload-photos/${id}`, {}),
    "POST reorder-photos": (c) => c.post(`/api/deal/reorder-photos/${id}`, { order: [] }),
    "DELETE photo": (c) => c.delete(`/api/deal/photos/${id}/x.jpg`),
  };
  const asCustomer = await impersonating(CUSTOMER);
  for (const [who, client] of [["customer", customer], ["admin as customer", asCustomer]] as const) {
    for (const [name, call] of Object.entries(calls)) {
      const res = await call(client);
      assertError(res, 403, MSG.notAllowed, `${who} ${name}:`);
    }
  }
  for (const [name, call] of Object.entries(calls)) {
    assertError(await call(anonymous()), 401, MSG.unauthenticated, `anonymous ${name}:`);
  }
  // Nothing moved: the deal is still in 'new', not refused.
  assertEquals(dealOf(await admin.get(`/api/deal/get/${id}`)).status, "new");
  // The allowed side: the partner, the admin impersonating it and the admin read the deal and the list.
  const partner = await loggedIn(PARTNER);
  for (const client of [partner, await impersonating(PARTNER), admin]) {
    assertEquals(dealOf(await client.get(`/api/deal/get/${id}`)).id, id);
    assertEquals((await client.get("/api/deal/index")).status, 200);
  }
  // Another partner: not its deal.
  assertError(await (await loggedIn(PARTNER2)).get(`/api/deal/get/${id}`), 404, MSG.notFound);
  // The back office's pages: 403 for a customer (and an admin impersonating one), the deal's page for
  // its partner and the admin, 404 for another partner.
  const pages = [
    `/dashboard/espace-partenaire/deal/${id}`,
    "/dashboard/partenaire/devis",
    "/dashboard/partenaire/grille-tarifaire",
    "/dashboard/admin/devis",
    "/dashboard/admin/devis/parametres",
    "/dashboard/admin/utilisateurs",
  ];
  for (const page of pages) {
    for (const [who, client] of [["customer", customer], ["admin as customer", asCustomer]] as const) {
      const res = await client.get(page);
      assertEquals(res.status, 403, `${who} ${page}`);
      assert(!res.text.includes(SECRET_COMMENT), `${who} ${page}`);
    }
    assertEquals((await anonymous().get(page)).status, 303, `anonymous ${page}: to the login page`);
  }
  const dealPage = pages[0];
  assertEquals((await partner.get(dealPage)).status, 200, "the partner's deal page");
  assertEquals((await admin.get(dealPage)).status, 200, "the admin's deal page");
  assertEquals((await (await loggedIn(PARTNER2)).get(dealPage)).status, 404, "another partner's deal page");
  // The customer's own API still answers.
  const own = await customer.get("/api/customer/deal/index");
  assertEquals(own.status, 200, own.text);
  assert(!own.text.includes(SECRET_COMMENT));
});

const GLOBAL_KEYS = [
  "deviseur_fixed_commission_tiers",
  "deviseur_settings",
  "deviseur_pricing",
  "deviseur_custom_field_1",
  "deviseur_show_custom_field_1_on_quote",
];

httpTest("the quote engine's settings: admins read them all, a partner only the base grid", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const customer = await loggedIn(CUSTOMER);
  const asCustomer = await impersonating(CUSTOMER);
  const asPartner = await impersonating(PARTNER);
  for (const key of GLOBAL_KEYS) {
    const res = await admin.get(`/api/settings/${key}`);
    assertEquals(res.status, 200, `admin ${key}: ${res.text}`);
    for (const [who, client] of [["customer", customer], ["admin as customer", asCustomer]] as const) {
      assertError(await client.get(`/api/settings/${key}`), 403, MSG.forbidden, `${who} ${key}`);
    }
    assertError(await anonymous().get(`/api/settings/${key}`), 401, MSG.unauthenticated, `anonymous ${key}`);
    for (const [who, client] of [["partner", partner], ["admin as partner", asPartner]] as const) {
      const seen = await client.get(`/api/settings/${key}`);
      if (key === "deviseur_pricing") assertEquals(seen.status, 200, `${who} reads the base grid`);
      else assertError(seen, 403, MSG.forbidden, `${who} ${key}`);
    }
  }
  // The other routes of the settings module: partners' records and option fields, never a customer's.
  const partnerId = await userIdOf(PARTNER);
  for (
    const path of [
      `/api/company/settings/deviseur_pricing/${partnerId}`,
      `/api/company/settings/cocktails/${partnerId}`,
      "/api/company/index",
      "/api/field/type_d_evenement",
    ]
  ) {
    assertError(await customer.get(path), 403, MSG.forbidden, `customer ${path}`);
    assertError(await asCustomer.get(path), 403, MSG.forbidden, `admin as customer ${path}`);
    assertEquals((await admin.get(path)).status, 200, `admin ${path}`);
  }
  assertEquals((await partner.get(`/api/company/settings/cocktails/${partnerId}`)).status, 200);
  assertEquals((await partner.get("/api/field/type_d_evenement")).status, 200);
  assertError(await partner.get("/api/company/index"), 403, MSG.forbidden, "partner's list of partners");
  assertError(
    await (await loggedIn(PARTNER2)).get(`/api/company/settings/cocktails/${partnerId}`),
    403,
    MSG.forbidden,
    "another partner's catalogue",
  );
  // The database agrees: a customer's claims read no setting, a partner's only what pricing needs.
  const { db } = await testEnv();
  const customerId = await userIdOf(CUSTOMER);
  const partnerKeys = await settingKeysAs(db, partnerId);
  assert(partnerKeys.every((k) => PARTNER_READABLE.includes(k)), partnerKeys.join());
  assertEquals(await settingKeysAs(db, customerId), []);
  assert(body(await admin.get("/api/settings/deviseur_settings")).results.value.length > 0);
});

const PARTNER_READABLE = ["deviseur_pricing", "deviseur_fixed_commission_tiers"];

/** The setting keys the database shows to `userId`'s claims. */
async function settingKeysAs(
  db: Awaited<ReturnType<typeof testEnv>>["db"],
  userId: string,
): Promise<string[]> {
  const rows = await db.statement<{ key: string }>(
    { role: "authenticated", sub: userId },
    "select key from public.settings order by key",
  );
  return rows.map((r) => r.key);
}
