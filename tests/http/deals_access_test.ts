// Who may call which endpoint of routes/deals_api.ts, as each role: admin, the deal's partner, another
// partner, the deal's customer, another customer, an anonymous visitor, and an admin impersonating the
// deal's partner. Allowed and denied sides, with status codes and French messages; a partner never
// receives another partner's deal nor a deal in 'start'; a customer only their own; malformed ids and
// bodies answer 4xx, never 500, and leave no error row in public.logs.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, type TestResponse } from "../support/app.ts";
import { DEAL_MESSAGES } from "../../lib/deals/rules.ts";
import {
  ADMIN,
  adminPage,
  anonymous,
  assertError,
  body,
  CUSTOMER,
  CUSTOMER2,
  dealForPartner,
  dealOf,
  errorLogCount,
  errorLogs,
  freshIp,
  type Json,
  loggedIn,
  MSG,
  PARTNER,
  PARTNER2,
  requestDeal,
  userIdOf,
  wrongStatus,
} from "./deals_fixtures_test.ts";

/** An admin signed in on a client of its own, switched to `email`'s identity (POST /admin/switch). */
async function impersonating(email: string): Promise<Client> {
  const admin = new Client({ ip: freshIp() });
  await admin.login(ADMIN);
  const res = await admin.request("POST", `/admin/switch/${await userIdOf(email)}`);
  assertEquals(res.status, 303, `switch: ${res.status} ${res.text.slice(0, 200)}`);
  const me = await admin.get("/api/user/get");
  assertEquals(body(me).email ?? body(me).results?.email, email, "now acting as the partner");
  return admin;
}

interface Roles {
  admin: Client;
  partner: Client;
  partner2: Client;
  customer: Client;
  customer2: Client;
  anon: Client;
  impersonator: Client;
}

async function roles(): Promise<Roles> {
  return {
    admin: await loggedIn(ADMIN),
    partner: await loggedIn(PARTNER),
    partner2: await loggedIn(PARTNER2),
    customer: await loggedIn(CUSTOMER),
    customer2: await loggedIn(CUSTOMER2),
    anon: anonymous(),
    impersonator: await impersonating(PARTNER),
  };
}

async function statusOf(admin: Client, id: number): Promise<string> {
  return String(dealOf(await admin.get(`/api/deal/get/${id}`)).status);
}

type Call = (c: Client) => Promise<TestResponse>;

httpTest("deal endpoints: the denied side of every role, with status and French message", async () => {
  const r = await roles();
  const deal = await dealForPartner(r.admin, PARTNER, { client: r.customer });
  const id = deal.id;
  const before = await errorLogCount();

  const calls: Record<string, Call> = {
    "GET get": (c) => c.get(`/api/deal/get/${id}`),
    "GET history": (c) => c.get(`/api/deal/${id}/history`),
    "GET cocktail-validation": (c) => c.get(`/api/deal/${id}/cocktail-validation`),
    "PATCH admin field": (c) => c.patch(`/api/deal/${id}`, { adminComments: "Commentaire" }),
    "PATCH description": (c) => c.patch(`/api/deal/${id}`, { description: "<p>Présentation</p>" }),
    "DELETE": (c) => c.delete(`/api/deal/${id}`),
    "POST send-to-partner": (c) => c.post(`/api/deal/${id}/send-to-partner`),
    "POST validate-availability": (c) => c.post(`/api/deal/${id}/validate-availability`),
    "POST accept": (c) => c.post(`/api/deal/${id}/accept`),
    "POST payments": (c) => c.post(`/api/deal/${id}/payments`, { kind: "deposit", amount: 100 }),
    "POST refuse (partner reason)": (c) =>
      c.post(`/api/deal/${id}/refuse`, { reason: "partner_unavailable" }),
    "POST refuse (customer reason)": (c) => c.post(`/api/deal/${id}/refuse`, { reason: "other_provider" }),
    "POST reset-choices": (c) => c.post(`/api/deal/${id}/reset-choices`),
  };
  const U = [401, MSG.unauthenticated] as const;
  const F = [403, MSG.notAllowed] as const;
  const N = [404, MSG.notFound] as const;
  const R = [422, MSG.reasonRequired] as const;
  // What each role gets on a deal in 'new' that is not theirs to act on (null: allowed, tested below
  // and in deals_workflow_test.ts).
  const expected: Record<string, Record<string, readonly [number, string] | null>> = {
    anon: Object.fromEntries(Object.keys(calls).map((k) => [k, U])),
    // The back office is for partners and admins: a customer, theirs or not, is refused every route
    // (tests/http/backoffice_roles_test.ts goes through each of them).
    customer2: Object.fromEntries(Object.keys(calls).map((k) => [k, F])),
    customer: Object.fromEntries(Object.keys(calls).map((k) => [k, F])),
    partner2: {
      "GET get": N,
      "GET history": N,
      "GET cocktail-validation": N,
      "PATCH admin field": F,
      "PATCH description": N,
      "DELETE": F,
      "POST send-to-partner": F,
      "POST validate-availability": N,
      "POST accept": F,
      "POST payments": F,
      "POST refuse (partner reason)": N,
      "POST refuse (customer reason)": R,
      "POST reset-choices": N,
    },
    partner: {
      "GET get": null,
      "GET history": null,
      "GET cocktail-validation": null,
      "PATCH admin field": F,
      "PATCH description": null,
      "DELETE": F,
      "POST send-to-partner": F,
      "POST validate-availability": null,
      "POST accept": F,
      "POST payments": F,
      "POST refuse (partner reason)": null,
      "POST refuse (customer reason)": R,
      "POST reset-choices": null,
    },
    impersonator: {
      "GET get": null,
      "GET history": null,
      "GET cocktail-validation": null,
      "PATCH admin field": F,
      "PATCH description": null,
      "DELETE": F,
      "POST send-to-partner": F,
      "POST validate-availability": null,
      "POST accept": F,
      "POST payments": F,
      "POST refuse (partner reason)": null,
      "POST refuse (customer reason)": R,
      "POST reset-choices": null,
    },
  };
  for (const [role, table] of Object.entries(expected)) {
    const client = r[role as keyof Roles];
    for (const [name, want] of Object.entries(table)) {
      if (!want) continue;
      const res = await calls[name](client);
      assertError(res, want[0], want[1], `${role} ${name}:`);
    }
    assertEquals(await statusOf(r.admin, id), "new", `nothing moved after ${role}'s attempts`);
  }
  // The admin's own refusals on this deal in 'new': already sent, wrong status to accept or be paid.
  assertError(await calls["POST send-to-partner"](r.admin), 409, MSG.alreadySent);
  assertError(await calls["POST accept"](r.admin), 409, wrongStatus("new"));
  assertError(await calls["POST payments"](r.admin), 409, wrongStatus("new"));
  assertEquals(await errorLogCount(), before, `no error logged: ${(await errorLogs(before)).join("\n")}`);
});

httpTest(
  "deal endpoints: the allowed side of admin, the deal's partner and the impersonating admin",
  async () => {
    const r = await roles();
    const deal = await dealForPartner(r.admin, PARTNER, { client: r.customer });
    const id = deal.id;

    for (
      const [role, client] of [["admin", r.admin], ["partner", r.partner], [
        "impersonator",
        r.impersonator,
      ]] as const
    ) {
      const got = dealOf(await client.get(`/api/deal/get/${id}`));
      assertEquals([got.id, got.status, got.token], [id, "new", deal.token], role);
      const history = dealOf(await client.get(`/api/deal/${id}/history`)) as unknown as Json[];
      assert(Array.isArray(history) && history.length >= 2, `${role} reads the history`);
      const validation = dealOf(await client.get(`/api/deal/${id}/cocktail-validation`));
      assertEquals(validation.type, "validation_success", role);
      const described = await client.patch(`/api/deal/${id}`, { description: `<p>Par ${role}</p>` });
      assertEquals(dealOf(described).description, `<p>Par ${role}</p>`, role);
      const reset = await client.post(`/api/deal/${id}/reset-choices`);
      assertEquals(dealOf(reset).choices, { cocktails: [] }, role);
      assertEquals(body(reset).message, "Le client peut choisir à nouveau ses cocktails.");
    }
    // The customer reads their own deal through their API, without the admin's comments nor the
    // hubspot id; the back office's view is refused to them.
    await r.admin.patch(`/api/deal/${id}`, { adminComments: "Note interne", hubspotId: "HS-42" });
    const own = dealOf(await r.customer.get(`/api/customer/deal/get/${deal.token}`));
    assertEquals(own.id, id);
    assertEquals(own.adminComments, "");
    assertEquals(own.hubspotId, null);
    assertError(await r.customer.get(`/api/deal/get/${id}`), 403, MSG.notAllowed);
    const asPartner = dealOf(await r.partner.get(`/api/deal/get/${id}`));
    assertEquals(asPartner.adminComments, "Note interne", "the partner reads the admin's comments");
    assertEquals(asPartner.hubspotId, null, "hubspotId is shown to admins only");
    assertEquals(dealOf(await r.admin.get(`/api/deal/get/${id}`)).hubspotId, "HS-42");

    // The impersonating admin validates as the partner would.
    const validated = await r.impersonator.post(`/api/deal/${id}/validate-availability`);
    assertEquals(dealOf(validated).status, "send");
    assertEquals(body(validated).message, MSG.validated);
    // The customer refuses their own quote (refused_client) through their API, not the back office's.
    assertError(await r.customer.post(`/api/deal/${id}/refuse`, { reason: "budget" }), 403, MSG.notAllowed);
    const refused = await r.customer.patch(`/api/customer/deal/refuse/${deal.token}`, {
      refusalReason: "budget",
    });
    assertEquals(dealOf(refused).status, "refused_client");
    assertEquals(body(refused).message, MSG.refused);
    assertEquals(dealOf(refused).refusalBanner, "Devis refusé par le client : Le budget est trop élevé");
  },
);

httpTest("a partner never receives a deal in 'start', even its own, nor another partner's deal", async () => {
  const r = await roles();
  const partnerId = await userIdOf(PARTNER);
  // Assigned to the partner but not sent yet: still 'start'.
  const started = await requestDeal();
  dealOf(await r.admin.patch(`/api/deal/${started.id}`, { company: partnerId }));
  const sent = await dealForPartner(r.admin, PARTNER);
  const other = await dealForPartner(r.admin, PARTNER2);

  for (const [role, client] of [["partner", r.partner], ["impersonator", r.impersonator]] as const) {
    for (const path of ["get/" + started.id, `${started.id}/history`, `${started.id}/cocktail-validation`]) {
      assertError(await client.get(`/api/deal/${path}`), 404, MSG.notFound, `${role} GET ${path}`);
    }
    assertError(await client.patch(`/api/deal/${started.id}`, { description: "x" }), 404, MSG.notFound);
    assertError(await client.post(`/api/deal/${started.id}/validate-availability`), 404, MSG.notFound);
    assertError(
      await client.post(`/api/deal/${started.id}/refuse`, { reason: "partner_unavailable" }),
      404,
      MSG.notFound,
    );
    assertError(await client.post(`/api/deal/${started.id}/reset-choices`), 404, MSG.notFound);
    assertError(await client.get(`/api/deal/get/${other.id}`), 404, MSG.notFound, `${role} other partner's`);
    assertError(await client.patch(`/api/deal/${other.id}`, { description: "x" }), 404, MSG.notFound);

    const list = dealOf(await client.get("/api/deal/index")) as unknown as Json[];
    assert(Array.isArray(list), "a partner's list is a list");
    const ids = list.map((d) => Number(d.id));
    assert(ids.includes(sent.id), `${role}: its sent deal is listed`);
    assert(!ids.includes(started.id), `${role}: never its deal in 'start'`);
    assert(!ids.includes(other.id), `${role}: never another partner's deal`);
    assert(list.every((d) => d.status !== "start"), `${role}: no deal in 'start' at all`);
    assert(list.every((d) => d.companyId === partnerId), `${role}: only its company's deals`);
  }
  const list2 = dealOf(await r.partner2.get("/api/deal/index")) as unknown as Json[];
  const ids2 = list2.map((d) => Number(d.id));
  assert(ids2.includes(other.id) && !ids2.includes(sent.id) && !ids2.includes(started.id));
  // Once sent, the partner reads it.
  dealOf(await r.admin.post(`/api/deal/${started.id}/send-to-partner`));
  assertEquals(dealOf(await r.partner.get(`/api/deal/get/${started.id}`)).status, "new");
});

httpTest(
  "a customer reads only their own deals; the admin's list is paged and holds every deal",
  async () => {
    const r = await roles();
    const mine = await requestDeal({ client: r.customer });
    const theirs = await requestDeal({ client: r.customer2 });
    const visitor = await requestDeal();

    // 'Mes devis' of a customer: their API (the back office's list is refused to them).
    const list = dealOf(await r.customer.get("/api/customer/deal/index")) as unknown as Json[];
    const ids = list.map((d) => Number(d.id));
    assert(ids.includes(mine.id), "own deal listed (even in 'start')");
    assert(!ids.includes(theirs.id) && !ids.includes(visitor.id), "nobody else's");
    assertError(await r.customer.get("/api/deal/index"), 403, MSG.notAllowed);
    assertError(
      await r.customer.get(`/api/customer/deal/get/${theirs.token}`),
      404,
      DEAL_MESSAGES.unavailable,
    );
    assertEquals(dealOf(await r.customer2.get(`/api/customer/deal/get/${theirs.token}`)).id, theirs.id);

    const admin = adminPage(await r.admin.get(`/api/deal/index?search=${visitor.id}&perPage=100`));
    assert(Array.isArray(admin.items) && typeof admin.total === "number", "admin list: items and total");
    assert(admin.items.some((d: Json) => d.id === visitor.id), "the admin sees a visitor's deal in 'start'");
    assertError(await r.anon.get("/api/deal/index"), 401, MSG.unauthenticated);
  },
);

httpTest("DELETE /api/deal/{id}: admins only, never a paid deal", async () => {
  const r = await roles();
  const deal = await dealForPartner(r.admin, PARTNER, { client: r.customer });
  for (const [role, client] of Object.entries(r)) {
    if (role === "admin") continue;
    const res = await client.delete(`/api/deal/${deal.id}`);
    assertError(
      res,
      role === "anon" ? 401 : 403,
      role === "anon" ? MSG.unauthenticated : MSG.notAllowed,
      role,
    );
  }
  // A deal with a deposit paid (manual payment) cannot be deleted.
  dealOf(await r.partner.post(`/api/deal/${deal.id}/validate-availability`));
  dealOf(await r.admin.post(`/api/deal/${deal.id}/payments`, { kind: "deposit", amount: "120" }));
  assertError(await r.admin.delete(`/api/deal/${deal.id}`), 409, MSG.paidUndeletable);
  assertEquals(await statusOf(r.admin, deal.id), "pay_partial");
  // A fully paid one neither.
  const full = await dealForPartner(r.admin, PARTNER);
  const quoted = Number(
    dealOf(await r.partner.post(`/api/deal/${full.id}/validate-availability`)).totals.totalTTC,
  );
  dealOf(await r.admin.post(`/api/deal/${full.id}/payments`, { kind: "total", amount: quoted }));
  assertError(await r.admin.delete(`/api/deal/${full.id}`), 409, MSG.paidUndeletable);
  // An unpaid deal is deleted with its history; it is gone for everyone.
  const doomed = await dealForPartner(r.admin, PARTNER);
  const res = await r.admin.delete(`/api/deal/${doomed.id}`);
  assertEquals(res.status, 200);
  assertEquals(body(res).status, "success");
  assertError(await r.admin.get(`/api/deal/get/${doomed.id}`), 404, MSG.notFound);
  assertError(await r.partner.get(`/api/deal/get/${doomed.id}`), 404, MSG.notFound);
  assertError(await r.admin.delete(`/api/deal/${doomed.id}`), 404, MSG.notFound);
});

httpTest(
  "DELETE /api/deal/{id}: an unpaid deal whose customer opened a card payment answers 200 or 409, not 500",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const customer = await loggedIn(CUSTOMER);
    const deal = await dealForPartner(admin, PARTNER, { client: customer });
    dealOf(await partner.post(`/api/deal/${deal.id}/validate-availability`));
    // The customer starts paying the deposit, then gives up: an intent exists, nothing was paid.
    const intent = await customer.post("/api/payment/intent", {
      dealToken: deal.token,
      paymentType: "deposit",
    });
    assertEquals(intent.status, 200, intent.text.slice(0, 300));
    assertEquals(dealOf(await admin.get(`/api/deal/get/${deal.id}`)).depositPaidAt, null, "nothing paid");
    const before = await errorLogCount();
    const res = await admin.delete(`/api/deal/${deal.id}`);
    assert(
      [200, 409].includes(res.status),
      `expected 200 or 409, got ${res.status}: ${res.text.slice(0, 300)}`,
    );
    assertEquals(await errorLogCount(), before, `no error logged: ${(await errorLogs(before)).join("\n")}`);
  },
);

httpTest("malformed ids and bodies answer 4xx in French, never 500, and log no error", async () => {
  const r = await roles();
  const deal = await dealForPartner(r.admin, PARTNER);
  const id = deal.id;
  const customerId = await userIdOf(CUSTOMER);
  const before = await errorLogCount();

  for (
    const bad of ["abc", "0", "-1", "1.5", "1e3", "99999999999999999999", "999999999999999", "%20", "1%27"]
  ) {
    assertError(await r.admin.get(`/api/deal/get/${bad}`), 404, MSG.notFound, `GET get/${bad}`);
    assertError(await r.admin.patch(`/api/deal/${bad}`, { name: "x" }), 404, undefined, `PATCH ${bad}`);
    assertError(await r.admin.post(`/api/deal/${bad}/accept`), 404, undefined, `accept ${bad}`);
    assertError(await r.admin.delete(`/api/deal/${bad}`), 404, undefined, `DELETE ${bad}`);
  }
  const raw = (method: string, path: string, text: string, type = "application/json") =>
    r.admin.request(method, path, { body: text, headers: { "content-type": type } });
  for (const text of ["{nope", "[]", '"texte"', "null", "42", '{"a":"\\u0000"}']) {
    assertError(await raw("PATCH", `/api/deal/${id}`, text), 400, MSG.invalidBody, `PATCH body ${text}`);
    assertError(
      await raw("POST", `/api/deal/${id}/payments`, text),
      400,
      MSG.invalidBody,
      `payments ${text}`,
    );
    assertError(await raw("POST", `/api/deal/${id}/refuse`, text), 400, MSG.invalidBody, `refuse ${text}`);
  }
  const invalid: [Json, string, string][] = [
    [{ lines: "x" }, "lines", "Les lignes du devis sont invalides."],
    [{ lines: [{ label: "", qty: 1, unitCost: 1 }] }, "lines", "Chaque ligne a besoin d'un libellé."],
    [
      { lines: [{ label: "Barman", qty: "beaucoup", unitCost: 1 }] },
      "lines",
      "Veuillez saisir un nombre valide.",
    ],
    [
      { lines: [{ label: "Barman", qty: 1, unitCost: "8,505" }] },
      "lines",
      "Veuillez saisir un montant valide (deux décimales au plus).",
    ],
    [{ lines: [{ label: "Barman", qty: 1, unitCost: -5 }] }, "lines", "Le montant ne peut pas être négatif."],
    [{ status: "nope" }, "status", "Statut inconnu."],
    [{ company: "pas-un-uuid" }, "company", "Partenaire introuvable."],
    [{ company: customerId }, "company", "Partenaire introuvable."],
    [{ company: crypto.randomUUID() }, "company", "Partenaire introuvable."],
    [{ adminSettings: { disableQuoteEdits: "oui" } }, "adminSettings", "Valeur invalide."],
    [{ parameters: { vat: 7 } }, "parameters", "Taux de TVA non proposé."],
    [
      { properties: { nombre_de_participants: "beaucoup" } },
      "properties",
      "Veuillez saisir un nombre valide.",
    ],
    [
      { properties: { deal_prestation_date: "2026-02-30" } },
      "properties",
      "La date doit être au format AAAA-MM-JJ.",
    ],
    [{ properties: { duree_2_service: 45 } }, "properties", "Durée non proposée."],
    [{ settings: { cocktailListType: "tiki" } }, "settings", "Type de liste non proposé."],
    [{ settings: { hasDeposit: "oui" } }, "settings", "Valeur invalide."],
    [{ name: "x".repeat(300) }, "name", "Ce champ est trop long."],
    [{ hubspotId: { a: 1 } }, "hubspotId", "Valeur invalide."],
  ];
  for (const [patch, field, message] of invalid) {
    const json = assertError(
      await r.admin.patch(`/api/deal/${id}`, patch),
      422,
      undefined,
      JSON.stringify(patch),
    );
    assertEquals(
      json.errors?.[field],
      message,
      `${JSON.stringify(patch).slice(0, 80)}: ${JSON.stringify(json)}`,
    );
  }
  const map = assertError(await r.admin.patch(`/api/deal/${id}`, { map: "<script>alert(1)</script>" }), 422);
  assert(String(map.message).startsWith("Collez le code d'intégration Google Maps"), map.message);
  for (
    const pay of [{}, { kind: "cadeau", amount: 10 }, { kind: "deposit" }, { kind: "deposit", amount: "abc" }]
  ) {
    assertError(await r.admin.post(`/api/deal/${id}/payments`, pay), 422, undefined, JSON.stringify(pay));
  }
  for (const refusal of [{}, { reason: "" }, { reason: "n'importe quoi" }, { reason: ["budget"] }]) {
    assertError(
      await r.admin.post(`/api/deal/${id}/refuse`, refusal),
      422,
      MSG.reasonRequired,
      JSON.stringify(refusal),
    );
  }
  for (
    const query of [
      "page=0",
      "page=abc",
      "perPage=1000",
      "from=hier",
      "to=2026-13-01",
      "sort=password",
      "direction=up",
    ]
  ) {
    assertError(await r.admin.get(`/api/deal/index?${query}`), 422, "La recherche est invalide.", query);
  }
  assertEquals(
    await r.admin.get(`/api/deal/get/${id}`).then((res) => dealOf(res).status),
    "new",
    "nothing changed",
  );
  assertEquals(await errorLogCount(), before, `no error logged: ${(await errorLogs(before)).join("\n")}`);
});

httpTest("a long rich text that grows when sanitised answers 4xx, not 500", async () => {
  const admin = await loggedIn(ADMIN);
  const deal = await dealForPartner(admin, PARTNER);
  const before = await errorLogCount();
  // 150 000 characters pass the 200 000-character limit; '&' is stored as '&amp;' (750 000 characters).
  const text = "&".repeat(150_000);
  const statuses: Record<string, number> = {};
  for (const field of ["description", "adminDescription", "customField1", "customField2"]) {
    statuses[field] = (await admin.patch(`/api/deal/${deal.id}`, { [field]: text })).status;
  }
  assert(
    Object.values(statuses).every((s) => s >= 400 && s < 500),
    `expected 4xx for every field, got ${JSON.stringify(statuses)}`,
  );
  assertEquals(await errorLogCount(), before, `no error logged: ${(await errorLogs(before)).join("\n")}`);
});
