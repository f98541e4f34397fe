// The outbox (lib/outbox/) on the test database, PGlite or PostgreSQL: jobs enqueued in the caller's
// transaction (rolled back with it), run at their time, coalesced by key, retried with the one backoff
// formula until they fail (dead letters for admins), leases that lapse, and two workers — two database
// connections on PostgreSQL — that run each job exactly once. Every test uses queues of its own.
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { Client, httpTest, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { type Actor, ANONYMOUS, transactionAs, userActor } from "../../lib/actor.ts";
import type { Deps } from "../../lib/deps.ts";
import type { SessionUser } from "../../lib/actor.ts";
import { openPostgres } from "../../lib/db/postgres.ts";
import { startWorker } from "../../lib/jobs/worker.ts";
import { enqueue } from "../../lib/outbox/enqueue.ts";
import { claimJobs, completeJob, type OutboxJob } from "../../lib/outbox/store.ts";
import { type OutboxHandler, outboxQueue } from "../../lib/outbox/worker.ts";
import { PermanentFailure, RetryLater } from "../../lib/outbox/rules.ts";
import type { OutboxOverview } from "../../lib/outbox/actions.ts";

const ADMIN = "admin@example.fr";
const CUSTOMER = "client@example.fr";
const PARTNER = "partenaire@example.fr";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A queue name no other test uses. */
const queueName = (what: string) => `t-${what}-${crypto.randomUUID().slice(0, 8)}`;

async function actorOf(email: string): Promise<Actor> {
  const { db } = await testEnv();
  const [user] = await systemQuery<SessionUser>(
    db,
    "select id, type, firstname, lastname, name, email from public.users where email = $1",
    [email],
  );
  return userActor(user, "test-session");
}

interface JobRow {
  id: number;
  state: string;
  attempts: number;
  payload: Record<string, unknown>;
  key: string | null;
  lastError: string | null;
  /** Seconds between the job's last change and its next run (the delay it was given). */
  delay: number;
  dueIn: number;
}

async function jobsOf(queue: string): Promise<JobRow[]> {
  const { db } = await testEnv();
  return await systemQuery<JobRow>(
    db,
    `select id, state, attempts, payload, key, last_error as "lastError",
       extract(epoch from run_at - updated_at)::float8 as delay,
       extract(epoch from run_at - now())::float8 as "dueIn"
     from outbox.jobs where queue = $1 order by id`,
    [queue],
  );
}

/** Drains `queue` until it has nothing due. */
async function drainAll(deps: Deps, queue: ReturnType<typeof outboxQueue>): Promise<number> {
  let total = 0;
  for (let n = await queue.drain(deps); n > 0; n = await queue.drain(deps)) total += n;
  return total;
}

/** A handler that records each run and does what `act` says. */
function recorder(
  queue: string,
  act: (job: OutboxJob, run: number) => Promise<void> = () => Promise.resolve(),
) {
  const runs: { id: number; at: number; payload: Record<string, unknown> }[] = [];
  const handler: OutboxHandler = {
    queue,
    backoff: { baseSeconds: 1, capSeconds: 60 },
    async run(_deps, job) {
      runs.push({ id: job.id, at: performance.now(), payload: job.payload });
      await act(job, runs.length);
    },
  };
  return { handler, runs };
}

httpTest(
  "outbox: a job enqueued in a user's transaction exists only if the transaction commits",
  async () => {
    const { deps } = await testEnv();
    const queue = queueName("commit");
    for (const email of [CUSTOMER, PARTNER, ADMIN]) {
      const actor = await actorOf(email);
      await assertRejects(
        () =>
          transactionAs(deps.db, actor, async (tx) => {
            await enqueue(tx, queue, { by: email, committed: false });
            throw new Error("the action fails after enqueueing");
          }),
        (error) => (error as Error).message === "the action fails after enqueueing",
      );
      const id = await transactionAs(
        deps.db,
        actor,
        (tx) => enqueue(tx, queue, { by: email, committed: true }),
      );
      assert(id > 0);
    }
    const jobs = await jobsOf(queue);
    assertEquals(
      jobs.map((j) => j.payload),
      [
        { by: CUSTOMER, committed: true },
        { by: PARTNER, committed: true },
        { by: ADMIN, committed: true },
      ],
      "the rolled-back jobs are gone, the committed ones are pending",
    );
    assert(jobs.every((j) => j.state === "pending" && j.attempts === 0));

    // The job runs once it committed, through the worker.
    const { handler, runs } = recorder(queue);
    assertEquals(await drainAll(deps, outboxQueue([handler])), 3);
    assertEquals(runs.length, 3);
    assert((await jobsOf(queue)).every((j) => j.state === "done" && j.lastError === null));
  },
);

httpTest("outbox: anonymous visitors cannot enqueue, and users read no job", async () => {
  const { deps } = await testEnv();
  const queue = queueName("anon");
  await assertRejects(
    () => transactionAs(deps.db, ANONYMOUS, (tx) => enqueue(tx, queue, {})),
    (error) => /permission denied/.test((error as Error).message),
  );
  await transactionAs(deps.db, await actorOf(CUSTOMER), (tx) => enqueue(tx, queue, { secret: "no" }));
  for (const email of [CUSTOMER, PARTNER]) {
    const rows = await transactionAs(
      deps.db,
      await actorOf(email),
      (tx) => tx`select id from outbox.jobs where queue = ${queue}`,
    );
    assertEquals(rows.length, 0, `${email} reads no job, not even the one it enqueued`);
  }
  const seen = await transactionAs(
    deps.db,
    await actorOf(ADMIN),
    (tx) => tx`select id from outbox.jobs where queue = ${queue}`,
  );
  assertEquals(seen.length, 1, "admins read the jobs");
  // Programming errors are refused before the database.
  await assertRejects(() => transactionAs(deps.db, ANONYMOUS, (tx) => enqueue(tx, "Bad_Name", {})));
  await assertRejects(() =>
    transactionAs(deps.db, ANONYMOUS, (tx) => enqueue(tx, queue, {}, { maxAttempts: 0 }))
  );
});

httpTest("outbox: a job waits for its run-at time", async () => {
  const { deps } = await testEnv();
  const queue = queueName("runat");
  const { handler, runs } = recorder(queue);
  const worker = outboxQueue([handler]);
  const runAt = new Date(Date.now() + 1500);
  await transactionAs(
    deps.db,
    await actorOf(CUSTOMER),
    (tx) => enqueue(tx, queue, { at: "later" }, { runAt }),
  );
  await transactionAs(deps.db, await actorOf(CUSTOMER), (tx) => enqueue(tx, queue, { at: "now" }));
  assertEquals(await drainAll(deps, worker), 1, "only the job due now runs");
  assertEquals(runs.map((r) => r.payload.at), ["now"]);
  await sleep(Math.max(0, runAt.getTime() - Date.now()) + 100);
  assertEquals(await drainAll(deps, worker), 1, "the later job runs once its time has come");
  assertEquals(runs.map((r) => r.payload.at), ["now", "later"]);
  assert(Date.now() >= runAt.getTime());
});

httpTest("outbox: a key coalesces repeats while pending, and one job per key runs at a time", async () => {
  const { deps } = await testEnv();
  const queue = queueName("key");
  const customer = await actorOf(CUSTOMER);
  const later = new Date(Date.now() + 60_000);
  const first = await transactionAs(
    deps.db,
    customer,
    (tx) => enqueue(tx, queue, { v: 1 }, { key: "deal-1", runAt: later }),
  );
  const second = await transactionAs(
    deps.db,
    customer,
    (tx) => enqueue(tx, queue, { v: 2 }, { key: "deal-1" }),
  );
  const third = await transactionAs(
    deps.db,
    customer,
    (tx) => enqueue(tx, queue, { v: 3 }, { key: "deal-1", runAt: later }),
  );
  const other = await transactionAs(
    deps.db,
    customer,
    (tx) => enqueue(tx, queue, { v: 1 }, { key: "deal-2" }),
  );
  assertEquals([second, third], [first, first], "the same pending job");
  assert(other !== first, "another key is another job");
  let jobs = await jobsOf(queue);
  assertEquals(jobs.length, 2);
  assertEquals(jobs[0].payload, { v: 3 }, "the latest payload");
  assert(jobs[0].dueIn <= 0.5, `the earlier run-at time is kept (due in ${jobs[0].dueIn} s)`);

  // Concurrent transactions enqueueing one key (PostgreSQL: really concurrent) leave one job.
  await Promise.all(
    Array.from(
      { length: 8 },
      (_, i) =>
        transactionAs(deps.db, customer, (tx) => enqueue(tx, queue, { v: 10 + i }, { key: "deal-3" })),
    ),
  );
  assertEquals((await jobsOf(queue)).filter((j) => j.key === "deal-3").length, 1);

  // While deal-1's job runs, a new change queues a new job, which waits for the running one.
  const [running] = await claimJobs(deps.db, [queue], [60], "worker-a", 1);
  assertEquals(running.id, first);
  await transactionAs(deps.db, customer, (tx) => enqueue(tx, queue, { v: 4 }, { key: "deal-1" }));
  const { handler, runs } = recorder(queue);
  const b = outboxQueue([handler], { workerId: "worker-b" });
  assertEquals(await drainAll(deps, b), 2, "deal-2 and deal-3 run; deal-1's new job waits");
  assertEquals(runs.length, 2);
  assert(runs.some((r) => r.payload.v === 1), "deal-2's job ran");
  assert(runs.some((r) => (r.payload.v as number) >= 10), "deal-3's one job ran");
  jobs = await jobsOf(queue);
  assertEquals(jobs.filter((j) => j.key === "deal-1").map((j) => j.state), ["running", "pending"]);
  assert(await completeJob(deps.db, running.id, "worker-a"));
  assertEquals(await drainAll(deps, b), 1, "once deal-1's first job is done, the next one runs");
  assertEquals(runs.at(-1)!.payload, { v: 4 });
});

httpTest(
  "outbox: a failing job retries with a growing delay, then fails and is listed for admins",
  async () => {
    const { deps } = await testEnv();
    const queue = queueName("fail");
    const { handler, runs } = recorder(queue, (_job, run) => Promise.reject(new Error(`boom ${run}`)));
    const worker = outboxQueue([handler]);
    const id = await transactionAs(
      deps.db,
      await actorOf(CUSTOMER),
      (tx) => enqueue(tx, queue, { dealId: 42 }, { maxAttempts: 3 }),
    );

    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [before] = await jobsOf(queue);
      if (before.dueIn > 0) await sleep(before.dueIn * 1000 + 50);
      assertEquals(await worker.drain(deps), 1, `attempt ${attempt} runs once due`);
      const [after] = await jobsOf(queue);
      assertEquals(after.attempts, attempt);
      assertEquals(after.lastError, `boom ${attempt}`);
      if (attempt < 3) {
        assertEquals(after.state, "pending");
        delays.push(after.delay);
        assertEquals(await worker.drain(deps), 0, "not before its delay");
      } else {
        assertEquals(after.state, "failed", "failed after its last attempt");
      }
    }
    assertEquals(delays, [1, 2], "the delay doubles (base 1 s for this queue)");
    assert(runs[1].at - runs[0].at >= 900 && runs[2].at - runs[1].at >= 1900, "the runs waited their delays");
    assertEquals(await worker.drain(deps), 0, "a failed job never runs again by itself");

    const [logged] = await systemQuery<{ n: number }>(
      deps.db,
      "select count(*)::int as n from public.logs where service = 'outbox' and type = 'error' and (context->>'jobId')::bigint = $1",
      [id],
    );
    assertEquals(logged.n, 1, "the give-up is logged");

    // The dead letter, as admins see it.
    const admin = new Client();
    await admin.login(ADMIN);
    const res = await admin.get("/api/admin/outbox");
    assertEquals(res.status, 200, res.text);
    const overview = res.json<{ status: string; results: OutboxOverview }>().results;
    const stats = overview.queues.find((q) => q.queue === queue);
    assertEquals(stats && [stats.ready, stats.scheduled, stats.running, stats.done, stats.failed], [
      0,
      0,
      0,
      0,
      1,
    ]);
    const dead = overview.failed.find((job) => job.id === id);
    assert(dead, "the failed job is listed");
    assertEquals([dead.queue, dead.payload, dead.attempts, dead.maxAttempts, dead.lastError], [
      queue,
      { dealId: 42 },
      3,
      3,
      "boom 3",
    ]);
    assert(typeof dead.failedAt === "number" && dead.failedAt <= Date.now() / 1000 + 1);

    // An admin puts it back in its queue: its attempts start again.
    const retried = await admin.post(`/api/admin/outbox/${id}/retry`);
    assertEquals(retried.status, 200, retried.text);
    assertEquals(retried.json<{ message: string }>().message, "La tâche est relancée.");
    const [requeued] = await jobsOf(queue);
    assertEquals([requeued.state, requeued.attempts], ["pending", 0]);
    const again = await admin.post(`/api/admin/outbox/${id}/retry`);
    assertEquals(again.status, 404, "only a failed job can be put back");
    assertEquals(
      again.json<{ message: string }>().message,
      "Cette tâche n'existe pas ou n'est plus en échec.",
    );
    assertEquals((await admin.post("/api/admin/outbox/abc/retry")).status, 404);
  },
);

httpTest("outbox: only admins read the outbox or put a job back", async () => {
  const { deps } = await testEnv();
  const queue = queueName("guard");
  await transactionAs(deps.db, await actorOf(CUSTOMER), (tx) => enqueue(tx, queue, {}, { maxAttempts: 1 }));
  const worker = outboxQueue([{ queue, run: () => Promise.reject(new PermanentFailure("400")) }]);
  await drainAll(deps, worker);
  const [job] = await jobsOf(queue);
  assertEquals([job.state, job.attempts, job.lastError], ["failed", 1, "PermanentFailure: 400"]);

  const anonymous = new Client();
  assertEquals((await anonymous.get("/api/admin/outbox")).status, 401);
  assertEquals((await anonymous.post(`/api/admin/outbox/${job.id}/retry`)).status, 401);
  for (const email of [CUSTOMER, PARTNER]) {
    const client = new Client();
    await client.login(email);
    const read = await client.get("/api/admin/outbox");
    assertEquals(read.status, 403, `${email} cannot read the outbox`);
    assert(!read.text.includes(queue));
    assertEquals((await client.post(`/api/admin/outbox/${job.id}/retry`)).status, 403);
  }
  // An admin impersonating a customer has the customer's rights.
  const impersonator = new Client();
  await impersonator.login(ADMIN);
  const [customer] = await systemQuery<{ id: string }>(
    deps.db,
    "select id from public.users where email = $1",
    [
      CUSTOMER,
    ],
  );
  assertEquals((await impersonator.request("POST", `/admin/switch/${customer.id}`)).status, 303);
  assertEquals((await impersonator.get("/api/admin/outbox")).status, 403);
  assertEquals((await impersonator.post(`/api/admin/outbox/${job.id}/retry`)).status, 403);
  // The database refuses as well: outbox.requeue() checks the caller, whatever the use case did.
  await assertRejects(
    async () => {
      const actor = await actorOf(CUSTOMER);
      await transactionAs(deps.db, actor, (tx) => tx`select outbox.requeue(${job.id})`);
    },
    (error) => /admins only|permission denied/.test((error as Error).message),
  );
  assertEquals((await jobsOf(queue))[0].state, "failed", "nothing changed");
});

httpTest(
  "outbox: RetryLater waits as asked without using an attempt; PermanentFailure fails at once",
  async () => {
    const { deps } = await testEnv();
    const queue = queueName("later");
    let calls = 0;
    const worker = outboxQueue([{
      queue,
      run: () => {
        calls++;
        return Promise.reject(
          calls === 1 ? new RetryLater(1, "429 Retry-After: 1") : new PermanentFailure("404"),
        );
      },
    }]);
    await transactionAs(deps.db, await actorOf(CUSTOMER), (tx) => enqueue(tx, queue, {}, { maxAttempts: 5 }));
    assertEquals(await worker.drain(deps), 1);
    let [job] = await jobsOf(queue);
    assertEquals([job.state, job.attempts, job.delay, job.lastError], [
      "pending",
      0,
      1,
      "RetryLater: 429 Retry-After: 1",
    ]);
    await sleep(1100);
    assertEquals(await worker.drain(deps), 1);
    [job] = await jobsOf(queue);
    assertEquals([job.state, job.attempts], ["failed", 1]);
  },
);

httpTest(
  "outbox: a lapsed lease lets another worker take the job; the first one's outcome is ignored",
  async () => {
    const { deps } = await testEnv();
    const queue = queueName("lease");
    const customer = await actorOf(CUSTOMER);
    const id = await transactionAs(deps.db, customer, (tx) => enqueue(tx, queue, {}, { maxAttempts: 2 }));
    const [a] = await claimJobs(deps.db, [queue], [60], "worker-a", 10);
    assertEquals([a.id, a.attempts], [id, 1]);
    assertEquals((await claimJobs(deps.db, [queue], [60], "worker-b", 10)).length, 0, "held by worker-a");
    // worker-a's instance stops: its lease lapses.
    await systemQuery(
      deps.db,
      "update outbox.jobs set locked_until = now() - interval '1 second' where id = $1",
      [id],
    );
    const [b] = await claimJobs(deps.db, [queue], [60], "worker-b", 10);
    assertEquals([b.id, b.attempts], [id, 2], "worker-b takes it, as its second attempt");
    assertEquals(await completeJob(deps.db, id, "worker-a"), false, "worker-a no longer holds it");
    assertEquals(await completeJob(deps.db, id, "worker-b"), true);
    assertEquals((await jobsOf(queue))[0].state, "done");

    // A lease that lapses on the job's last attempt fails the job instead of running it again.
    const last = await transactionAs(deps.db, customer, (tx) => enqueue(tx, queue, {}, { maxAttempts: 1 }));
    await claimJobs(deps.db, [queue], [60], "worker-a", 10);
    await systemQuery(
      deps.db,
      "update outbox.jobs set locked_until = now() - interval '1 second' where id = $1",
      [
        last,
      ],
    );
    assertEquals((await claimJobs(deps.db, [queue], [60], "worker-b", 10)).length, 0);
    const lastJob = (await jobsOf(queue)).find((j) => j.id === last)!;
    assertEquals(lastJob.state, "failed");
    assert(lastJob.lastError?.startsWith("Délai dépassé"));
  },
);

httpTest("outbox: a keyed job that fails while a newer one waits is merged into it", async () => {
  const { deps } = await testEnv();
  const queue = queueName("merge");
  const customer = await actorOf(CUSTOMER);
  const first = await transactionAs(
    deps.db,
    customer,
    (tx) => enqueue(tx, queue, { v: 1 }, { key: "deal-9" }),
  );
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  const worker = outboxQueue([{
    queue,
    backoff: { baseSeconds: 30, capSeconds: 60 },
    run: async (_deps, job) => {
      if (job.payload.v === 1) {
        await gate;
        throw new Error("HubSpot 503");
      }
    },
  }]);
  const draining = worker.drain(deps);
  while ((await jobsOf(queue))[0].state !== "running") await sleep(10);
  const newer = await transactionAs(
    deps.db,
    customer,
    (tx) => enqueue(tx, queue, { v: 2 }, { key: "deal-9" }),
  );
  release();
  assertEquals(await draining, 1);
  const jobs = await jobsOf(queue);
  assertEquals(jobs.map((j) => [j.id, j.state]), [[first, "done"], [newer, "pending"]]);
  assertEquals(jobs[0].lastError, `HubSpot 503 (fusionnée avec la tâche n° ${newer})`);
  assertEquals(await drainAll(deps, worker), 1, "the newer job runs now, not after the failed one's backoff");
  assertEquals((await jobsOf(queue))[1].state, "done");
});

httpTest("outbox: a transactional handler's writes commit with the job's end, or not at all", async () => {
  const { deps } = await testEnv();
  const queue = queueName("tx");
  const next = queueName("next");
  let calls = 0;
  const worker = outboxQueue([{
    queue,
    backoff: { baseSeconds: 1, capSeconds: 1 },
    async runInTransaction(tx, _deps, job) {
      calls++;
      // Its work: here, a job of another queue (outbox jobs chain in one transaction).
      await enqueue(tx, next, { from: job.id, call: calls });
      if (calls === 1) throw new Error("fails after writing");
      if (calls === 3) {
        // Another instance took the job meanwhile (its lease lapsed): this run must leave nothing.
        await tx`update outbox.jobs set locked_by = 'another-instance' where id = ${job.id}`;
      }
    },
  }]);
  const first = await transactionAs(deps.db, await actorOf(CUSTOMER), (tx) => enqueue(tx, queue, {}));
  assertEquals(await worker.drain(deps), 1);
  let [job] = await jobsOf(queue);
  assertEquals([job.state, job.attempts, job.lastError], ["pending", 1, "fails after writing"]);
  assertEquals((await jobsOf(next)).length, 0, "the failed run's writes were rolled back");
  await sleep(1100);
  assertEquals(await worker.drain(deps), 1);
  [job] = await jobsOf(queue);
  assertEquals(job.state, "done");
  assertEquals(
    (await jobsOf(next)).map((j) => j.payload),
    [{ from: first, call: 2 }],
    "written once, with the end",
  );

  const second = await transactionAs(deps.db, await actorOf(CUSTOMER), (tx) => enqueue(tx, queue, {}));
  assertEquals(await worker.drain(deps), 1);
  assertEquals((await jobsOf(next)).length, 1, "a run that lost its job writes nothing");
  const [warned] = await systemQuery<{ n: number }>(
    deps.db,
    "select count(*)::int as n from public.logs where service = 'outbox' and type = 'warning' and (context->>'jobId')::bigint = $1",
    [second],
  );
  assertEquals(warned.n, 1, "and says so");
  assert(
    (() => {
      try {
        outboxQueue([{ queue, run: () => Promise.resolve(), runInTransaction: () => Promise.resolve() }]);
        return false;
      } catch {
        return true;
      }
    })(),
    "a handler has run or runInTransaction, not both",
  );
});

httpTest("outbox: onDeadLetter runs once, after the job failed for good", async () => {
  const { deps } = await testEnv();
  const queue = queueName("dead");
  const dead: { id: number; error: string; state: string }[] = [];
  const worker = outboxQueue([{
    queue,
    backoff: { baseSeconds: 0, capSeconds: 0 },
    run: (_deps, job) => Promise.reject(new Error(`refus ${job.attempts}`)),
    async onDeadLetter(_deps, job, error) {
      const [row] = await jobsOf(queue);
      dead.push({ id: job.id, error: (error as Error).message, state: row.state });
    },
  }]);
  const id = await transactionAs(
    deps.db,
    await actorOf(CUSTOMER),
    (tx) => enqueue(tx, queue, {}, { maxAttempts: 3 }),
  );
  assertEquals(await drainAll(deps, worker), 3, "three attempts (no delay for this queue)");
  assertEquals(dead, [{ id, error: "refus 3", state: "failed" }]);
});

httpTest("outbox: two workers on two connections run each job exactly once", async () => {
  const { deps } = await testEnv();
  const queue = queueName("twice");
  const url = Deno.env.get("TEST_DATABASE_URL");
  // PostgreSQL: a second connection pool, as a second app instance has. PGlite: one process, one database.
  const db2 = url ? openPostgres(url, { max: 4 }) : deps.db;
  const N = 200;
  try {
    await transactionAs(deps.db, await actorOf(CUSTOMER), async (tx) => {
      for (let n = 0; n < N; n++) await enqueue(tx, queue, { n });
    });
    const runsOf = new Map<number, string[]>();
    const handlerFor = (who: string): OutboxHandler => ({
      queue,
      async run(_deps, job) {
        const n = job.payload.n as number;
        runsOf.set(n, [...(runsOf.get(n) ?? []), who]);
        await sleep(1);
      },
    });
    const workerA = startWorker(deps, [outboxQueue([handlerFor("a")], { batch: 5 })], 20);
    const workerB = startWorker({ ...deps, db: db2 }, [outboxQueue([handlerFor("b")], { batch: 5 })], 20);
    const deadline = Date.now() + 60_000;
    while (runsOf.size < N && Date.now() < deadline) await sleep(20);
    await sleep(200);
    await workerA.stop();
    await workerB.stop();
    const twice = [...runsOf].filter(([, who]) => who.length > 1);
    assertEquals(runsOf.size, N, "every job ran");
    assertEquals(twice, [], "no job ran twice");
    const byA = [...runsOf.values()].filter((who) => who[0] === "a").length;
    if (url) assert(byA > 0 && byA < N, `both workers took part (a: ${byA}, b: ${N - byA})`);
    const states = await systemQuery<{ state: string; n: number }>(
      deps.db,
      "select state, count(*)::int as n from outbox.jobs where queue = $1 group by state",
      [queue],
    );
    assertEquals(states.map((s) => ({ ...s })), [{ state: "done", n: N }]);
  } finally {
    if (db2 !== deps.db) await db2.close();
  }
});
