// The admin's deals list (GET /api/deal/index as an admin, spec 001 §2.12): search by customer name, by
// partner name, by id; start and end date filters (on the creation date here, the second choice);
// pagination and sorting. Only admins get this shape; the test's deals carry unique names so that other deals in the database (demo
// data, other tests) never change the expected results.
import { assert, assertEquals } from "../support/assert.ts";
import { httpTest, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import {
  ADMIN,
  adminPage,
  assertError,
  CUSTOMER,
  dealOf,
  type Json,
  loggedIn,
  MSG,
  PARTNER,
  PARTNER2,
  requestDeal,
  unique,
  userIdOf,
} from "./deals_fixtures_test.ts";

async function backdate(id: number, isoDay: string) {
  const { db } = await testEnv();
  await systemQuery(db, "update public.deals set created_at = $2::timestamptz where id = $1", [
    id,
    `${isoDay}T10:00:00Z`,
  ]);
}

httpTest("admin list: search by customer name, partner name and id", async () => {
  const admin = await loggedIn(ADMIN);
  const lastname = unique("Zorglub");
  const a = await requestDeal({ overrides: { lastname, firstname: "Agathe" } });
  const b = await requestDeal({ overrides: { lastname, firstname: "Basile" } });
  const other = await requestDeal();
  const search = async (q: string, extra = "") =>
    adminPage(await admin.get(`/api/deal/index?search=${encodeURIComponent(q)}&perPage=100${extra}`));

  const byName = await search(lastname);
  assertEquals(byName.total, 2);
  assertEquals(byName.items.map((d: Json) => d.id).sort(), [a.id, b.id].sort());
  assert(byName.items.every((d: Json) => String(d.customerName).includes(lastname)), "customerName shown");
  // Case-insensitive, on the full name too.
  assertEquals((await search(`agathe ${lastname}`.toUpperCase())).items.map((d: Json) => d.id), [a.id]);
  assertEquals((await search(lastname.toUpperCase())).total, 2, "case-insensitive");
  assertEquals((await search("Agathe")).items.some((d: Json) => d.id === a.id), true);
  // Words in any order, accents ignored either way.
  const perrin = unique("Perrin");
  const accented = await requestDeal({ overrides: { lastname: perrin, firstname: "Élodie" } });
  assertEquals((await search(`${perrin} Élodie`)).items.map((d: Json) => d.id), [accented.id]);
  assertEquals((await search(`elodie ${perrin}`)).items.map((d: Json) => d.id), [accented.id]);
  assertEquals((await search(`ÉLODIE ${perrin}`)).items.map((d: Json) => d.id), [accented.id]);
  // By the contact's email.
  assertEquals((await search(String(a.request.email))).items.map((d: Json) => d.id), [a.id]);

  // By partner: assigning a partner makes the deal findable by its name.
  dealOf(await admin.patch(`/api/deal/${a.id}`, { company: await userIdOf(PARTNER) }));
  dealOf(await admin.patch(`/api/deal/${b.id}`, { company: await userIdOf(PARTNER2) }));
  const shaker = await search(`shaker & co`);
  assert(shaker.items.some((d: Json) => d.id === a.id), "found by the partner's name");
  assert(!shaker.items.some((d: Json) => d.id === b.id), "not the other partner's");
  assert(shaker.items.every((d: Json) => d.companyName === "Shaker & Co"), "only that partner's deals");
  const both = await search(lastname);
  assertEquals(
    both.items.map((d: Json) => [d.id, d.companyName]).sort(),
    [[a.id, "Shaker & Co"], [b.id, "Mixologie Events"]].sort(),
  );

  // By id.
  const byId = await search(String(other.id));
  assert(byId.items.some((d: Json) => d.id === other.id), "found by its id");
  // '%' and '_' are searched literally, not as wildcards.
  assertEquals((await search(`${lastname.slice(0, 4)}%${lastname.slice(6)}`)).total, 0);
  assertEquals((await search(`${lastname.slice(0, 4)}_${lastname.slice(5)}`)).total, 0);
  // Non-admins never get the admin list.
  const customer = await loggedIn(CUSTOMER);
  assertError(await customer.get(`/api/deal/index?search=${lastname}`), 403, MSG.notAllowed, "customer");
});

httpTest("admin list: creation-date filters (2nd choice), pagination and sort", async () => {
  const admin = await loggedIn(ADMIN);
  const lastname = unique("Datefilter");
  const days = ["2025-01-10", "2025-01-15", "2025-01-20", "2025-02-01", "2025-02-10"];
  const deals = [];
  for (const day of days) {
    const deal = await requestDeal({ overrides: { lastname } });
    await backdate(deal.id, day);
    deals.push(deal.id);
  }
  const list = async (query: string) =>
    adminPage(await admin.get(`/api/deal/index?search=${encodeURIComponent(lastname)}&${query}`));

  const all = await list("perPage=100");
  assertEquals(all.total, 5);
  assertEquals(all.items.map((d: Json) => d.id), [...deals].reverse(), "default: newest first");
  assertEquals([all.page, all.perPage], [1, 100]);

  // The creation date is the dates' second choice (dateField=createdAt); see deals_list_filters_test.ts.
  assertEquals(
    (await list("dateField=createdAt&from=2025-01-15&to=2025-01-20")).items.map((d: Json) => d.id),
    [
      deals[2],
      deals[1],
    ],
    "both ends included",
  );
  assertEquals((await list("dateField=createdAt&from=2025-02-01")).items.map((d: Json) => d.id), [
    deals[4],
    deals[3],
  ]);
  assertEquals((await list("dateField=createdAt&to=2025-01-10")).items.map((d: Json) => d.id), [deals[0]]);
  assertEquals((await list("dateField=createdAt&from=2025-03-01")).total, 0);

  const page1 = await list("perPage=2&page=1");
  const page2 = await list("perPage=2&page=2");
  const page3 = await list("perPage=2&page=3");
  const page4 = await list("perPage=2&page=4");
  assertEquals([page1.total, page2.total, page3.total, page4.total], [5, 5, 5, 5], "total on every page");
  assertEquals(
    [...page1.items, ...page2.items, ...page3.items].map((d: Json) => d.id),
    [...deals].reverse(),
    "pages follow each other without gap or repeat",
  );
  assertEquals(page4.items, []);
  assertEquals([page2.page, page2.perPage], [2, 2]);

  const ascending = await list("perPage=100&sort=createdAt&direction=asc");
  assertEquals(ascending.items.map((d: Json) => d.id), deals);
  const byId = await list("perPage=100&sort=id&direction=desc");
  assertEquals(byId.items.map((d: Json) => d.id), [...deals].sort((x, y) => y - x));
  // Every row has the list's columns.
  for (
    const key of [
      "id",
      "token",
      "name",
      "hubspotId",
      "status",
      "serviceDate",
      "guests",
      "eventType",
      "totalHt",
      "createdAt",
      "customerName",
      "companyName",
    ]
  ) {
    assert(key in all.items[0], `column ${key}`);
  }
  assertError(await admin.get("/api/deal/index?from=2025-02-30"), 422, "La recherche est invalide.");
});
