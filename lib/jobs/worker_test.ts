// The worker loop on the embedded database (PGlite): it drains every queue while there is work,
// logs a failing queue without stopping the others, and stops when asked.
import { memoryStorage } from "../storage/storage.ts";
import { assert, assertEquals } from "../../tests/support/assert.ts";
import { statementAs, systemActor } from "../actor.ts";
import { loadConfig } from "../config.ts";
import { migrate } from "../db/migrate.ts";
import { openPglite } from "../db/pglite.ts";
import { createBackground, type Deps } from "../deps.ts";
import { createLogger } from "../log/logger.ts";
import { type Queue, startWorker } from "./worker.ts";
import { createHealth } from "../health/state.ts";

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An in-memory queue of `items` handled `batch` at a time; records every drain. */
function fakeQueue(name: string, items: number, batch = 3) {
  const state = { left: items, drains: 0, handled: 0, deps: [] as Deps[] };
  const queue: Queue = {
    name,
    drain(deps) {
      state.drains++;
      state.deps.push(deps);
      const n = Math.min(batch, state.left);
      state.left -= n;
      state.handled += n;
      return Promise.resolve(n);
    },
  };
  return { queue, state };
}

async function waitFor(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await sleep(5);
  }
}

const cases: [string, (deps: Deps) => Promise<void>][] = [];
function dbTest(name: string, fn: (deps: Deps) => Promise<void>) {
  cases.push([name, fn]);
}

dbTest("flush() drains every queue until none has work", async (deps) => {
  const a = fakeQueue("a", 10, 3);
  const b = fakeQueue("b", 4, 1);
  // A long idle time: only draining "while there was work" and flush() can empty the queues in time.
  const worker = startWorker(deps, [a.queue, b.queue], 60_000);
  try {
    await worker.flush();
    assertEquals([a.state.left, b.state.left], [0, 0]);
    assertEquals([a.state.handled, b.state.handled], [10, 4], "each item handled once");
    assert(a.state.drains >= 4 && b.state.drains >= 4, `drains ${a.state.drains} ${b.state.drains}`);
    assert(a.state.deps.every((d) => d === deps), "queues get the worker's deps");
  } finally {
    await worker.stop();
  }
});

dbTest("the loop drains again at once while there was work, without flush()", async (deps) => {
  const a = fakeQueue("a", 20, 2);
  const worker = startWorker(deps, [a.queue], 60_000);
  try {
    await waitFor(() => a.state.left === 0);
    assertEquals(a.state.handled, 20);
  } finally {
    await worker.stop();
  }
});

dbTest("a failing queue is logged and does not stop the others", async (deps) => {
  let failures = 0;
  const failing: Queue = {
    name: "queue-en-panne",
    drain() {
      failures++;
      return Promise.reject(new Error("SMTP indisponible"));
    },
  };
  const after = fakeQueue("after", 7, 2);
  const worker = startWorker(deps, [failing, after.queue], 60_000);
  try {
    await worker.flush();
    assertEquals(after.state.left, 0, "the queue after the failing one is drained");
    assert(failures >= 1);
    const logs = await statementAs<{ service: string; message: string; context: { error: string } }>(
      deps.db,
      systemActor("seed"),
      "select service, message, context from public.logs where type = 'error' and message like '%queue-en-panne%'",
    );
    assert(logs.length >= 1, "the failure is logged");
    assertEquals(logs[0].service, "worker");
    assert(logs[0].context.error.includes("SMTP indisponible"), JSON.stringify(logs[0].context));
  } finally {
    await worker.stop();
  }
});

dbTest("stop() stops the loop", async (deps) => {
  let drains = 0;
  const idle: Queue = {
    name: "idle",
    drain() {
      drains++;
      return Promise.resolve(0);
    },
  };
  const worker = startWorker(deps, [idle], 10);
  await waitFor(() => drains >= 3);
  await worker.stop();
  const atStop = drains;
  await sleep(80);
  assertEquals(drains, atStop, "no drain after stop()");
});

dbTest("stop() ends a loop that always has work", async (deps) => {
  let drains = 0;
  const busy: Queue = {
    name: "busy",
    async drain() {
      drains++;
      await sleep(1);
      return 1;
    },
  };
  const worker = startWorker(deps, [busy], 60_000);
  await waitFor(() => drains >= 5);
  await worker.stop();
  const atStop = drains;
  await sleep(50);
  assertEquals(drains, atStop, "no drain after stop()");
});

dbTest(
  "the loop outlives a failing queue whose error log fails too, and beats after each pass",
  async (deps) => {
    let drains = 0;
    const failing: Queue = {
      name: "failing",
      drain() {
        drains++;
        return Promise.reject(new Error("connection lost"));
      },
    };
    const health = createHealth();
    const logger = { ...deps.logger, error: () => Promise.reject(new Error("database down")) };
    const worker = startWorker({ ...deps, logger, health }, [failing], 5);
    await waitFor(() => drains >= 4);
    await worker.stop();
    assert(health.lastWorkerBeat !== null, "the worker beat");
  },
);

dbTest("the watchdog starts a new loop when a pass hangs", async (deps) => {
  let calls = 0;
  const hangsOnce: Queue = {
    name: "hangs-once",
    drain() {
      calls++;
      return calls === 1 ? new Promise<number>(() => {}) : Promise.resolve(0);
    },
  };
  const health = createHealth();
  const worker = startWorker({ ...deps, health }, [hangsOnce], 5, { passTimeoutMs: 50 });
  await waitFor(() => calls >= 3);
  assertEquals(worker.restarts, 1);
  assert(health.lastWorkerBeat !== null, "the new loop beats");
  await worker.stop(10);
});

dbTest("a worker without queues does nothing", async (deps) => {
  const worker = startWorker(deps, []);
  await worker.flush();
  await worker.stop();
});

Deno.test({
  name: "worker on PGlite",
  // PGlite is closed at the end; each step stops its worker.
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
