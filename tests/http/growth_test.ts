// Costs that stay flat as the data grows ("Production, part 2" §6): the admin list's search by deal
// number, email, name and HubSpot id and its paging; 'Mes devis' of a customer and of a partner in
// pages of 25 with page links and French errors; the chat opening on its last 50 messages with older
// pages on demand; no HubSpot sync job queued while the sync is off; and the plans: the list's sorts
// and the search's text read through their indexes (EXPLAIN, on PGlite and on PostgreSQL).
import { assert, assertEquals } from "../support/assert.ts";
import { httpTest, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import {
  ADMIN,
  adminPage,
  assertError,
  CUSTOMER,
  loggedIn,
  PARTNER,
  PARTNER2,
  registeredCustomer,
  unique,
  userIdOf,
} from "./deals_fixtures_test.ts";
import { systemActor, transactionAs } from "../../lib/actor.ts";
import { refreshSearchText } from "../../lib/deals/store.ts";
import { recordCrmSync } from "../../lib/crm/switch.ts";
import type { ChatMessage } from "../../lib/chat/rules.ts";

const PAGE_INVALID = "Le numéro de page est invalide.";

/** `n` deals written as the system with their contacts and search text, newest last. */
/** `n` deals, created one second apart from now on: newer than any deal another module sharing the database
 * (the PostgreSQL step) made before. */
async function insertDeals(
  n: number,
  fields: { customerId?: string | null; companyId?: string | null; status?: string; name: string },
): Promise<number[]> {
  const { db } = await testEnv();
  const rows = await systemQuery<{ id: number }>(
    db,
    `insert into public.deals (name, status, customer_id, company_id, hubspot_id, created_at)
     select $1 || ' ' || g, $2, $3, $4, null, now() + make_interval(secs => g)
     from generate_series(1, $5) g returning id`,
    [fields.name, fields.status ?? "send", fields.customerId ?? null, fields.companyId ?? null, n],
  );
  const ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  await systemQuery(
    db,
    `insert into public.deal_contacts (deal_id, firstname, lastname, email)
     select id, 'Prénom', 'Nom' || id, 'contact' || id || '@growth.test' from unnest($1::bigint[]) id`,
    [ids],
  );
  await transactionAs(db, systemActor("seed"), async (tx) => {
    for (const id of ids) await refreshSearchText(tx, id);
  });
  return ids;
}

function islandProps<T>(html: string, island: string): T {
  const match = html.match(new RegExp(`data-island="${island}" data-props="([^"]*)"`));
  assert(match, `island ${island} rendered`);
  const json = match[1].replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">").replaceAll("&amp;", "&");
  return JSON.parse(json) as T;
}

httpTest("growth: admin search by deal number, email, name and HubSpot id finds the deal", async () => {
  const { db } = await testEnv();
  const admin = await loggedIn(ADMIN);
  const lastname = unique("Quasimodo");
  const [id] = await insertDeals(1, { name: `Mariage ${lastname}` });
  const hubspotId = String(7_000_000_000 + id);
  await systemQuery(db, "update public.deals set hubspot_id = $2 where id = $1", [id, hubspotId]);
  await systemQuery(db, "update public.deal_contacts set lastname = $2 where deal_id = $1", [id, lastname]);
  await transactionAs(db, systemActor("seed"), (tx) => refreshSearchText(tx, id));
  const search = async (q: string) =>
    adminPage(await admin.get(`/api/deal/index?search=${encodeURIComponent(q)}&perPage=100`));

  for (const q of [String(id), `contact${id}@growth.test`, lastname, lastname.toUpperCase(), hubspotId]) {
    const page = await search(q);
    assert(page.items.some((d: { id: number }) => d.id === id), `search '${q}' finds deal ${id}`);
    assert(page.total >= 1 && page.total === page.items.length, `search '${q}': total ${page.total}`);
  }
  assertEquals(
    (await search(`${lastname} Prénom`)).items.map((d: { id: number }) => d.id),
    [id],
    "two words",
  );
  assertEquals((await search(`${lastname} absent`)).total, 0, "every word must match");
  // A number shorter than a trigram is a deal number or a HubSpot id, matched exactly.
  const short = await search("7");
  assert(
    short.items.every((d: { id: number; hubspotId: string | null }) => d.id === 7 || d.hubspotId === "7"),
  );
});

httpTest("growth: admin list pages: page 2 shows other deals, bounds, French errors", async () => {
  const admin = await loggedIn(ADMIN);
  const name = unique("Paged");
  await insertDeals(7, { name });
  const page = async (n: number | string) =>
    await admin.get(`/api/deal/index?search=${encodeURIComponent(name)}&perPage=5&page=${n}`);
  const first = adminPage(await page(1));
  const second = adminPage(await page(2));
  assertEquals(first.total, 7);
  assertEquals(first.items.length, 5);
  assertEquals(second.items.length, 2);
  const ids = [...first.items, ...second.items].map((d: { id: number }) => d.id);
  assertEquals(new Set(ids).size, 7, "no deal on both pages");
  assertEquals(adminPage(await page(3)).items.length, 0, "beyond the last page: no row");
  assertEquals(adminPage(await page(3)).total, 7, "…and the total");
  for (const bad of ["0", "-1", "abc", "1.5", "100001"]) {
    const json = assertError(await page(bad), 422, undefined, `page=${bad}`);
    assertEquals(json.errors.page, PAGE_INVALID, `page=${bad}`);
  }
  // The unfiltered first page: 25 rows, the total of every deal.
  const all = adminPage(await admin.get("/api/deal/index"));
  assertEquals(all.items.length, 25);
  const { db } = await testEnv();
  const [{ n }] = await systemQuery<{ n: number }>(db, "select count(*)::int as n from public.deals");
  assertEquals(all.total, n);
  const html = await admin.get("/dashboard/admin/devis");
  assertEquals(html.status, 200);
  const bytes = new TextEncoder().encode(html.text).length;
  assert(bytes < 150_000, `admin list page: ${bytes} bytes for 25 rows`);
});

httpTest("growth: the customer's 'Mes devis' in pages of 25 with page links", async () => {
  const customer = await registeredCustomer();
  const ids = await insertDeals(30, { customerId: customer.id, name: unique("Client") });
  const api = async (q = "") => await customer.client.get(`/api/customer/deal/index${q}`);
  const one = (await api()).json<
    { results: { id: number }[]; total: number; page: number; perPage: number }
  >();
  assertEquals(one.total, 30);
  assertEquals(one.perPage, 25);
  assertEquals(one.results.map((d) => d.id), [...ids].reverse().slice(0, 25), "newest first");
  const two = (await api("?page=2")).json<{ results: { id: number }[] }>();
  assertEquals(two.results.map((d) => d.id), [...ids].reverse().slice(25), "page 2: the 5 oldest");
  assertEquals((await api("?page=3")).json<{ results: unknown[] }>().results.length, 0);
  assertError(await api("?page=abc"), 422, PAGE_INVALID);

  const page = await customer.client.get("/dashboard/client/devis");
  assertEquals(page.status, 200);
  assertEquals((page.text.match(/<tr [^>]*data-deal-id=/g) ?? []).length, 25, "25 rows in the table");
  assert(page.text.includes('href="/dashboard/client/devis?page=2"'), "a link to page 2");
  const page2 = await customer.client.get("/dashboard/client/devis?page=2");
  assertEquals((page2.text.match(/<tr [^>]*data-deal-id=/g) ?? []).length, 5);
  assert(page2.text.includes('href="/dashboard/client/devis?page=1"'), "a link back to page 1");
  const bad = await customer.client.get("/dashboard/client/devis?page=0");
  assert(bad.status >= 400 && bad.status < 500, `bad page: ${bad.status}`);
  assert(bad.text.includes(PAGE_INVALID), "the French message on the page");
  // The landing page lists only the requests in progress, in pages too.
  const landing = await customer.client.get("/dashboard/demandes-en-cours");
  assertEquals((landing.text.match(/<li [^>]*data-deal-id=/g) ?? []).length, 25);
});

httpTest("growth: the partner's 'Mes devis' in pages of 25", async () => {
  const partner2 = await loggedIn(PARTNER2);
  const name = unique("Partenaire");
  const ids = await insertDeals(27, { companyId: await userIdOf(PARTNER2), name });
  const one = (await partner2.get("/api/deal/index")).json<{ results: { id: number }[]; total: number }>();
  assertEquals(one.results.length, 25);
  assertEquals(one.results.slice(0, 25).map((d) => d.id), [...ids].reverse().slice(0, 25), "newest first");
  const two = (await partner2.get("/api/deal/index?page=2")).json<{ results: { id: number }[] }>();
  assert(two.results.length >= 2);
  assertEquals(two.results.slice(0, 2).map((d) => d.id), [ids[1], ids[0]]);
  assertError(await partner2.get("/api/deal/index?page=x"), 422, PAGE_INVALID);
  const page = await partner2.get("/dashboard/partenaire/devis");
  assertEquals(page.status, 200);
  assert(page.text.includes('href="/dashboard/partenaire/devis?page=2"'), "a link to page 2");
  const bytes = new TextEncoder().encode(page.text).length;
  assert(bytes < 150_000, `partner page: ${bytes} bytes`);
  // Another partner sees none of them.
  const partner = await loggedIn(PARTNER);
  const theirs = (await partner.get("/api/deal/index")).json<{ results: { id: number }[] }>();
  assert(theirs.results.every((d) => !ids.includes(d.id)));
});

httpTest("growth: the chat opens on its last 50 messages; older ones come in pages", async () => {
  const { db } = await testEnv();
  const customerId = await userIdOf(CUSTOMER);
  const [deal] = await systemQuery<{ id: number; token: string }>(
    db,
    `insert into public.deals (name, status, customer_id, company_id, totals)
     values ('Chat 120', 'send', $1, $2, '{"totalTTC": 100000}') returning id, token`,
    [customerId, await userIdOf(PARTNER)],
  );
  await systemQuery(
    db,
    `insert into public.chat_messages (deal_id, type, text, author_id)
     select $1, 'message', 'Message ' || g, $2 from generate_series(1, 120) g`,
    [deal.id, customerId],
  );
  const customer = await loggedIn(CUSTOMER);
  const page = await customer.get(`/deal/show/${deal.token}`);
  assertEquals(page.status, 200);
  const props = islandProps<{ messages: ChatMessage[]; hasOlder: boolean }>(page.text, "DealChat");
  assertEquals(props.messages.length, 50, "the page shows 50");
  assertEquals(props.messages.at(-1)!.text, "Message 120", "the latest");
  assertEquals(props.hasOlder, true);
  assert(page.text.includes("Messages précédents"), "the button");

  const thread = `entityId=${deal.id}&entityType=DealCompany`;
  type Page = { results: ChatMessage[]; hasOlder: boolean };
  const latest = (await customer.get(`/api/chat/messages?${thread}`)).json<Page>();
  assertEquals(latest.results.map((m) => m.text), props.messages.map((m) => m.text));
  const older = (await customer.get(`/api/chat/messages?${thread}&before=${latest.results[0].id}`)).json<
    Page
  >();
  assertEquals(older.results.length, 50);
  assertEquals(older.results.at(-1)!.text, "Message 70");
  assertEquals(older.hasOlder, true);
  const oldest = (await customer.get(`/api/chat/messages?${thread}&before=${older.results[0].id}`)).json<
    Page
  >();
  assertEquals(oldest.results.map((m) => m.text), Array.from({ length: 20 }, (_, i) => `Message ${i + 1}`));
  assertEquals(oldest.hasOlder, false);
  const both = await customer.get(`/api/chat/messages?${thread}&before=5&after=1`);
  assertError(both, 422, "Indiquez soit after, soit before, pas les deux.");
  assertError(await customer.get(`/api/chat/messages?${thread}&before=abc`), 422);
  // Someone else's chat stays closed, older pages included.
  const other = await loggedIn(PARTNER2);
  assertEquals((await other.get(`/api/chat/messages?${thread}&before=${older.results[0].id}`)).status, 403);
});

httpTest("growth: with the HubSpot sync off no job is queued, and pending ones are purged", async () => {
  const { db } = await testEnv();
  const pending = async (id?: number) =>
    (await systemQuery<{ n: number }>(
      db,
      `select count(*)::int as n from outbox.jobs where queue = 'crm-sync' and state = 'pending'
         and ($1::text is null or key = $1)`,
      [id === undefined ? null : `deal-${id}`],
    ))[0].n;
  const [queued] = await insertDeals(1, { name: unique("Sync") });
  assertEquals(await pending(queued), 1, "on (the default): the insert queued its sync");
  try {
    const purged = await recordCrmSync(db, { hubspotToken: "" });
    assert(purged >= 1, `turning it off purged the pending syncs (${purged})`);
    assertEquals(await pending(), 0);
    const [id] = await insertDeals(1, { name: unique("Sync") });
    await systemQuery(db, "update public.deals set name = name || ' bis', total_ht = 12345 where id = $1", [
      id,
    ]);
    // An admin's edit through the API queues nothing either.
    const admin = await loggedIn(ADMIN);
    const edit = await admin.patch(`/api/deal/${id}`, { properties: { ville: "Nantes" } });
    assertEquals(edit.status, 200, edit.text);
    assertEquals(await pending(), 0, "off: no job for a new or changed deal");
  } finally {
    assertEquals(await recordCrmSync(db, { hubspotToken: "pat-test" }), 0, "turning it on purges nothing");
  }
  const [again] = await insertDeals(1, { name: unique("Sync") });
  await systemQuery(db, "update public.deals set name = name || ' bis' where id = $1", [again]);
  assertEquals(await pending(again), 1, "on again: one coalesced job");
});

httpTest("growth: the list's sorts and the search's text are read through their indexes", async () => {
  const { db } = await testEnv();
  const plan = async (sql: string) => {
    const rows = await transactionAs(db, systemActor("seed"), async (tx) => {
      await tx.query("set local enable_seqscan = off");
      await tx.query("set local enable_sort = off");
      return await tx.query<{ "QUERY PLAN": unknown }>(`explain (format json) ${sql}`);
    });
    return JSON.stringify(rows[0]["QUERY PLAN"]);
  };
  const indexOf = (json: string) => [...json.matchAll(/"Index Name":\s*"([^"]+)"/g)].map((m) => m[1]);
  // With sequential scans and sorts priced out, a plan without the index would still read the table:
  // the index must be there and usable for the expression.
  assert(
    indexOf(await plan("select deal_id from public.deal_contacts where search_text like '%zorglub%'"))
      .includes("deal_contacts_search_trgm_idx"),
    "the search's like uses the trigram index",
  );
  const orders: [string, string][] = [
    ["created_at desc, id desc", "deals_created_at_idx"],
    ["created_at asc, id asc", "deals_created_at_idx"],
    ["service_date desc nulls last, id desc", "deals_service_date_desc_idx"],
    ["service_date asc nulls last, id asc", "deals_service_date_asc_idx"],
    ["total_ht desc, id desc", "deals_total_ht_id_idx"],
  ];
  for (const [order, index] of orders) {
    const json = await plan(`select id from public.deals d order by ${order} limit 25`);
    assert(indexOf(json).includes(index), `order by ${order}: ${index} (${indexOf(json).join(", ")})`);
    assert(!json.includes('"Node Type": "Sort"'), `order by ${order}: no sort`);
  }
});
