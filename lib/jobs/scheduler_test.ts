// The scheduler on the embedded database (PGlite, where pg_cron never runs): SQL jobs and handler jobs
// run by the app, handler jobs under a lease, failures logged and never thrown.
import { memoryStorage } from "../storage/storage.ts";
import { assert, assertEquals, assertMatch } from "../../tests/support/assert.ts";
import { statementAs, systemActor } from "../actor.ts";
import { loadConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { openPglite } from "../db/pglite.ts";
import { createBackground, type Deps } from "../deps.ts";
import { createLogger } from "../log/logger.ts";
import { JOBS, type ScheduledJob } from "./registry.ts";
import { runJob, startScheduler, syncPgCron } from "./scheduler.ts";

const SYSTEM = systemActor("seed");

/** A migrated in-memory database and the Deps the app would build on it. */
async function openDeps(): Promise<Deps> {
  const db = await openPglite("memory://");
  await migrate(db);
  const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: "http://localhost:8000" })[name]);
  const logger = createLogger(db, { quiet: true });
  return {
    config,
    db,
    logger,
    background: createBackground(logger, { manual: true }),
    storage: memoryStorage(),
  };
}

function sql<T = Record<string, unknown>>(db: Database, text: string, params: unknown[] = []) {
  return statementAs<T>(db, SYSTEM, text, params);
}

const cases: [string, (deps: Deps) => Promise<void>][] = [];
/** A step of the one test below: every step shares one migrated database, closed at the end. */
function dbTest(name: string, fn: (deps: Deps) => Promise<void>) {
  cases.push([name, fn]);
}

async function insertUser(db: Database, email: string): Promise<string> {
  const [row] = await sql<{ id: string }>(
    db,
    "insert into public.users (type, email, firstname, lastname) values ('Customer', $1, 'Léa', 'Dupont') returning id",
    [email],
  );
  return row.id;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

dbTest("syncPgCron returns false where pg_cron does not serve the database", async (deps) => {
  assertEquals(await syncPgCron(deps), false);
  assertEquals(await syncPgCron(deps, []), false);
});

dbTest("runJob runs an SQL job: purge-expired-identity deletes expired sessions only", async (deps) => {
  const { db } = deps;
  const userId = await insertUser(db, "session.owner@example.fr");
  await sql(
    db,
    `insert into identity.sessions (id_hash, user_id, expires_at)
     values ('expired-hash', $1, now() - interval '1 minute'), ('live-hash', $1, now() + interval '1 day')`,
    [userId],
  );
  const job = JOBS.find((j) => j.name === "purge-expired-identity")!;
  assert(job?.sql, "the registry has the SQL job");
  assertEquals(await runJob(deps, job), true);
  const left = await sql<{ id_hash: string }>(db, "select id_hash from identity.sessions order by id_hash");
  assertEquals(left.map((r) => r.id_hash), ["live-hash"]);
});

dbTest(
  "runJob runs purge-deleted-accounts: accounts deleted over 14 days ago are anonymised",
  async (deps) => {
    const { db } = deps;
    const old = await insertUser(db, "old.deleted@example.fr");
    const recent = await insertUser(db, "recent.deleted@example.fr");
    await sql(db, "update public.users set deleted_at = now() - interval '15 days' where id = $1", [old]);
    await sql(db, "update public.users set deleted_at = now() - interval '2 days' where id = $1", [recent]);
    const job = JOBS.find((j) => j.name === "purge-deleted-accounts")!;
    assertEquals(await runJob(deps, job), true);
    const rows = await sql<{ id: string; anonymized: boolean; email: string }>(
      db,
      "select id, anonymized_at is not null as anonymized, email from public.users where id = any($1::uuid[])",
      [[old, recent]],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    assertEquals(byId.get(old)?.anonymized, true);
    assert(byId.get(old)?.email !== "old.deleted@example.fr", "the email is gone");
    assertEquals(byId.get(recent)?.anonymized, false);
  },
);

dbTest("every SQL job of the registry runs on a migrated database", async (deps) => {
  for (const job of JOBS.filter((j) => j.sql)) {
    assertEquals(await runJob(deps, job), true, job.name);
    assertMatch(job.sql!, /^select [a-z_]+\.[a-z_]+\(\)$/, `${job.name}: the only shape pg_cron accepts`);
  }
  const [errors] = await sql<{ n: number }>(
    deps.db,
    "select count(*)::int as n from public.logs where type = 'error'",
  );
  assertEquals(errors.n, 0);
});

dbTest("a handler job runs under a lease: two concurrent runs call the handler once", async (deps) => {
  let calls = 0;
  const started = deferred();
  const gate = deferred();
  const job: ScheduledJob = {
    name: "test-lease",
    schedule: "* * * * *",
    description: "test",
    handler: async (received) => {
      assertEquals(received, deps, "the handler gets the deps");
      calls++;
      started.resolve();
      await gate.promise;
    },
  };
  const first = runJob(deps, job);
  await started.promise;
  // While the first run holds the lease, a second one (another instance's tick) is skipped.
  const second = await runJob(deps, job);
  assertEquals(second, false);
  gate.resolve();
  assertEquals(await first, true);
  assertEquals(calls, 1);

  // Both at once, with a handler that yields: still one call.
  const slow: ScheduledJob = {
    ...job,
    handler: async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 30));
    },
  };
  const both = await Promise.all([runJob(deps, slow), runJob(deps, slow)]);
  assertEquals(both.filter(Boolean).length, 1, `results ${both}`);
  assertEquals(calls, 2);

  // The lease is released once the handler is done: the next tick runs it.
  const [lease] = await sql<{ free: boolean; finished: boolean }>(
    deps.db,
    `select locked_until < now() as free, last_finished_at is not null as finished
     from public.job_leases where name = 'test-lease'`,
  );
  assertEquals(lease, { free: true, finished: true });
  assertEquals(await runJob(deps, { ...job, handler: () => Promise.resolve(void calls++) }), true);
  assertEquals(calls, 3);
});

dbTest("a lease left by a crashed instance is taken again once it expires", async (deps) => {
  let calls = 0;
  const job: ScheduledJob = {
    name: "test-expired-lease",
    schedule: "* * * * *",
    description: "test",
    handler: () => Promise.resolve(void calls++),
  };
  await sql(
    deps.db,
    "insert into public.job_leases (name, locked_until) values ($1, now() + interval '5 minutes')",
    [job.name],
  );
  assertEquals(await runJob(deps, job), false, "held by another instance");
  assertEquals(calls, 0);
  await sql(
    deps.db,
    "update public.job_leases set locked_until = now() - interval '1 second' where name = $1",
    [
      job.name,
    ],
  );
  assertEquals(await runJob(deps, job), true);
  assertEquals(calls, 1);
});

dbTest("a failing handler is logged (error, service 'jobs') and its lease released", async (deps) => {
  let calls = 0;
  const job: ScheduledJob = {
    name: "test-failing",
    schedule: "* * * * *",
    description: "test",
    handler: () => {
      calls++;
      return Promise.reject(new Error("panne simulée"));
    },
  };
  assertEquals(await runJob(deps, job), false, "never thrown");
  const logs = await sql<{ service: string; type: string; message: string; context: { error: string } }>(
    deps.db,
    "select service, type, message, context from public.logs where type = 'error' and message like '%test-failing%'",
  );
  assertEquals(logs.length, 1);
  assertEquals([logs[0].service, logs[0].type], ["jobs", "error"]);
  assert(logs[0].message.includes("test-failing"), logs[0].message);
  assert(logs[0].context.error.includes("panne simulée"), JSON.stringify(logs[0].context));

  const [lease] = await sql<{ free: boolean }>(
    deps.db,
    "select locked_until < now() as free from public.job_leases where name = 'test-failing'",
  );
  assertEquals(lease.free, true, "the lease is released");
  assertEquals(await runJob(deps, job), false);
  assertEquals(calls, 2, "the next tick runs it again");
});

dbTest("a failing SQL job is logged and not thrown", async (deps) => {
  const job: ScheduledJob = {
    name: "test-missing-function",
    schedule: "* * * * *",
    description: "test",
    sql: "select public.no_such_function()",
  };
  assertEquals(await runJob(deps, job), false);
  const logs = await sql<{ service: string; message: string }>(
    deps.db,
    "select service, message from public.logs where type = 'error' and message like '%test-missing-function%'",
  );
  assertEquals(logs.length, 1);
  assertEquals(logs[0].service, "jobs");
  assert(logs[0].message.includes("test-missing-function"));
});

dbTest("startScheduler without pg_cron runs every registry job itself", async (deps) => {
  const scheduler = await startScheduler(deps);
  try {
    assertEquals(scheduler.pgCron, false);
    assertEquals([...scheduler.local].sort(), JOBS.map((j) => j.name).sort());
  } finally {
    scheduler.stop();
  }
  const handlerJob: ScheduledJob = {
    name: "test-handler",
    schedule: "0 3 * * *",
    description: "test",
    handler: async () => {},
  };
  const custom = await startScheduler(deps, [...JOBS, handlerJob]);
  try {
    assertEquals(custom.pgCron, false);
    assertEquals(custom.local, [...JOBS.map((j) => j.name), "test-handler"]);
  } finally {
    custom.stop();
  }
});

Deno.test({
  name: "scheduler on PGlite",
  // croner's timers are stopped by each step; PGlite is closed at the end.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const deps = await openDeps();
    try {
      for (const [name, fn] of cases) await t.step(name, () => fn(deps));
    } finally {
      await deps.db.close();
    }
  },
});
