// One JSON line and one metric per job run: an outbox job (lib/outbox/worker.ts), a batch of a queue
// with its own table (lib/jobs/worker.ts), a scheduled handler (lib/jobs/scheduler.ts). The run gets
// an id of its own, carried like a request's (request_context.ts), so that the logger's rows written
// during the run (a dead letter, a failed email) name it in `requestId`.
import { newRequestId, runWithRequestId } from "../log/request_context.ts";
import { lineTime, writeLine } from "../log/lines.ts";
import { type JobOutcome, observeJob } from "./registry.ts";

export type JobKind = "outbox-job" | "queue-batch" | "scheduled";

/** Runs `fn` as one observed run of `queue`. `describe` turns its result into the line's extra fields
 * and outcome, or null for a run that did nothing (an empty batch: no line, no count). A throw is an
 * 'error' run, rethrown. */
export async function observeJobRun<T>(
  kind: JobKind,
  queue: string,
  fn: () => Promise<T>,
  describe: (result: T) => { outcome: JobOutcome; fields?: Record<string, unknown> } | null,
): Promise<T> {
  const runId = newRequestId();
  const started = performance.now();
  let result: T;
  try {
    result = await runWithRequestId(runId, fn);
  } catch (error) {
    finish(kind, queue, runId, started, "error", {});
    throw error;
  }
  const described = describe(result);
  if (described) finish(kind, queue, runId, started, described.outcome, described.fields ?? {});
  return result;
}

function finish(
  kind: JobKind,
  queue: string,
  runId: string,
  started: number,
  outcome: JobOutcome,
  fields: Record<string, unknown>,
) {
  const ms = performance.now() - started;
  observeJob(queue, outcome, ms / 1000);
  writeLine({
    time: lineTime(),
    level: outcome === "error" ? "error" : "info",
    type: "job",
    kind,
    requestId: runId,
    queue,
    ...fields,
    outcome,
    durationMs: Math.round(ms * 10) / 10,
  });
}
