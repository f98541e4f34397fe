// One visitor must not hold every seat ("Production, part 2" §2), from the visitor's side: at most the
// session's places per date per cart (default 10) and 20 places per cart across dates, for anonymous
// visitors and customers alike, also when the requests arrive at once (on two instances sharing one
// database: PostgreSQL pools over TEST_DATABASE_URL, or the same PGlite); a lapsed hold has a
// cool-down; an address dropping its cart cookie gets new carts but not new places; the per-session
// setting is an admin's.
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import {
  bookingFields,
  Client,
  httpTest,
  ORIGIN,
  registrationPayload,
  TEST_LIMITS,
  testEnv,
  type TestResponse,
} from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { loadConfig } from "../../lib/config.ts";
import { openPostgres } from "../../lib/db/postgres.ts";
import { createLogger } from "../../lib/log/logger.ts";
import { createBackground, type Deps } from "../../lib/deps.ts";
import { memoryStorage } from "../../lib/storage/storage.ts";
import { createApp } from "../../routes/_app.tsx";
import type { Database } from "../../lib/db/database.ts";

type Json = Record<string, unknown>;

async function secondInstance(): Promise<{ app: Awaited<ReturnType<typeof createApp>>; db: Database }> {
  const shared = await testEnv();
  const url = Deno.env.get("TEST_DATABASE_URL");
  const db = url ? openPostgres(url, { max: 4 }) : shared.db;
  const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: ORIGIN, ...TEST_LIMITS })[name]);
  const logger = createLogger(db, { quiet: true });
  const deps: Deps = {
    config,
    db,
    logger,
    background: createBackground(logger, { manual: true }),
    storage: memoryStorage(),
  };
  return { app: await createApp(deps), db };
}

let n = 0;
const freshIp = () => `10.62.${Math.floor(++n / 250)}.${n % 250}`;

/** A published session with dates of `places` places each (its per-date setting: `perDate`). */
async function sessionWithDates(
  places: number[],
  perDate?: number,
): Promise<{ slug: string; id: number; uuids: string[] }> {
  const { db } = await testEnv();
  const slug = `limites-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 6)}`;
  const [session] = await systemQuery<{ id: number }>(
    db,
    `insert into public.workshop_sessions (slug, title, city, max_places_per_date)
     values ($1, 'Atelier limites', 'Paris', $2) returning id`,
    [slug, perDate ?? 10],
  );
  const uuids: string[] = [];
  for (const [i, p] of places.entries()) {
    const [date] = await systemQuery<{ uuid: string }>(
      db,
      `insert into public.session_dates (session_id, dtstart, places, places_left, price_ttc)
       values ($1, now() + make_interval(days => 5 + $3), $2, $2, 4500) returning uuid::text as uuid`,
      [session.id, p, i],
    );
    uuids.push(date.uuid);
  }
  return { slug, id: Number(session.id), uuids };
}

async function hold(client: Client, slug: string, uuid: string, quantity: number): Promise<TestResponse> {
  return await client.post(`/session/${slug}/date/${uuid}`, { ...(await bookingFields(uuid)), quantity });
}

async function placesLeft(uuid: string): Promise<number> {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ left: number }>(
    db,
    "select places_left as left from public.session_dates where uuid = $1",
    [uuid],
  );
  return row.left;
}

async function customer(ip = freshIp()): Promise<Client> {
  const client = new Client({ ip });
  assertEquals((await client.post("/api/security/registration", registrationPayload())).status, 200);
  return client;
}

const statuses = (rs: TestResponse[]) => rs.map((r) => r.status);
const count = (rs: TestResponse[], status: number) => rs.filter((r) => r.status === status).length;

httpTest("seats: one anonymous request for 12 of 12 places is refused; 10 is the most per date", async () => {
  const { slug, uuids: [date] } = await sessionWithDates([12]);
  const visitor = new Client({ ip: freshIp() });
  const all = await hold(visitor, slug, date, 12);
  assertEquals(all.status, 422);
  assertEquals(all.json<Json>().message, "Vous pouvez réserver 10 places au plus pour cette date.");
  assertEquals(await placesLeft(date), 12, "nothing held");
  assertEquals((await hold(visitor, slug, date, 10)).status, 200);
  const more = await hold(visitor, slug, date, 1);
  assertEquals(more.status, 422);
  assertEquals(
    more.json<Json>().message,
    "Vous pouvez réserver 10 places au plus pour cette date (vous en avez déjà 10 dans votre panier).",
  );
  // Growing the line in the cart is refused the same way.
  const [line] =
    (await visitor.get("/api/cart")).json<{ results: { lines: { id: string }[] } }>().results.lines;
  const grown = await visitor.patch(`/api/cart/line/${line.id}`, { quantity: 11 });
  assertEquals(grown.status, 422);
  assertMatch(String(grown.json<Json>().message), /10 places au plus/);
  assertEquals(await placesLeft(date), 2, "two places stay on sale for everyone else");
  assertEquals((await hold(new Client({ ip: freshIp() }), slug, date, 2)).status, 200);
});

httpTest(
  "seats: 60 holds at once from one cart on two instances never pass 10 per date nor 20 in all",
  async () => {
    const { app } = await testEnv();
    const second = await secondInstance();
    try {
      const { slug, uuids } = await sessionWithDates([40, 40, 40]);
      const visitor = new Client({ ip: freshIp() });
      assertEquals((await hold(visitor, slug, uuids[0], 1)).status, 200); // the cart cookie
      const fields = await Promise.all(uuids.map(bookingFields));
      const twin = (i: number) => {
        // The same cart from other addresses and instances: the limit is the cart's, not the address's.
        const c = new Client({ app: i % 2 ? second.app : app, ip: freshIp() });
        c.cookies = visitor.cookies;
        return c;
      };
      const first = await Promise.all(
        Array.from(
          { length: 30 },
          (_, i) => twin(i).post(`/session/${slug}/date/${uuids[0]}`, { ...fields[0], quantity: 1 }),
        ),
      );
      assertEquals(count(first, 200), 9, statuses(first).join(","));
      assertEquals(count(first, 422), 21);
      const across = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          twin(i).post(`/session/${slug}/date/${uuids[1 + (i % 2)]}`, {
            ...fields[1 + (i % 2)],
            quantity: 1,
          })),
      );
      assertEquals(count(across, 200), 10, statuses(across).join(","));
      const refused = across.find((r) => r.status === 422)!;
      assertMatch(String(refused.json<Json>().message), /20 places au plus, toutes dates confondues/);
      const { db } = await testEnv();
      const [row] = await systemQuery<{ held: number; left: number }>(
        db,
        `select coalesce(sum(l.quantity), 0)::int as held,
         (select sum(places_left)::int from public.session_dates where uuid = any($1::uuid[])) as left
       from public.cart_lines l join public.session_dates d on d.id = l.date_id where d.uuid = any($1::uuid[])`,
        [uuids],
      );
      assertEquals(row, { held: 20, left: 100 });
    } finally {
      if (Deno.env.get("TEST_DATABASE_URL")) {
        await second.db.close();
      }
    }
  },
);

httpTest(
  "seats: a customer is capped too, and an anonymous cart joining it at login is trimmed",
  async () => {
    const { slug, uuids: [a, b] } = await sessionWithDates([30, 30]);
    const ip = freshIp();
    // Anonymous first: 8 of date a, 10 of date b.
    const visitor = new Client({ ip });
    assertEquals((await hold(visitor, slug, a, 8)).status, 200);
    assertEquals((await hold(visitor, slug, b, 10)).status, 200);
    // The same person's account already holds 6 of date a.
    const payload = registrationPayload();
    const account = new Client({ ip });
    assertEquals((await account.post("/api/security/registration", payload)).status, 200);
    assertEquals((await hold(account, slug, a, 11)).status, 422, "a customer cannot take 11 either");
    assertEquals((await hold(account, slug, a, 6)).status, 200);
    // Logging in merges: date a keeps 10 (4 back on sale), date b its 10: 20 in all.
    await visitor.login(payload.email, payload.password);
    const lines =
      (await visitor.get("/api/cart")).json<{ results: { lines: { quantity: number }[] } }>().results
        .lines;
    assertEquals(lines.map((l) => l.quantity).sort(), [10, 10]);
    assertEquals(await placesLeft(a), 20);
    const other = await sessionWithDates([30]);
    const third = await hold(visitor, other.slug, other.uuids[0], 1);
    assertEquals(third.status, 422, "the customer's cart is full: 20");
    assertMatch(String(third.json<Json>().message), /20 places au plus/);
  },
);

httpTest("seats: a lapsed hold cannot be taken back at once by the same cart or customer", async () => {
  const { db } = await testEnv();
  const { slug, uuids: [date] } = await sessionWithDates([10]);
  const lapse = () =>
    systemQuery(
      db,
      `update public.cart_lines set expires_at = now() - interval '1 second'
       where date_id = (select id from public.session_dates where uuid = $1)`,
      [date],
    );
  for (const who of [new Client({ ip: freshIp() }), await customer()]) {
    assertEquals((await hold(who, slug, date, 10)).status, 200);
    await lapse();
    const again = await hold(who, slug, date, 10);
    assertEquals(again.status, 409);
    assertEquals(
      again.json<Json>().message,
      "Votre réservation de cette date a expiré : vous pourrez la réserver de nouveau dans 15 minutes.",
    );
    assertEquals(await placesLeft(date), 10, "the lapsed places are on sale");
    // Someone else takes them at once.
    const other = new Client({ ip: freshIp() });
    assertEquals((await hold(other, slug, date, 3)).status, 200);
    await systemQuery(
      db,
      "delete from public.cart_lines where date_id = (select id from public.session_dates where uuid = $1)",
      [date],
    );
    await systemQuery(db, "update public.session_dates set places_left = places where uuid = $1", [date]);
    // After the cool-down, the first cart may hold the date again.
    await systemQuery(
      db,
      `update public.cart_hold_lapses set lapsed_at = now() - interval '16 minutes'
       where date_id = (select id from public.session_dates where uuid = $1)`,
      [date],
    );
    assertEquals((await hold(who, slug, date, 2)).status, 200);
    await systemQuery(
      db,
      "delete from public.cart_lines where date_id = (select id from public.session_dates where uuid = $1)",
      [date],
    );
    await systemQuery(db, "update public.session_dates set places_left = places where uuid = $1", [date]);
  }
});

httpTest("seats: new cart cookies from one address do not bring new places (40 per 20 minutes)", async () => {
  const { slug, uuids } = await sessionWithDates([30, 30, 30]);
  const ip = freshIp();
  const results: number[] = [];
  for (let i = 0; i < 6; i++) {
    // A script dropping its cookie: a new cart each time.
    results.push((await hold(new Client({ ip }), slug, uuids[i % 3], 10)).status);
  }
  assertEquals(results, [200, 200, 200, 200, 429, 429]);
  assertEquals(
    (await hold(new Client({ ip: freshIp() }), slug, uuids[0], 10)).status,
    200,
    "another address",
  );
  // A refused hold (a date too small) gives its places back to the address's budget.
  const small = await sessionWithDates([1]);
  const ip2 = freshIp();
  for (let i = 0; i < 5; i++) {
    assertEquals((await hold(new Client({ ip: ip2 }), small.slug, small.uuids[0], 10)).status, 422);
  }
  assertEquals((await hold(new Client({ ip: ip2 }), slug, uuids[1], 10)).status, 200);
});

httpTest(
  "seats: the places per date are a session setting, edited by admins through the API and the form",
  async () => {
    const { slug, id, uuids: [date] } = await sessionWithDates([12]);
    const admin = new Client({ ip: freshIp() });
    await admin.login("admin@example.fr");
    const current = (await admin.get(`/api/admin/session/${id}`)).json<{ results: Json }>().results;
    assertEquals(current.maxPlacesPerDate, 10);
    const edit = (value: unknown) =>
      admin.patch(`/api/admin/session/${id}`, {
        slug,
        title: current.title,
        city: current.city,
        description: "",
        published: true,
        maxPlacesPerDate: value,
      });
    assertEquals((await edit(0)).status, 422);
    assertEquals((await edit("beaucoup")).status, 422);
    assertEquals((await edit(3)).status, 200);
    assertEquals(
      (await admin.get(`/api/admin/session/${id}`)).json<{ results: Json }>().results.maxPlacesPerDate,
      3,
    );
    const visitor = new Client({ ip: freshIp() });
    const refused = await hold(visitor, slug, date, 4);
    assertEquals(refused.status, 422);
    assertEquals(refused.json<Json>().message, "Vous pouvez réserver 3 places au plus pour cette date.");
    assertEquals((await hold(visitor, slug, date, 3)).status, 200);
    // The admin's form shows the setting.
    const page = await admin.get(`/dashboard/admin/ateliers/${id}`);
    assert(page.text.includes('name="maxPlacesPerDate"'), "the form has the field");
    assert(/name="maxPlacesPerDate"[^>]*value="3"|value="3"[^>]*name="maxPlacesPerDate"/.test(page.text));
    // Others cannot change it.
    const customerClient = await customer();
    assertEquals(
      (await customerClient.patch(`/api/admin/session/${id}`, { maxPlacesPerDate: 50 })).status,
      403,
    );
  },
);
