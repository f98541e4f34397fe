// The process's Prometheus metrics that code increments as things happen (prom-client): requests by
// route pattern and status with latency histograms, rate-limit refusals by limit, job runs, open chat
// streams. A primitive: it imports no capability, so that any module (the limiter, the chat hub, the
// outbox worker) can count with one call. One registry per process, as Prometheus scrapes processes;
// the figures read at scrape time (pool, queues, heartbeat) live in lib/metrics/app.ts.
import client from "prom-client";

export const registry = new client.Registry();

// The process's own figures (CPU, memory, open files, event loop lag: process_*, nodejs_*), read at
// scrape time by prom-client; they work under Deno's node compatibility.
client.collectDefaultMetrics({ register: registry });

/** Label of requests that matched no route (a 404 of an unknown path): never the raw path. */
export const UNMATCHED_ROUTE = "(unmatched)";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

const httpRequests = new client.Counter({
  name: "http_requests_total",
  help: "HTTP requests answered, by method, route pattern and status",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});

const httpDuration = new client.Histogram({
  name: "http_request_duration_seconds",
  help: "Time to answer (until the response headers), by method and route pattern",
  labelNames: ["method", "route"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const rateLimitRefusals = new client.Counter({
  name: "rate_limit_refusals_total",
  help: "Requests refused by a rate limit (429), by limit name",
  labelNames: ["limit"] as const,
  registers: [registry],
});

const jobRuns = new client.Counter({
  name: "job_runs_total",
  help: "Job runs of the worker (outbox jobs, queue batches, scheduled handlers), by queue and outcome",
  labelNames: ["queue", "outcome"] as const,
  registers: [registry],
});

const jobDuration = new client.Histogram({
  name: "job_duration_seconds",
  help: "Duration of a job run, by queue",
  labelNames: ["queue"] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
  registers: [registry],
});

const chatStreams = new client.Gauge({
  name: "chat_streams_open",
  help: "Chat event streams (server-sent events) open on this instance",
  registers: [registry],
});

// The children of each label set, kept: prom-client hashes the labels object on every call otherwise,
// which was most of the cost of counting a request.
const requestCounters = new Map<string, client.Counter.Internal>();
const requestTimers = new Map<string, client.Histogram.Internal<"method" | "route">>();

/** One answered request. `route` is a route pattern (bounded), never a path. */
export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  const m = METHODS.has(method) ? method : "OTHER";
  const key = `${m} ${route}`;
  const counterKey = `${key} ${status}`;
  let counter = requestCounters.get(counterKey);
  if (!counter) requestCounters.set(counterKey, counter = httpRequests.labels(m, route, String(status)));
  counter.inc();
  let timer = requestTimers.get(key);
  if (!timer) requestTimers.set(key, timer = httpDuration.labels(m, route));
  timer.observe(seconds);
}

/** The limit's name in a bucket key ('login:all', 'exists:<ip>'…): the part before the first ':', as
 * written in the code (a bounded set); anything unexpected counts as 'other'. */
export function limitName(bucket: string): string {
  const name = bucket.split(":", 1)[0];
  return /^[a-z][a-z0-9_-]{0,39}$/.test(name) ? name : "other";
}

/** A request refused by the rate limit of `bucket` (called where the 429 is decided). */
export function countRefusal(bucket: string): void {
  rateLimitRefusals.inc({ limit: limitName(bucket) });
}

export type JobOutcome = "done" | "error";

export function observeJob(queue: string, outcome: JobOutcome, seconds: number): void {
  jobRuns.inc({ queue, outcome });
  jobDuration.observe({ queue }, seconds);
}

export function chatStreamOpened(): void {
  chatStreams.inc();
}

export function chatStreamClosed(): void {
  chatStreams.dec();
}

export { client };
