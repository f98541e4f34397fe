// `deno task test`: every check of the project, in order, with one closing line `N passed, M failed`.
//  1. builds the browser assets;
//  2. unit and in-process HTTP tests (deno test) on the embedded PGlite;
//  3. when DATABASE_URL is set: the HTTP tests again on a fresh PostgreSQL database shaped like a hosted
//     one (the app migrates and runs as a non-superuser owner; dropped after), the pgTAP policy tests,
//     the pg_cron check on DATABASE_URL's own database, the database fault test (scripts/faults.ts), and
//     the container image's check (its build script on a copy, its CMD started in production mode,
//     stopped by SIGTERM);
//  4. browser tests (Playwright with Debian's /usr/bin/chromium).
import { runPgTap } from "./pgtap.ts";
import { checkPgCron } from "./cron_check.ts";
import { withHostedDatabase } from "./fresh_database.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const CHROMIUM = "/usr/bin/chromium";
const databaseUrl = Deno.env.get("DATABASE_URL") ?? "";
const only = Deno.args; // e.g. `deno task test unit e2e`
const wanted = (step: string) => only.length === 0 || only.includes(step);
// HTTP_TEST_PATHS="tests/http/a_test.ts tests/http/b_test.ts" narrows the PostgreSQL step while working.
const httpPaths = (Deno.env.get("HTTP_TEST_PATHS") ?? "tests/http/").split(/\s+/).filter(Boolean);
// The PostgreSQL step runs every HTTP module on one database; these change what the others rely on (the
// erasure test anonymises the demo customer) and run on a database of their own.
const ISOLATED_HTTP = ["tests/http/personal_data_test.ts"];

interface Outcome {
  step: string;
  passed: number;
  failed: number;
  note?: string;
}
const outcomes: Outcome[] = [];

async function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  const child = new Deno.Command(cmd, {
    args,
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  const pump = async (stream: ReadableStream<Uint8Array>, sink: typeof Deno.stdout) => {
    for await (const chunk of stream) {
      out += new TextDecoder().decode(chunk);
      await sink.write(chunk);
    }
  };
  const [status] = await Promise.all([
    child.status,
    pump(child.stdout, Deno.stdout),
    pump(child.stderr, Deno.stderr),
  ]);
  return { code: status.code, out };
}

/** Counts from deno test's closing line `ok | 12 passed | 0 failed (…)`. */
function denoCounts(step: string, result: { code: number; out: string }): Outcome {
  const match = /(?:ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/.exec(result.out);
  if (!match) return { step, passed: 0, failed: 1, note: "deno test did not report (type errors?)" };
  const failed = Number(match[2]) || (result.code === 0 ? 0 : 1);
  return { step, passed: Number(match[1]), failed };
}

function deno(args: string[], env: Record<string, string> = {}) {
  return run(Deno.execPath(), args, env);
}

const started = Date.now();
const build = await deno(["run", "-A", "scripts/build.ts"]);
if (build.code !== 0) outcomes.push({ step: "build", passed: 0, failed: 1 });

if (wanted("unit")) {
  // Each test module has its own in-memory PGlite, so modules run side by side on both cores (the
  // step is CPU-bound: about 5.5 min of CPU, nearly halved in wall time).
  outcomes.push(
    denoCounts(
      "deno test (PGlite)",
      await deno(["test", "-A", "--quiet", "--parallel"], { DENO_JOBS: Deno.env.get("DENO_JOBS") ?? "2" }),
    ),
  );
}

if (databaseUrl && wanted("postgres")) {
  outcomes.push(
    await withHostedDatabase(
      databaseUrl,
      "test",
      async (url) =>
        denoCounts(
          "HTTP tests (PostgreSQL, as a non-superuser owner)",
          await deno(["test", "-A", "--quiet", `--ignore=${ISOLATED_HTTP.join(",")}`, ...httpPaths], {
            TEST_DATABASE_URL: url,
          }),
        ),
    ),
  );
}

if (databaseUrl && wanted("postgres") && !Deno.env.get("HTTP_TEST_PATHS")) {
  outcomes.push(
    await withHostedDatabase(
      databaseUrl,
      "test",
      async (url) =>
        denoCounts(
          "HTTP tests that change the demo data (PostgreSQL, a database of their own)",
          await deno(["test", "-A", "--quiet", ...ISOLATED_HTTP], { TEST_DATABASE_URL: url }),
        ),
    ),
  );
}

if (databaseUrl && wanted("pgtap")) {
  try {
    const { passed, failed } = await runPgTap(databaseUrl);
    outcomes.push({ step: "pgTAP", passed, failed });
  } catch (error) {
    console.error(error);
    outcomes.push({ step: "pgTAP", passed: 0, failed: 1, note: String(error) });
  }
}

if (databaseUrl && wanted("cron")) {
  const result = await checkPgCron(databaseUrl);
  outcomes.push({ step: "pg_cron", passed: result.passed, failed: result.failed, note: result.skipped });
}

if (databaseUrl && wanted("image")) {
  // The container image's build steps (scripts/build_image.sh) on a copy, then its CMD in production
  // mode on a fresh hosted-like database: ready, health check, a page, SIGTERM (scripts/image_check.ts).
  const result = await deno(["run", "-A", "scripts/image_check.ts"]);
  const match = /^(\d+) passed, (\d+) failed$/m.exec(result.out);
  outcomes.push(
    match
      ? { step: "image (build script, start, stop)", passed: Number(match[1]), failed: Number(match[2]) }
      : { step: "image (build script, start, stop)", passed: 0, failed: 1, note: "no report" },
  );
}

// Database faults: two app processes behind a TCP proxy, backends terminated, the network cut for 15 s
// (scripts/faults/scenario.ts, about 50 s). On its own fresh database; prints `N passed, M failed`.
if (databaseUrl && wanted("faults")) {
  const result = await deno(["run", "-A", "scripts/faults.ts"]);
  const match = /^(\d+) passed, (\d+) failed$/m.exec(result.out);
  outcomes.push(
    match
      ? { step: "faults", passed: Number(match[1]), failed: Number(match[2]) || (result.code === 0 ? 0 : 1) }
      : { step: "faults", passed: 0, failed: 1, note: "the fault test did not report" },
  );
}

if (wanted("e2e")) {
  if (!(await Deno.stat(CHROMIUM).catch(() => null))) {
    outcomes.push({
      step: "Playwright",
      passed: 0,
      failed: 1,
      note: `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`,
    });
  } else {
    const report = `${ROOT}test-results/playwright.json`;
    const result = await run(
      "node",
      ["node_modules/@playwright/test/cli.js", "test", "--reporter=list,json"],
      {
        PLAYWRIGHT_JSON_OUTPUT_NAME: report,
      },
    );
    try {
      const stats = JSON.parse(await Deno.readTextFile(report)).stats;
      outcomes.push({
        step: "Playwright",
        passed: stats.expected + stats.flaky,
        failed: stats.unexpected + (result.code !== 0 && stats.unexpected === 0 ? 1 : 0),
      });
    } catch {
      outcomes.push({ step: "Playwright", passed: 0, failed: 1, note: "no report" });
    }
  }
}

console.log("\nSummary");
for (const o of outcomes) {
  console.log(`  ${o.step}: ${o.passed} passed, ${o.failed} failed${o.note ? ` (${o.note})` : ""}`);
}
if (!databaseUrl) console.log("  PostgreSQL, pgTAP, pg_cron and image: not run (DATABASE_URL not set)");
const passed = outcomes.reduce((n, o) => n + o.passed, 0);
const failed = outcomes.reduce((n, o) => n + o.failed, 0);
console.log(`  in ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`${passed} passed, ${failed} failed`);
Deno.exit(failed > 0 || passed === 0 ? 1 : 0);
