// The logs API and page (spec 001 §2.13, §7, §8, §9), on PGlite and PostgreSQL: admins only (every
// other role and an admin impersonating someone are refused, on the API and the page), the answer's
// shape (`success`, `data.stats`, `data.logs`, `data.services`), the filters, 50 rows a page newest
// first, deleting one row, cleaning rows older than 30 days (and the nightly SQL function), and the
// HubSpot sync's state said on the page.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import type { LogsData } from "../../lib/ops/rules.ts";

const ADMIN = "admin@example.fr";
const CUSTOMER = "client@example.fr";
const CUSTOMER2 = "client2@example.fr";
const PARTNER = "partenaire@example.fr";
const PARTNER2 = "partenaire2@example.fr";

async function signedIn(email: string): Promise<Client> {
  const client = new Client();
  await client.login(email);
  return client;
}

/** Log rows written as the system, `ageDays` old; returns their ids. */
async function insertLogs(service: string, type: string, count: number, ageDays = 0): Promise<number[]> {
  const { db } = await testEnv();
  const rows = await systemQuery<{ id: number }>(
    db,
    `insert into public.logs (created_at, service, type, message, context)
     select now() - make_interval(days => $4) - make_interval(secs => g), $1, $2, 'Message n°' || g,
            jsonb_build_object('n', g)
     from generate_series(1, $3) g returning id`,
    [service, type, count, ageDays],
  );
  return rows.map((r) => r.id);
}

const dataOf = (res: { json<T>(): T }) => res.json<{ success: boolean; data: LogsData }>().data;

httpTest("logs: every role but admin is refused, on the API and the page", async () => {
  const [id] = await insertLogs(`t-roles-${Date.now()}`, "info", 1);
  const anonymous = new Client();
  assertEquals((await anonymous.get("/api/logs")).status, 401);
  assertEquals((await anonymous.delete(`/api/logs/${id}`)).status, 401);
  assertEquals((await anonymous.post("/api/logs/cleanup")).status, 401);
  const page = await anonymous.get("/dashboard/admin/logs");
  assertEquals(page.status, 303);
  assert(page.headers.get("location")!.startsWith("/login?redirect="));

  const admin = await signedIn(ADMIN);
  const impersonating = await signedIn(ADMIN);
  const [{ id: customerId }] = await systemQuery<{ id: string }>(
    (await testEnv()).db,
    "select id from public.users where email = $1",
    [CUSTOMER],
  );
  assertEquals((await impersonating.request("POST", `/admin/switch/${customerId}`)).status, 303);
  for (
    const [who, client] of [
      [CUSTOMER, await signedIn(CUSTOMER)],
      [CUSTOMER2, await signedIn(CUSTOMER2)],
      [PARTNER, await signedIn(PARTNER)],
      [PARTNER2, await signedIn(PARTNER2)],
      ["admin impersonating a customer", impersonating],
    ] as const
  ) {
    const list = await client.get("/api/logs");
    assertEquals(list.status, 403, `${who}: GET`);
    assertEquals(
      list.json<{ message: string }>().message,
      "La gestion des logs est réservée aux administrateurs.",
    );
    assertEquals((await client.delete(`/api/logs/${id}`)).status, 403, `${who}: DELETE`);
    assertEquals((await client.post("/api/logs/cleanup")).status, 403, `${who}: cleanup`);
    assertEquals((await client.get("/dashboard/admin/logs")).status, 403, `${who}: page`);
  }
  const { db } = await testEnv();
  assertEquals(
    (await systemQuery(db, "select 1 from public.logs where id = $1", [id])).length,
    1,
    "still there",
  );

  // The admin: the page with its title and the sync's state, in the admin menu.
  const html = await admin.get("/dashboard/admin/logs");
  assertEquals(html.status, 200);
  assert(html.text.includes("Gestion des Logs"));
  assert(html.text.includes('href="/dashboard/admin/logs"'), "in the admin menu");
  assert(html.text.includes("Synchronisation HubSpot désactivée"), "without HUBSPOT_TOKEN the page says so");
});

httpTest("logs: stats, services, filters and pages of 50, newest first", async () => {
  const service = `t-page-${Date.now()}`;
  await insertLogs(service, "error", 60);
  await insertLogs(service, "warning", 3);
  await insertLogs(service, "info", 2, 40);
  const admin = await signedIn(ADMIN);

  const all = await admin.get("/api/logs");
  assertEquals(all.status, 200);
  const body = all.json<{ success: boolean; data: LogsData }>();
  assertEquals(body.success, true);
  const { stats } = body.data;
  assertEquals(stats.total, stats.errors + stats.warnings + stats.info);
  assert(stats.today >= 63 && stats.today <= stats.total, `today: ${stats.today}`);
  assert(body.data.services.includes(service));
  assertEquals(body.data.services, [...body.data.services].sort(), "services in order");
  assertEquals(body.data.logs.length, 50);
  assertEquals(body.data.pageSize, 50);
  assertEquals(body.data.hubspot.enabled, false);
  const times = body.data.logs.map((l) => l.createdAt);
  assertEquals(times, [...times].sort((a, b) => b - a), "newest first");

  const mine = dataOf(await admin.get(`/api/logs?service=${service}`));
  assertEquals(mine.total, 65);
  assertEquals(mine.logs.length, 50);
  assertEquals(mine.logs[0].message, "Message n°1", "the newest first");
  assert(mine.logs.every((l) => l.service === service));
  const second = dataOf(await admin.get(`/api/logs?service=${service}&page=2`));
  assertEquals([second.page, second.logs.length], [2, 15]);
  assertEquals(second.logs.at(-1)!.message, "Message n°2", "the oldest last");
  assertEquals(new Set([...mine.logs, ...second.logs].map((l) => l.id)).size, 65, "no row twice");

  const warnings = dataOf(await admin.get(`/api/logs?service=${service}&type=warning`));
  assertEquals(warnings.total, 3);
  assert(warnings.logs.every((l) => l.type === "warning" && l.context.n !== undefined));
  const onlyType = dataOf(await admin.get("/api/logs?type=warning"));
  assert(onlyType.logs.every((l) => l.type === "warning"));
  assertEquals(onlyType.total, onlyType.stats.warnings);

  for (const bad of ["type=fatal", "page=0", "page=abc", `service=${"x".repeat(65)}`]) {
    const res = await admin.get(`/api/logs?${bad}`);
    assertEquals(res.status, 400, bad);
    assert(/^(Type de log|Numéro de page|Service de log)/.test(res.json<{ message: string }>().message), bad);
  }
  // The page with a filter in its URL shows those rows.
  const html = await admin.get(`/dashboard/admin/logs?service=${service}&type=warning`);
  assertEquals(html.status, 200);
  assert(html.text.includes("Message n°3"));
});

httpTest("logs: delete one row; clean rows older than 30 days (admin and nightly job)", async () => {
  const service = `t-clean-${Date.now()}`;
  const [recent] = await insertLogs(service, "info", 1);
  const old = await insertLogs(service, "error", 3, 31);
  const [borderline] = await insertLogs(service, "warning", 1, 29);
  const admin = await signedIn(ADMIN);
  const { db } = await testEnv();
  const left = async () =>
    (await systemQuery<{ id: number }>(db, "select id from public.logs where service = $1 order by id", [
      service,
    ]))
      .map((r) => r.id);

  const deleted = await admin.delete(`/api/logs/${recent}`);
  assertEquals(deleted.status, 200);
  assertEquals(deleted.json(), { success: true, message: "Log supprimé avec succès" });
  const again = await admin.delete(`/api/logs/${recent}`);
  assertEquals(again.status, 404);
  assertEquals(again.json<{ message: string }>().message, "Ce log n'existe pas ou a déjà été supprimé.");
  assertEquals((await admin.delete("/api/logs/abc")).status, 404);

  const cleaned = await admin.post("/api/logs/cleanup");
  assertEquals(cleaned.status, 200);
  const result = cleaned.json<{ success: boolean; message: string; data: { deleted: number } }>();
  assertEquals(result.success, true);
  assert(result.data.deleted >= 3);
  assert(/logs? de plus de 30 jours supprimés?\./.test(result.message), result.message);
  assertEquals(await left(), [borderline], "rows of 29 days stay");
  const [audit] = await systemQuery<{ context: { deleted: number } }>(
    db,
    "select context from public.logs where service = 'logs' order by id desc limit 1",
  );
  assertEquals(audit.context.deleted, result.data.deleted, "the cleanup is itself logged");

  // The nightly job's function deletes the same rows, as the system only.
  await insertLogs(service, "info", 2, 45);
  const [{ n }] = await systemQuery<{ n: number }>(db, "select public.purge_old_logs() as n");
  assert(n >= 2);
  assertEquals(await left(), [borderline]);
  void old;
});
