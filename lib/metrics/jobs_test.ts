// One JSON line and one metric per job run, under a run id of its own (lib/metrics/jobs.ts).
import { assert, assertEquals, assertRejects } from "../../tests/support/assert.ts";
import { observeJobRun } from "./jobs.ts";
import { setLineSink } from "../log/lines.ts";
import { currentRequestId } from "../log/request_context.ts";
import { registry } from "./registry.ts";

async function capturing(fn: () => Promise<void>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const previous = setLineSink((line) => lines.push(line));
  try {
    await fn();
  } finally {
    setLineSink(previous);
  }
  return lines.map((line) => JSON.parse(line));
}

Deno.test("a job run: its line, its id seen by the code it runs, its count", async () => {
  let seen: string | undefined;
  const lines = await capturing(async () => {
    const result = await observeJobRun("outbox-job", "unit-queue", async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen = currentRequestId();
      return { failed: false };
    }, () => ({ outcome: "done", fields: { jobId: 42, attempt: 1 } }));
    assertEquals(result, { failed: false });
  });
  assertEquals(lines.length, 1);
  const [line] = lines;
  assertEquals(Object.keys(line), [
    "time",
    "level",
    "type",
    "kind",
    "requestId",
    "queue",
    "jobId",
    "attempt",
    "outcome",
    "durationMs",
  ]);
  assertEquals([line.type, line.kind, line.queue, line.jobId, line.outcome], [
    "job",
    "outbox-job",
    "unit-queue",
    42,
    "done",
  ]);
  assert(seen && line.requestId === seen, "the logger inside the run sees the run's id");
  assertEquals(currentRequestId(), undefined);
  const [runs] = (await registry.getMetricsAsJSON()).filter((m) => m.name === "job_runs_total");
  assert(
    runs.values.some((v) => v.labels.queue === "unit-queue" && v.labels.outcome === "done" && v.value === 1),
  );
});

Deno.test("a run that throws is an 'error' line and the error goes on; an empty batch writes nothing", async () => {
  const lines = await capturing(async () => {
    await assertRejects(
      () =>
        observeJobRun("queue-batch", "unit-failing", () => Promise.reject(new Error("boom")), () => ({
          outcome: "done",
        })),
      (error) => (error as Error).message === "boom",
    );
    await observeJobRun(
      "queue-batch",
      "unit-empty",
      () => Promise.resolve(0),
      (n) => n > 0 ? { outcome: "done" } : null,
    );
  });
  assertEquals(lines.map((l) => [l.queue, l.level, l.outcome]), [["unit-failing", "error", "error"]]);
});
