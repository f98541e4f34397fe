// The pure mapping of our deals to HubSpot's, and the webhook's v3 signature checked against HubSpot's
// recipe computed with node:crypto (an implementation independent of the Web Crypto one).
import { createHmac } from "node:crypto";
import { assert, assertEquals } from "../../tests/support/assert.ts";

function assertThrows(fn: () => unknown) {
  let threw = false;
  try {
    fn();
  } catch {
    threw = true;
  }
  assert(threw, "expected an exception");
}
import {
  amountText,
  applyInbound,
  changedSince,
  DEFAULT_STAGES,
  fromHubSpot,
  hubspotText,
  listColumns,
  stageTable,
  toHubSpot,
} from "./mapping.ts";
import { dealIdsOf, signedUri, verifyV3 } from "../../supabase/functions/_shared/hubspot_webhook.ts";
import { parseFilters } from "../ops/rules.ts";

Deno.test("amounts and values as HubSpot keeps them", () => {
  assertEquals(amountText(123456), "1234.56");
  assertEquals(amountText(5), "0.05");
  assertEquals(amountText(0), "0.00");
  assertEquals(amountText(-250), "-2.50");
  assertEquals(hubspotText(null), "");
  assertEquals(hubspotText(80), "80");
  assertEquals(hubspotText(true), "true");
  assertEquals(hubspotText(["Mojito", "Spritz"]), "Mojito;Spritz");
});

Deno.test("stages: defaults, HUBSPOT_DEAL_STAGE_ACCEPTED and HUBSPOT_DEAL_STAGES", () => {
  assertEquals(stageTable("").accepted, "closedwon");
  assertEquals(stageTable("", "123456").accepted, "123456");
  const table = stageTable("accepted:contractsent, refused_client=closedlost,new:99887766");
  assertEquals([table.accepted, table.new, table.refused_client, table.start], [
    "contractsent",
    "99887766",
    "closedlost",
    DEFAULT_STAGES.start,
  ]);
  assertThrows(() => stageTable("unknown:x"));
  assertThrows(() => stageTable("accepted"));
});

Deno.test("toHubSpot, changedSince and applyInbound", () => {
  const out = toHubSpot(
    {
      name: "Mariage",
      status: "pay_partial",
      totalHt: 250000,
      properties: { ville: "Lyon", nombre_de_participants: 80 },
    },
    DEFAULT_STAGES,
    "default",
  );
  assertEquals([
    out.dealname,
    out.dealstage,
    out.amount,
    out.ville,
    out.nombre_de_participants,
    out.description,
  ], [
    "Mariage",
    "closedwon",
    "2500.00",
    "Lyon",
    "80",
    "",
  ]);
  assertEquals(changedSince({ a: "1", b: "2" }, { a: "1", b: "3" }, ["a", "b", "c"]), { b: "2" });
  const there = fromHubSpot({ dealname: "Mariage (bis)", ville: null, nombre_de_participants: "90" });
  assertEquals([there.ville, there.nombre_de_participants], ["", "90"]);
  const next = applyInbound(
    { name: "Mariage", properties: { ville: "Lyon", autre: "x" } },
    {
      dealname: "Mariage (bis)",
      ville: "",
      nombre_de_participants: "90",
      dealstage: "closedlost",
      inconnu: "y",
    },
  );
  assertEquals(next, { name: "Mariage (bis)", properties: { autre: "x", nombre_de_participants: 90 } });
  assertEquals(
    applyInbound({ name: "Garde", properties: {} }, { deal_prestation_date: "1812758400000" }).properties,
    {
      deal_prestation_date: "2027-06-12",
    },
  );
  assertEquals(
    listColumns({
      deal_prestation_date: "2027-06-12",
      nombre_de_participants: 80,
      type_d_evenement: "Mariage",
    }),
    {
      serviceDate: "2027-06-12",
      guests: 80,
      eventType: "Mariage",
    },
  );
  assertEquals(listColumns({ deal_prestation_date: "bientôt", nombre_de_participants: -1 }), {
    serviceDate: null,
    guests: null,
    eventType: null,
  });
});

Deno.test("webhook: the v3 signature against HubSpot's recipe (node:crypto)", async () => {
  const secret = "yyyyyyyy-yyyy-yyyy-yyyy-yyyyyyyyyyyy";
  const uri = "https://www.example.com/api/webhooks/hubspot?portal=62515";
  const body = '[{"objectId":123,"subscriptionType":"deal.creation"}]';
  const now = 1_800_000_000_000;
  const timestamp = String(now - 1000);
  const signature = createHmac("sha256", secret).update("POST" + uri + body + timestamp).digest("base64");
  const headers = (sig: string, ts = timestamp) =>
    new Headers({ "x-hubspot-signature-v3": sig, "x-hubspot-request-timestamp": ts });
  assert(await verifyV3(secret, "POST", uri, body, headers(signature), now));
  assert(!(await verifyV3("wrong", "POST", uri, body, headers(signature), now)), "wrong secret");
  assert(!(await verifyV3(secret, "POST", uri, body + " ", headers(signature), now)), "modified body");
  assert(!(await verifyV3(secret, "POST", uri + "&x=1", body, headers(signature), now)), "another URI");
  const old = String(now - 5 * 60_000 - 1);
  const oldSig = createHmac("sha256", secret).update("POST" + uri + body + old).digest("base64");
  assert(!(await verifyV3(secret, "POST", uri, body, headers(oldSig, old), now)), "older than 5 minutes");
  assert(!(await verifyV3(secret, "POST", uri, body, headers(""), now)), "no signature");
  assert(!(await verifyV3("", "POST", uri, body, headers(signature), now)), "no secret configured");
  // HubSpot decodes these URL-encoded characters of the URI before signing.
  assertEquals(
    signedUri("https://x.fr/a%3Ab%2Fc%3Fd%40e%21%24%27%28%29%2A%2C%3B%20"),
    "https://x.fr/a:b/c?d@e!$'()*,;%20",
  );
});

Deno.test("webhook: the deals its events are about", () => {
  assertEquals(
    dealIdsOf([
      { subscriptionType: "deal.creation", objectId: 1 },
      { subscriptionType: "deal.propertyChange", objectId: 1 },
      { subscriptionType: "object.propertyChange", objectTypeId: "0-3", objectId: 2 },
      { subscriptionType: "object.propertyChange", objectTypeId: "0-1", objectId: 3 },
      { subscriptionType: "contact.creation", objectId: 4 },
      { subscriptionType: "deal.deletion", objectId: 5 },
      { subscriptionType: "deal.creation", objectId: "x; drop" },
    ]),
    ["1", "2"],
  );
});

Deno.test("logs page filters", () => {
  assertEquals(parseFilters({}), { ok: true, filters: { service: "", type: "", page: 1 } });
  assertEquals(parseFilters({ service: " hubspot ", type: "error", page: "3" }), {
    ok: true,
    filters: { service: "hubspot", type: "error", page: 3 },
  });
  for (const bad of [{ type: "fatal" }, { page: "0" }, { page: "1.5" }, { service: "a\u0001" }]) {
    assertEquals(parseFilters(bad).ok, false, JSON.stringify(bad));
  }
});
