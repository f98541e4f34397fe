// One JSON object a line on stdout, for log collectors: one per request (lib/http/observe.ts) and one
// per job run (lib/metrics/jobs.ts). Callers pass a fixed set of fields: never a header, a body, a query
// string or a raw path, so no password, token, cookie, email body or card number can reach a line.
// Lines are buffered and written together (at most FLUSH_MS later, or at FLUSH_BYTES) rather than with
// a system call per request. `flushLines()`
// writes what is pending (shutdown does it; so does the process's unload event). The sink can be
// replaced: tests read the lines, the benchmark writes them to /dev/null.

export type LineSink = (line: string) => void;

const FLUSH_MS = 50;
const FLUSH_BYTES = 32 * 1024;

const encoder = new TextEncoder();

/** Where the buffered lines go: stdout, or (the benchmark) another file. */
type Target = { writeSync(bytes: Uint8Array): number };
let target: Target = Deno.stdout;

let pending: string[] = [];
let pendingBytes = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Writes every pending line to stdout, synchronously and whole; a closed stdout loses them rather than
 * failing a request. */
export function flushLines(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  if (!pending.length) return;
  const text = pending.join("");
  pending = [];
  pendingBytes = 0;
  try {
    const bytes = encoder.encode(text);
    for (let written = 0; written < bytes.length;) written += target.writeSync(bytes.subarray(written));
  } catch { /* nowhere to write: the lines are lost, the requests are not */ }
}

const stdoutSink: LineSink = (line) => {
  pending.push(line + "\n");
  pendingBytes += line.length + 1;
  if (pendingBytes >= FLUSH_BYTES) flushLines();
  else if (timer === undefined) {
    timer = setTimeout(flushLines, FLUSH_MS);
    // A pending flush does not keep the process (or a test) alive: unload flushes.
    Deno.unrefTimer(timer as unknown as number);
  }
};

globalThis.addEventListener("unload", flushLines);

let sink: LineSink = stdoutSink;

/** Sends the buffered lines to another file than stdout (`null`: back to stdout). */
export function setLineTarget(next: Target | null): void {
  flushLines();
  target = next ?? Deno.stdout;
}

/** Replaces the buffered writer altogether (`null`: back to it); returns the previous sink. */
export function setLineSink(next: LineSink | null): LineSink {
  const previous = sink;
  flushLines();
  sink = next ?? stdoutSink;
  return previous;
}

/** Writes `line` as one JSON line. Its first field is `time` (ISO 8601, UTC: `lineTime()`); build it as
 * an object literal (a spread object is several times slower to serialise). */
export function writeLine(line: { time: string } & Record<string, unknown>): void {
  sink(JSON.stringify(line));
}

// The ISO text up to the second, kept for the second: Date#toISOString was a quarter of a line's cost.
let second = -1;
let secondText = "";

/** Now, in ISO 8601 with milliseconds, UTC ('2026-11-28T10:04:14.269Z'). */
export function lineTime(now = Date.now()): string {
  const s = Math.floor(now / 1000);
  if (s !== second) {
    second = s;
    secondText = new Date(s * 1000).toISOString().slice(0, 20);
  }
  const ms = now - s * 1000;
  return `${secondText}${ms < 10 ? "00" : ms < 100 ? "0" : ""}${ms}Z`;
}
