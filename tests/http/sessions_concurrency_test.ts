// Never oversell (spec 000 §3-§5, DESIGN 'seats and vouchers'): 200 visitors add the same date (10
// places) to their carts at the same moment, spread over two app instances on one database — on
// PostgreSQL, two connection pools over TEST_DATABASE_URL, as two deployed instances would be. Exactly
// 10 are accepted, every round; the others read 'COMPLET'; the database's count agrees.
import { assert, assertEquals } from "../support/assert.ts";
import { bookingFields, Client, httpTest, ORIGIN, TEST_LIMITS, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { loadConfig } from "../../lib/config.ts";
import { openPostgres } from "../../lib/db/postgres.ts";
import { createLogger } from "../../lib/log/logger.ts";
import { createBackground, type Deps } from "../../lib/deps.ts";
import { memoryStorage } from "../../lib/storage/storage.ts";
import { createApp } from "../../routes/_app.tsx";
import type { Database } from "../../lib/db/database.ts";

/** A second instance of the app: its own pool on the same PostgreSQL database (PGlite: the same one). */
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

async function dateWithPlaces(places: number): Promise<{ slug: string; uuid: string }> {
  const { db } = await testEnv();
  const slug = `course-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 6)}`;
  const [session] = await systemQuery<{ id: number }>(
    db,
    "insert into public.workshop_sessions (slug, title, city) values ($1, 'Course aux places', 'Paris') returning id",
    [slug],
  );
  const [date] = await systemQuery<{ uuid: string }>(
    db,
    `insert into public.session_dates (session_id, dtstart, places, places_left, price_ttc)
     values ($1, now() + interval '5 days', $2, $2, 4500) returning uuid::text as uuid`,
    [session.id, places],
  );
  return { slug, uuid: date.uuid };
}

httpTest("sessions: 200 simultaneous bookings on two instances for 10 places accept exactly 10", async () => {
  const { db, app } = await testEnv();
  const second = await secondInstance();
  try {
    for (let round = 1; round <= 3; round++) {
      const { slug, uuid } = await dateWithPlaces(10);
      const fields = await bookingFields(uuid);
      const requests = Array.from({ length: 200 }, (_, i) => {
        const client = new Client({ app: i % 2 === 0 ? app : second.app, ip: `10.77.${round}.${i % 250}` });
        return client.post(`/session/${slug}/date/${uuid}`, { ...fields, quantity: 1 });
      });
      const responses = await Promise.all(requests);
      const statuses = responses.map((r) => r.status);
      const accepted = statuses.filter((s) => s === 200).length;
      const full = responses.filter((r) =>
        r.status === 409 && r.json<{ message: string }>().message === "COMPLET"
      );
      assertEquals(
        accepted,
        10,
        `round ${round}: ${JSON.stringify(statuses.filter((s) => s !== 200 && s !== 409))}`,
      );
      assertEquals(full.length, 190, `round ${round}: every other request reads COMPLET`);
      const [row] = await systemQuery<{ left: number; held: number }>(
        db,
        `select d.places_left as left, coalesce(sum(l.quantity), 0)::int as held
         from public.session_dates d left join public.cart_lines l on l.date_id = d.id
         where d.uuid = $1 group by d.places_left`,
        [uuid],
      );
      assertEquals(row, { left: 0, held: 10 }, `round ${round}: the database holds exactly 10 places`);
    }
    // Mixed quantities: 60 visitors ask 1, 2 or 3 places of 10; what is held never exceeds 10.
    const { slug, uuid } = await dateWithPlaces(10);
    const fields = await bookingFields(uuid);
    const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => {
      const client = new Client({ app: i % 2 === 0 ? app : second.app, ip: `10.78.0.${i}` });
      return client.post(`/session/${slug}/date/${uuid}`, { ...fields, quantity: (i % 3) + 1 });
    }));
    const held = responses.filter((r) => r.status === 200)
      .reduce((sum, r) => sum + r.json<{ results: { quantity: number } }>().results.quantity, 0);
    assert(held <= 10 && held >= 8, `held ${held}`);
    const [left] = await systemQuery<{ n: number }>(
      db,
      "select places_left as n from public.session_dates where uuid = $1",
      [uuid],
    );
    assertEquals(left.n, 10 - held);
  } finally {
    if (second.db !== db) await second.db.close();
  }
});
