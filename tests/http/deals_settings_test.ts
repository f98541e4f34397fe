// The quote engine's settings API (routes/settings_api.ts): GET/PATCH /api/settings/{key} (admins
// read — a partner the base grid only — admins write, each key checked with the spec's messages), GET/PATCH
// /api/company/settings/{name}/{userId} (a partner its own records only, admins any partner's),
// GET /api/company/index (admins only) and GET /api/field/{name}. Every value written here is put back
// afterwards: on PostgreSQL the test files share one database.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { DEFAULT_COMMISSION_TIERS, DEFAULT_PRICING } from "../../lib/deals/pricing.ts";
import {
  ADMIN,
  anonymous,
  assertError,
  body,
  CUSTOMER,
  dealOf,
  errorLogCount,
  errorLogs,
  freshIp,
  type Json,
  loggedIn,
  MSG,
  PARTNER,
  PARTNER2,
  SIGNATURE_CATALOGUE,
  userIdOf,
} from "./deals_fixtures_test.ts";

const GRID_SAVED = "Grille tarifaire sauvegardée avec succès.";
const SETTINGS_SAVED = "Les paramètres ont été sauvegardés.";
const COCKTAIL_REQUIRED = "Le nom et la description du cocktail sont obligatoires.";
const TIER_NOT_ABOVE = 'La valeur "Entre" doit être supérieure à la tranche précédente.';
const TIER_GAP =
  'Il ne doit pas y avoir de trou entre les tranches (le "Entre" doit être égal à la tranche précédente + 1).';
const tierError = (kind: string, n: number) =>
  `Erreur dans la ${
    kind ? `tranche de ${kind} ${n}` : `tranche ${n}`
  }: Vérifiez que toutes les valeurs sont renseignées et que les tranches sont cohérentes.`;

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

/** Runs `fn`, then puts the global settings and company settings rows back as they were. */
async function restoring(fn: () => Promise<void>) {
  const { db } = await testEnv();
  const settings = await systemQuery<Json>(db, "select key, value, type from public.settings");
  const company = await systemQuery<Json>(
    db,
    "select user_id, name, value, type from public.company_settings",
  );
  try {
    await fn();
  } finally {
    await systemQuery(db, "delete from public.settings");
    for (const s of settings) {
      await systemQuery(db, "insert into public.settings (key, value, type) values ($1, $2::jsonb, $3)", [
        s.key,
        JSON.stringify(s.value),
        s.type,
      ]);
    }
    await systemQuery(db, "delete from public.company_settings");
    for (const s of company) {
      await systemQuery(
        db,
        "insert into public.company_settings (user_id, name, value, type) values ($1, $2, $3::jsonb, $4)",
        [s.user_id, s.name, JSON.stringify(s.value), s.type],
      );
    }
  }
}

async function impersonating(email: string): Promise<Client> {
  const client = new Client({ ip: freshIp() });
  await client.login(ADMIN);
  assertEquals((await client.request("POST", `/admin/switch/${await userIdOf(email)}`)).status, 303);
  return client;
}

httpTest(
  "GET /api/settings/{key}: admins read; partners the base grid only; customers 403; anonymous 401",
  async () => {
    const clients: [string, Client][] = [
      ["admin", await loggedIn(ADMIN)],
      ["partner", await loggedIn(PARTNER)],
      ["impersonator", await impersonating(PARTNER)],
    ];
    for (const [role, client] of clients) {
      const pricing = dealOf(await client.get("/api/settings/deviseur_pricing"));
      assert(Array.isArray(pricing.value.flatFees), `${role}: the grid has flatFees`);
      assertEquals(pricing.type, "json");
      const flagged = await client.get("/api/settings/deviseur_show_custom_field_1_on_quote");
      if (role === "admin") {
        const flag = dealOf(flagged);
        assertEquals(flag.type, "boolean", role);
        assert(["0", "1"].includes(flag.value), `${role}: booleans are '0' or '1'`);
      } else assertError(flagged, 403, MSG.forbidden, `${role}: the platform's settings`);
      assertError(await client.get("/api/settings/inconnu"), 404, MSG.settingUnknown, role);
      assertError(await client.get("/api/settings/DEVISEUR_PRICING"), 404, MSG.settingUnknown, role);
    }
    const customer = await loggedIn(CUSTOMER);
    assertError(await customer.get("/api/settings/deviseur_pricing"), 403, MSG.forbidden, "customer");
    assertError(await anonymous().get("/api/settings/deviseur_pricing"), 401, MSG.unauthenticated);
  },
);

httpTest(
  "PATCH /api/settings/{key}: admins only (partners, customers, impersonation 403; anonymous 401)",
  async () => {
    await restoring(async () => {
      const before = dealOf(await (await loggedIn(ADMIN)).get("/api/settings/deviseur_description"));
      for (
        const [role, client] of [
          ["partner", await loggedIn(PARTNER)],
          ["partner2", await loggedIn(PARTNER2)],
          ["customer", await loggedIn(CUSTOMER)],
          ["impersonator", await impersonating(PARTNER)],
        ] as [string, Client][]
      ) {
        for (const key of ["deviseur_description", "deviseur_pricing", "deviseur_settings", "inconnu"]) {
          const res = await client.patch(`/api/settings/${key}`, { value: "<p>Piraté</p>", type: "text" });
          assertError(res, 403, MSG.forbidden, `${role} ${key}`);
        }
      }
      assertError(
        await anonymous().patch("/api/settings/deviseur_description", { value: "x" }),
        401,
        MSG.unauthenticated,
      );
      const after = dealOf(await (await loggedIn(ADMIN)).get("/api/settings/deviseur_description"));
      assertEquals(after, before, "nothing changed");
    });
  },
);

httpTest("PATCH /api/settings/{key} as admin: saved values and every validation message", async () => {
  await restoring(async () => {
    const admin = await loggedIn(ADMIN);
    const before = await errorLogCount();
    assertError(await admin.patch("/api/settings/inconnu", { value: 1 }), 404, MSG.settingUnknown);

    // The default pricing grid.
    const saved = await admin.patch("/api/settings/deviseur_pricing", {
      value: DEFAULT_PRICING,
      type: "json",
    });
    assertEquals(body(saved).message, GRID_SAVED);
    assertEquals(dealOf(saved).value, DEFAULT_PRICING);
    assertEquals(dealOf(await admin.get("/api/settings/deviseur_pricing")).value, DEFAULT_PRICING);
    const grid = (change: (g: Json) => void) => {
      const g = clone(DEFAULT_PRICING) as unknown as Json;
      change(g);
      return admin.patch("/api/settings/deviseur_pricing", { value: g, type: "json" });
    };
    const cases: [(g: Json) => void, string, string][] = [
      [(g) => (g.cocktailTiers[0].to = 0), tierError("cocktails", 1), "cocktailTiers"],
      [(g) => (g.cocktailTiers[1].signature = -1), tierError("cocktails", 2), "cocktailTiers"],
      [(g) => (g.cocktailTiers[1].from = 50), TIER_NOT_ABOVE, "cocktailTiers"],
      [(g) => (g.cocktailTiers[1].from = 150), TIER_GAP, "cocktailTiers"],
      [(g) => (g.staffTiers[1].count = -2), tierError("staff", 2), "staffTiers"],
      [(g) => (g.staffTiers[2].from = 130), TIER_GAP, "staffTiers"],
      [(g) => (g.durationTiers[0].cost = -5), tierError("durée", 1), "durationTiers"],
      [(g) => (g.durationTiers[3].from = 100), TIER_NOT_ABOVE, "durationTiers"],
      // Checked in this order: cocktail tiers first, then staff, then durations.
      [
        (g) => {
          g.durationTiers[0].cost = -5;
          g.staffTiers[0].count = -1;
          g.cocktailTiers[0].to = 0;
        },
        tierError("cocktails", 1),
        "cocktailTiers",
      ],
      [
        (g) => {
          g.durationTiers[0].cost = -5;
          g.staffTiers[0].count = -1;
        },
        tierError("staff", 1),
        "staffTiers",
      ],
    ];
    for (const [change, message, section] of cases) {
      const json = assertError(await grid(change), 422, message, message);
      assertEquals(json.errors[section], message, `field ${section}`);
    }
    assertEquals(
      dealOf(await admin.get("/api/settings/deviseur_pricing")).value,
      DEFAULT_PRICING,
      "refusals saved nothing",
    );

    // Commission tiers ('Commission fixe').
    const tiers = await admin.patch("/api/settings/deviseur_fixed_commission_tiers", {
      value: DEFAULT_COMMISSION_TIERS,
    });
    assertEquals(body(tiers).message, SETTINGS_SAVED);
    const badTiers = clone(DEFAULT_COMMISSION_TIERS) as unknown as Json[];
    badTiers[1].cost = -1;
    assertError(
      await admin.patch("/api/settings/deviseur_fixed_commission_tiers", { value: badTiers }),
      422,
      tierError("", 2),
    );
    const gap = clone(DEFAULT_COMMISSION_TIERS) as unknown as Json[];
    gap[2].from = 4000;
    assertError(
      await admin.patch("/api/settings/deviseur_fixed_commission_tiers", { value: gap }),
      422,
      TIER_GAP,
    );
    assertError(
      await admin.patch("/api/settings/deviseur_fixed_commission_tiers", { value: "x" }),
      422,
      tierError("", 1),
    );

    // Named numeric settings: bounds with the setting's label.
    const named = await admin.patch("/api/settings/deviseur_settings", {
      value: [{ id: "vat_rate", value: "20" }, { id: "deposit_percentage", value: 30 }],
    });
    assertEquals(body(named).message, SETTINGS_SAVED);
    const stored = dealOf(named).value as Json[];
    assertEquals(stored.find((s) => s.id === "vat_rate")?.value, 20);
    assertEquals(stored.find((s) => s.id === "vat_rate")?.suffix, "%");
    const vat = assertError(
      await admin.patch("/api/settings/deviseur_settings", { value: [{ id: "vat_rate", value: 150 }] }),
      422,
      "« Taux de TVA » doit être compris entre 0 et 100.",
    );
    assertEquals(vat.errors.vat_rate, "« Taux de TVA » doit être compris entre 0 et 100.");
    assertError(
      await admin.patch("/api/settings/deviseur_settings", {
        value: [{ id: "deposit_percentage", value: 12.5 }],
      }),
      422,
      "« Acompte demandé » doit être compris entre 1 et 100.",
    );
    assertError(
      await admin.patch("/api/settings/deviseur_settings", { value: { vat_rate: 20 } }),
      422,
      "Les paramètres sont invalides.",
    );

    // Booleans are stored as '1' (or '0').
    for (const [value, expected] of [[true, "1"], ["1", "1"], [1, "1"], [false, "0"], ["0", "0"]] as const) {
      const res = await admin.patch("/api/settings/deviseur_show_custom_field_1_on_invoice", {
        value,
        type: "boolean",
      });
      assertEquals(dealOf(res).value, expected, JSON.stringify(value));
      assertEquals(dealOf(res).type, "boolean");
    }
    // Rich texts are sanitised; anything but a string is refused.
    const rich = await admin.patch("/api/settings/deviseur_signtext_field", {
      value: '<p style="color: red">Signé<script>alert(1)</script><img src=x onerror="alert(1)"></p>',
      type: "text",
    });
    assertEquals(body(rich).message, SETTINGS_SAVED);
    const text = String(dealOf(rich).value);
    assert(!/script|onerror/i.test(text), text);
    assert(text.startsWith("<p") && text.includes("Signé"), text);
    assertError(
      await admin.patch("/api/settings/deviseur_description", { value: { html: "x" } }),
      422,
      "Ce texte est invalide.",
    );
    assertError(
      await admin.patch("/api/settings/deviseur_description", { value: "x".repeat(200_001) }),
      422,
      "Ce texte est trop long.",
    );
    assertEquals(await errorLogCount(), before, `no error logged: ${(await errorLogs(before)).join("\n")}`);
  });
});

httpTest("PATCH /api/settings/{key}: malformed values answer 4xx, never 500", async () => {
  await restoring(async () => {
    const admin = await loggedIn(ADMIN);
    const before = await errorLogCount();
    const statuses: Record<string, number> = {};
    const tries: [string, string, unknown][] = [
      ["pricing null", "deviseur_pricing", null],
      ["pricing text", "deviseur_pricing", "grille"],
      ["pricing array", "deviseur_pricing", []],
      ["pricing cocktailTiers [null]", "deviseur_pricing", { ...DEFAULT_PRICING, cocktailTiers: [null] }],
      ["pricing staffTiers [null]", "deviseur_pricing", { ...DEFAULT_PRICING, staffTiers: [null] }],
      ["pricing durationTiers [null]", "deviseur_pricing", { ...DEFAULT_PRICING, durationTiers: [null] }],
      ["pricing settings [null]", "deviseur_pricing", { ...DEFAULT_PRICING, settings: [null] }],
      ["pricing flatFees [null]", "deviseur_pricing", { ...DEFAULT_PRICING, flatFees: [null] }],
      ["commission tiers [null]", "deviseur_fixed_commission_tiers", [null]],
      ["commission tiers as text", "deviseur_fixed_commission_tiers", [{
        from: "0",
        to: "1000",
        cost: "50",
      }]],
    ];
    for (const [label, key, value] of tries) {
      statuses[label] = (await admin.patch(`/api/settings/${key}`, { value })).status;
    }
    const partnerId = await userIdOf(PARTNER);
    statuses["partner grid cocktailTiers [null]"] = (await admin.patch(
      `/api/company/settings/deviseur_pricing/${partnerId}`,
      { value: { ...DEFAULT_PRICING, cocktailTiers: [null] } },
    )).status;
    const raw = await admin.request("PATCH", "/api/settings/deviseur_pricing", {
      body: "{oops",
      headers: { "content-type": "application/json" },
    });
    assertError(raw, 400, MSG.invalidBody);
    const bad = Object.entries(statuses).filter(([, s]) => s >= 500);
    assertEquals(bad, [], `4xx expected for every malformed value: ${JSON.stringify(statuses)}`);
    assertEquals(await errorLogCount(), before, `no error logged: ${(await errorLogs(before)).join("\n")}`);
  });
});

httpTest(
  "company settings: a partner reads and writes its own records only; admins any partner's",
  async () => {
    await restoring(async () => {
      const admin = await loggedIn(ADMIN);
      const partner = await loggedIn(PARTNER);
      const partner2 = await loggedIn(PARTNER2);
      const customer = await loggedIn(CUSTOMER);
      const impersonator = await impersonating(PARTNER);
      const partnerId = await userIdOf(PARTNER);
      const partner2Id = await userIdOf(PARTNER2);
      const customerId = await userIdOf(CUSTOMER);
      const before = await errorLogCount();

      // Its own catalogue: written, read back, ids kept or assigned.
      const catalogue = clone(SIGNATURE_CATALOGUE) as Json;
      catalogue.mocktail = [{ name: "Virgin mojito", description: "Menthe, citron vert, soda" }];
      const saved = await partner.patch(`/api/company/settings/cocktails/${partnerId}`, { value: catalogue });
      assertEquals(body(saved).message, "Cocktail sauvegardé avec succès !");
      const value = dealOf(saved).value;
      assertEquals(value.signature.map((c: Json) => c.id), ["mojito-maison", "spritz-royal"]);
      assert(
        typeof value.mocktail[0].id === "string" && value.mocktail[0].id.length > 0,
        "an id is assigned",
      );
      assertEquals(value.mocktail[0].photo, "", "an empty photo by default");
      assertEquals(dealOf(await partner.get(`/api/company/settings/cocktails/${partnerId}`)).value, value);
      assertEquals(dealOf(await admin.get(`/api/company/settings/cocktails/${partnerId}`)).value, value);
      assertEquals(
        dealOf(await impersonator.get(`/api/company/settings/cocktails/${partnerId}`)).value,
        value,
      );
      for (
        const bad of [
          { signature: [{ name: "Sans description" }] },
          { signature: [{ name: "", description: "x" }] },
          "x",
          null,
        ]
      ) {
        const res = await partner.patch(`/api/company/settings/cocktails/${partnerId}`, { value: bad });
        assertError(res, 422, COCKTAIL_REQUIRED, JSON.stringify(bad));
      }
      // Its own pricing grid, with the grid's messages.
      const grid = await partner.patch(`/api/company/settings/deviseur_pricing/${partnerId}`, {
        value: DEFAULT_PRICING,
      });
      assertEquals(body(grid).message, GRID_SAVED);
      const badGrid = clone(DEFAULT_PRICING) as unknown as Json;
      badGrid.cocktailTiers[2].from = 250;
      assertError(
        await partner.patch(`/api/company/settings/deviseur_pricing/${partnerId}`, { value: badGrid }),
        422,
        TIER_GAP,
      );

      // Another partner's records: 403 both ways, also while impersonating.
      for (
        const [role, client, target] of [
          ["partner → partner2", partner, partner2Id],
          ["partner2 → partner", partner2, partnerId],
          ["impersonated partner → partner2", impersonator, partner2Id],
        ] as [string, Client, string][]
      ) {
        for (const name of ["cocktails", "deviseur_pricing"]) {
          assertError(
            await client.get(`/api/company/settings/${name}/${target}`),
            403,
            MSG.forbidden,
            `${role} GET ${name}`,
          );
          assertError(
            await client.patch(`/api/company/settings/${name}/${target}`, { value: SIGNATURE_CATALOGUE }),
            403,
            MSG.forbidden,
            `${role} PATCH ${name}`,
          );
        }
      }
      // Customers: none, not even under their own id.
      for (const target of [customerId, partnerId]) {
        assertError(await customer.get(`/api/company/settings/cocktails/${target}`), 403, MSG.forbidden);
        assertError(
          await customer.patch(`/api/company/settings/cocktails/${target}`, { value: SIGNATURE_CATALOGUE }),
          403,
          MSG.forbidden,
        );
      }
      assertError(
        await anonymous().get(`/api/company/settings/cocktails/${partnerId}`),
        401,
        MSG.unauthenticated,
      );
      assertError(
        await anonymous().patch(`/api/company/settings/cocktails/${partnerId}`, { value: {} }),
        401,
        MSG.unauthenticated,
      );

      // Admins: any partner's, never a customer's; unknown names and malformed ids are 404s.
      const forPartner2 = await admin.patch(`/api/company/settings/cocktails/${partner2Id}`, {
        value: SIGNATURE_CATALOGUE,
      });
      assertEquals(dealOf(forPartner2).value.signature.length, 2);
      assertEquals(
        dealOf(await partner2.get(`/api/company/settings/cocktails/${partner2Id}`)).value.signature.length,
        2,
      );
      assertError(
        await admin.patch(`/api/company/settings/cocktails/${customerId}`, { value: SIGNATURE_CATALOGUE }),
        404,
        MSG.partnerUnknown,
      );
      assertError(
        await admin.patch(`/api/company/settings/cocktails/${crypto.randomUUID()}`, {
          value: SIGNATURE_CATALOGUE,
        }),
        404,
        MSG.partnerUnknown,
      );
      assertError(await admin.get(`/api/company/settings/inconnu/${partnerId}`), 404, MSG.settingUnknown);
      assertError(
        await partner.patch(`/api/company/settings/inconnu/${partnerId}`, { value: 1 }),
        404,
        MSG.settingUnknown,
      );
      for (const id of ["abc", "1", `${partnerId}x`, "%27"]) {
        assertError(await admin.get(`/api/company/settings/cocktails/${id}`), 404, MSG.partnerUnknown, id);
        assertError(
          await partner.patch(`/api/company/settings/cocktails/${id}`, { value: {} }),
          404,
          MSG.partnerUnknown,
          id,
        );
      }
      // A record never written reads as null.
      const { db } = await testEnv();
      await systemQuery(
        db,
        "delete from public.company_settings where user_id = $1 and name = 'deviseur_pricing'",
        [partner2Id],
      );
      const none = await partner2.get(`/api/company/settings/deviseur_pricing/${partner2Id}`);
      assertEquals(none.status, 200);
      assertEquals(body(none).results, null);
      assertEquals(await errorLogCount(), before, `no error logged: ${(await errorLogs(before)).join("\n")}`);
    });
  },
);

httpTest("GET /api/company/index: admins only, partners with id, name, email and city", async () => {
  const admin = await loggedIn(ADMIN);
  const list = dealOf(await admin.get("/api/company/index")) as unknown as Json[];
  const partnerId = await userIdOf(PARTNER);
  const shaker = list.find((c) => c.id === partnerId);
  assertEquals(shaker, { id: partnerId, name: "Shaker & Co", email: PARTNER, city: "Lyon" });
  assert(list.some((c) => c.email === PARTNER2), "the second partner");
  assert(!list.some((c) => [ADMIN, CUSTOMER].includes(c.email)), "no admin nor customer");
  for (
    const [role, client] of [
      ["partner", await loggedIn(PARTNER)],
      ["customer", await loggedIn(CUSTOMER)],
      ["impersonator", await impersonating(PARTNER)],
    ] as [string, Client][]
  ) {
    assertError(await client.get("/api/company/index"), 403, MSG.forbidden, role);
  }
  assertError(await anonymous().get("/api/company/index"), 401, MSG.unauthenticated);
});

httpTest(
  "GET /api/field/{name}: the option lists for the back office; customers 403; unknown 404; anonymous 401",
  async () => {
    const customer = await loggedIn(CUSTOMER);
    assertError(await customer.get("/api/field/duree_2_service"), 403, MSG.forbidden, "customer");
    for (const email of [ADMIN, PARTNER]) {
      const client = await loggedIn(email);
      const duration = dealOf(await client.get("/api/field/duree_2_service"));
      assertEquals(duration.name, "duree_2_service");
      assertEquals(duration.options.map((o: Json) => Number(o.value)), [
        90,
        120,
        180,
        240,
        300,
        360,
        420,
        480,
        600,
      ]);
      assertEquals(duration.options.at(-1).label, "+ de 8h00");
      const hours = dealOf(await client.get("/api/field/horaire_souhaite")).options.map((o: Json) => o.value);
      assertEquals([hours[0], hours.at(-1), hours.length], ["08:00", "00:00", 33]);
      for (
        const name of [
          "carte_des_cocktails",
          "mocktails",
          "type_d_evenement",
          "deal_location_type",
          "bar_mobile",
        ]
      ) {
        const field = await client.get(`/api/field/${name}`);
        assertEquals(field.status, 200, `${email} ${name}: ${field.text.slice(0, 200)}`);
        assert(Array.isArray(body(field).results.options), name);
      }
      assertError(await client.get("/api/field/inconnu"), 404, MSG.fieldUnknown);
      // Names of Object.prototype's members are no field either.
      const inherited: [string, number][] = [];
      for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
        inherited.push([name, (await client.get(`/api/field/${name}`)).status]);
      }
      assertEquals(
        inherited.filter(([, status]) => status !== 404),
        [],
        `${email}: inherited names answer 404`,
      );
    }
    assertError(await anonymous().get("/api/field/duree_2_service"), 401, MSG.unauthenticated);
  },
);
