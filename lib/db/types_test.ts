// Both adapters return the same JavaScript values for the same query (database.ts lists them). Runs
// on PGlite always, and on PostgreSQL too when DATABASE_URL is set.
import { assertEquals } from "../../tests/support/assert.ts";
import { openPglite } from "./pglite.ts";
import { openPostgres } from "./postgres.ts";
import type { Database } from "./database.ts";
import { migrate } from "./migrate.ts";
import { withFreshDatabase } from "../../scripts/fresh_database.ts";

const QUERY = `
  select 42::int8 as int8, 7::int4 as int4, 3::int2 as int2, count(*) as count,
         1234.50::numeric(12, 2) as numeric, sum(5::int8) as sum_int8, 1.5::float8 as float8,
         '2026-01-02'::date as date, '2026-01-02 10:30:00'::timestamp as timestamp,
         '2026-01-02 10:30:00+00'::timestamptz as timestamptz,
         '{"a": 1, "b": [true, null]}'::jsonb as jsonb, '{"c": "d"}'::json as json,
         array[1, 2]::int8[] as int8_array, array['2026-01-02', '2026-03-04']::date[] as date_array,
         array['a', 'b']::text[] as text_array, '11111111-1111-4111-8111-111111111111'::uuid as uuid,
         true as bool, null::int8 as null_int8, 9007199254740991::int8 as max_safe
  from (values (1)) v(x)`;

const EXPECTED = {
  int8: 42,
  int4: 7,
  int2: 3,
  count: 1,
  numeric: "1234.50",
  sum_int8: "5",
  float8: 1.5,
  date: "2026-01-02",
  timestamp: new Date("2026-01-02T10:30:00Z"),
  timestamptz: new Date("2026-01-02T10:30:00Z"),
  jsonb: { a: 1, b: [true, null] },
  json: { c: "d" },
  int8_array: [1, 2],
  date_array: ["2026-01-02", "2026-03-04"],
  text_array: ["a", "b"],
  uuid: "11111111-1111-4111-8111-111111111111",
  bool: true,
  null_int8: null,
  max_safe: 9007199254740991,
};

async function check(db: Database) {
  try {
    const [row] = await db.statement({ role: "service_role" }, QUERY);
    assertEquals({ ...row }, EXPECTED, db.kind);
    // Parameters go in the same way: jsonb objects, dates as strings, numbers.
    const [back] = await db.statement(
      { role: "service_role" },
      "select $1::jsonb as j, $2::date as d, $3::int8 as n, $4::numeric as m",
      [{ x: [1, "é"] }, "2026-05-06", 12345678901, "10.05"],
    );
    assertEquals({ ...back }, { j: { x: [1, "é"] }, d: "2026-05-06", n: 12345678901, m: "10.05" }, db.kind);
    // JSON text for a jsonb parameter is stored as the JSON it spells, not as a JSON string.
    const [stored] = await db.statement(
      { role: "service_role" },
      "select jsonb_typeof($1::jsonb) as array, jsonb_typeof($2::jsonb) as object, $1::jsonb as value",
      [JSON.stringify([1, { a: "é" }]), JSON.stringify({ b: true })],
    );
    assertEquals({ ...stored }, { array: "array", object: "object", value: [1, { a: "é" }] }, db.kind);
    // An int8 that a double cannot hold exactly is refused, never rounded.
    let refused = false;
    try {
      await db.statement({ role: "service_role" }, "select 9007199254740993::int8 as too_big");
    } catch {
      refused = true;
    }
    assertEquals(refused, true, `${db.kind}: unsafe int8 refused`);
  } finally {
    await db.close();
  }
  // A closed database refuses work (postgres.js alone would open a new connection).
  let closedRefused = false;
  try {
    await db.statement({ role: "service_role" }, "select 1");
  } catch {
    closedRefused = true;
  }
  assertEquals(closedRefused, true, `${db.kind}: a closed database refuses statements`);
}

Deno.test({
  name: "PGlite returns the documented JavaScript values",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const db = await openPglite("memory://");
    await migrate(db); // the roles the claims switch to
    await check(db);
  },
});

Deno.test({
  name: "PostgreSQL (postgres.js) returns the same values as PGlite",
  ignore: !Deno.env.get("DATABASE_URL"),
  sanitizeResources: false,
  sanitizeOps: false,
  // A migrated throw-away database: the roles the claims switch to exist there whatever ran before
  // (on a fresh server they are created by the migrations, not found lying around).
  fn: async () =>
    await withFreshDatabase(Deno.env.get("DATABASE_URL")!, "types", async (url) => {
      const db = openPostgres(url, { max: 1 });
      await migrate(db);
      await check(db); // closes it
    }),
});
