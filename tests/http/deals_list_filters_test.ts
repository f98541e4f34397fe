// The deals lists' filters (issue "Invoices…" §3): the admin list's 'Date de début' / 'Date de fin'
// filter the service date ('Date presta', the column beside them), the creation date being the labelled
// second choice; a search by deal number ('12', '#12') finds that deal first and alone when it exists,
// HubSpot ids whole; a status filter on the admin list and on the partner's 'Mes devis'.
import { assert, assertEquals } from "../support/assert.ts";
import { httpTest } from "../support/app.ts";
import {
  ADMIN,
  adminPage,
  assertError,
  body,
  dealForPartner,
  dealOf,
  inDays,
  type Json,
  loggedIn,
  PARTNER,
  requestDeal,
  unique,
} from "./deals_fixtures_test.ts";

const ids = (page: Json) => page.items.map((d: Json) => d.id);

httpTest(
  "admin list: the dates filter the service date; the creation date is the second choice",
  async () => {
    const admin = await loggedIn(ADMIN);
    const lastname = unique("Presta");
    // Five events in one month, a year ahead (requested today), and one the month after.
    const month = inDays(400).slice(0, 7);
    const next = inDays(440).slice(0, 7);
    const january = [];
    for (const day of ["03", "09", "15", "22", "30"]) {
      january.push(
        (await requestDeal({ overrides: { lastname, deal_prestation_date: `${month}-${day}` } })).id,
      );
    }
    const later = await requestDeal({ overrides: { lastname, deal_prestation_date: `${next}-05` } });
    const list = async (query: string) =>
      adminPage(
        await admin.get(`/api/deal/index?search=${encodeURIComponent(lastname)}&perPage=100&${query}`),
      );

    const inMonth = await list(`from=${month}-01&to=${month}-31`);
    assertEquals(inMonth.total, 5, "the 5 events of the month (0 when the creation date was filtered)");
    assertEquals([...ids(inMonth)].sort(), [...january].sort());
    assertEquals(
      ids(await list(`from=${month}-30`)).sort(),
      [january[4], later.id].sort(),
      "both ends included",
    );
    assertEquals(ids(await list(`to=${month}-03`)), [january[0]]);
    // The creation date, asked for: all six were created today, none in that month.
    assertEquals((await list(`dateField=createdAt&from=${month}-01&to=${month}-31`)).total, 0);
    const today = new Date().toISOString().slice(0, 10);
    assertEquals((await list(`dateField=createdAt&from=${today}`)).total, 6);
    assertError(await admin.get("/api/deal/index?dateField=paidAt"), 422, "La recherche est invalide.");
  },
);

httpTest(
  "admin list: a deal number finds that deal first and alone; '#' too; HubSpot ids whole",
  async () => {
    const admin = await loggedIn(ADMIN);
    const target = await requestDeal();
    const n = String(target.id);
    const search = async (q: string) =>
      adminPage(await admin.get(`/api/deal/index?search=${encodeURIComponent(q)}&perPage=100`));
    // Another deal whose number contains the target's (…n) or whose phone does would have matched before.
    assertEquals(ids(await search(n)), [target.id], "alone");
    assertEquals(ids(await search(`#${n}`)), [target.id], "with '#'");
    assertEquals(ids(await search(` #${n} `)), [target.id]);

    // A deal whose HubSpot id is that number, whole, comes after it; a HubSpot id that only contains it
    // does not.
    const twin = await requestDeal();
    const partial = await requestDeal();
    // Through the API, so that the search text holds the HubSpot ids too.
    dealOf(await admin.patch(`/api/deal/${twin.id}`, { hubspotId: n }));
    dealOf(await admin.patch(`/api/deal/${partial.id}`, { hubspotId: `9${n}9` }));
    const both = await search(n);
    assertEquals(ids(both), [target.id, twin.id], "the deal first, then the HubSpot id matched whole");
    assertEquals(both.total, 2);
    assertEquals(ids(await search(`#${n}`)), [target.id, twin.id]);
    // '#' and a number no deal has: nothing (not every deal whose text contains the digits).
    assertEquals((await search("#999999999999")).total, 0);
    // A longer number that is no deal number is still searched as text (a phone number).
    const phone = String(target.request.phone).replace(/\s/g, "");
    assert(ids(await search(phone)).includes(target.id), "found by its phone number");
  },
);

httpTest("status filters: the admin list (?status=) and the partner's 'Mes devis'", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const lastname = unique("Statut");
  const started = await requestDeal({ overrides: { lastname } });
  const sent = await dealForPartner(admin, PARTNER, { overrides: { lastname } });
  const list = async (query: string) =>
    adminPage(await admin.get(`/api/deal/index?search=${encodeURIComponent(lastname)}&perPage=100&${query}`));
  assertEquals((await list("")).total, 2);
  const onlyNew = await list("status=new");
  assertEquals([ids(onlyNew), onlyNew.total], [[sent.id], 1]);
  assertEquals([ids(await list("status=start")), (await list("status=start")).total], [[started.id], 1]);
  assertEquals((await list("status=send")).total, 0);
  const bad = assertError(await admin.get("/api/deal/index?status=nope"), 422, "La recherche est invalide.");
  assertEquals(bad.errors.status, "Statut inconnu.");
  // Without a search too (the count follows the filter).
  const allNew = adminPage(await admin.get("/api/deal/index?status=new&perPage=100"));
  assert(allNew.items.every((d: Json) => d.status === "new"), "only 'new' deals");
  assert(allNew.total >= 1 && allNew.total >= allNew.items.length);

  // The partner's 'Mes devis': API and page.
  const mine = body(await partner.get("/api/deal/index?status=new"));
  assertEquals(mine.status, "success");
  assert(mine.results.length > 0 && mine.results.every((d: Json) => d.status === "new"), "only 'new'");
  assert(mine.results.some((d: Json) => d.id === sent.id));
  const none = body(await partner.get("/api/deal/index?status=pay_total"));
  assert(none.results.every((d: Json) => d.status === "pay_total"));
  assert(!none.results.some((d: Json) => d.id === sent.id));
  assertError(await partner.get("/api/deal/index?status=nope"), 422, "Statut inconnu.");
  const page = await partner.get("/dashboard/partenaire/devis?status=new");
  assertEquals(page.status, 200);
  assert(page.text.includes('<option value="new" selected'), "the filter shows the chosen status");
  assert(page.text.includes(`#${sent.id}`) || page.text.includes(String(sent.id)), "the deal is listed");
});
