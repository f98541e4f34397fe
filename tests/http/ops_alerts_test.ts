// 'Gestion des Logs' shows what needs an admin even when no log row says so, as errors above the logs
// (lib/ops/alerts.ts): jobs of a queue failed for good (dead letters) and a stalled worker (no pass for
// longer than WORKER_STALL_SECONDS, from this instance's Deps.health). Nothing when there is none; the
// page's first view (server-rendered island) and GET /api/logs (`data.alerts`) say the same.
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { Client, httpTest, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import type { LogsData } from "../../lib/ops/rules.ts";
import { createApp } from "../../routes/_app.tsx";
import { createHealth } from "../../lib/health/state.ts";

const ADMIN = "admin@example.fr";

async function admin(app?: Awaited<ReturnType<typeof createApp>>): Promise<Client> {
  const client = new Client(app ? { app } : {});
  await client.login(ADMIN);
  return client;
}

const alertsOf = async (client: Client) =>
  (await client.get("/api/logs")).json<{ data: LogsData }>().data.alerts;

/** The PostgreSQL step runs every HTTP module on one database: the dead letters other modules left (failed
 * outbox jobs, emails, notifications, refunds) are cleared first, so that each test sees only its own. */
async function withoutOthersDeadLetters() {
  const { db } = await testEnv();
  await systemQuery(db, "delete from outbox.jobs where state = 'failed'");
  await systemQuery(db, "delete from public.email_outbox where status = 'failed'");
  await systemQuery(db, "update public.deal_notifications set status = 'done' where status = 'failed'");
  await systemQuery(db, "update public.refunds set status = 'succeeded' where status = 'failed'");
}

/** The shared test app, but with a worker whose last pass was `agoSeconds` ago. */
async function appWithBeat(agoSeconds: number) {
  const { deps } = await testEnv();
  const health = createHealth();
  health.workerBeat(Date.now() - agoSeconds * 1000);
  return await createApp({ ...deps, health });
}

httpTest("no alert on the logs page when no job failed for good and the worker beats", async () => {
  await withoutOthersDeadLetters();
  const client = await admin(await appWithBeat(5));
  const page = await client.get("/dashboard/admin/logs");
  assertEquals(page.status, 200);
  assert(!page.text.includes('data-testid="ops-alerts"'), "no alert block");
  assert(!page.text.includes("data-alert="));
  assertEquals(await alertsOf(client), []);
  // The shared app has no worker at all (no Deps.health): no worker alert either.
  assertEquals(await alertsOf(await admin()), []);
});

httpTest("a dead letter of the outbox is shown as an error, with its job", async () => {
  await withoutOthersDeadLetters();
  const { db } = await testEnv();
  const [job] = await systemQuery<{ id: number }>(
    db,
    `insert into outbox.jobs (queue, payload, state, attempts, max_attempts, finished_at, last_error)
     values ('obs-dead-letter', '{}', 'failed', 8, 8, now(), 'SMTP 550 boîte inconnue') returning id`,
  );
  try {
    const client = await admin();
    const page = await client.get("/dashboard/admin/logs");
    assertMatch(page.text, /data-testid="ops-alerts"/);
    assertMatch(page.text, /data-alert="dead-letters" data-type="error"/);
    assertMatch(page.text, /1 tâche en échec définitif dans la file « obs-dead-letter »/);
    assertMatch(page.text, new RegExp(`Tâche n° ${job.id} : 8 tentatives`));
    assertMatch(page.text, /SMTP 550 boîte inconnue/);
    const alerts = await alertsOf(client);
    assertEquals(alerts.length, 1);
    assertEquals([alerts[0].kind, alerts[0].queue], ["dead-letters", "obs-dead-letter"]);
    assertEquals(alerts[0].jobs?.map((j) => j.id), [Number(job.id)]);
  } finally {
    await systemQuery(db, "delete from outbox.jobs where queue = 'obs-dead-letter'");
  }
});

httpTest("an email failed for good is a dead letter of the email queue", async () => {
  await withoutOthersDeadLetters();
  const { db } = await testEnv();
  await systemQuery(
    db,
    `insert into public.email_outbox (recipient, template, subject, text_body, status, attempts, last_error)
     values ('perdu@example.fr', 'obs-test', 'Sujet', 'Corps', 'failed', 5, '550')`,
  );
  try {
    const alerts = await alertsOf(await admin());
    assertEquals(alerts.map((a) => [a.kind, a.queue, a.message]), [
      ["dead-letters", "email", "1 tâche en échec définitif dans la file « email »."],
    ]);
  } finally {
    await systemQuery(db, "delete from public.email_outbox where template = 'obs-test'");
  }
});

httpTest("a stalled worker is shown as an error on the logs page", async () => {
  await withoutOthersDeadLetters();
  const client = await admin(await appWithBeat(10 * 60));
  const page = await client.get("/dashboard/admin/logs");
  assertMatch(page.text, /data-alert="worker-stalled" data-type="error"/);
  assertMatch(
    page.text,
    /Le worker ne traite plus les files : dernier passage il y a 10 min \(seuil : 5 min\)\./,
  );
  const alerts = await alertsOf(client);
  assertEquals(alerts.map((a) => a.kind), ["worker-stalled"]);
  // Under the threshold (300 s by default): no alert.
  assertEquals(await alertsOf(await admin(await appWithBeat(290))), []);
});
