// `deno run -A scripts/pgtap.ts`: runs the pgTAP tests of supabase/tests/database/*.sql against a
// throw-away PostgreSQL database. DATABASE_URL is an admin URL (a role that may create databases and
// switch to anon/authenticated/service_role, e.g. postgres://postgres@127.0.0.1:5432/postgres).
//
// A fresh, uniquely named database is created, migrated with the app's own migrate(), given the
// pgtap extension and the shared helpers (supabase/tests/helpers.sql: schema `tests`, to create users
// and act as each role), then every test file runs, with pg_prove when it is on PATH and otherwise with
// psql, whose TAP output is parsed here. The database is dropped whatever happens. The last line
// printed is always `pgTAP: N passed, M failed`, and the exit code is non-zero if a test failed or a
// file errored (SQL error, missing or wrong plan).
import { migrate } from "../lib/db/migrate.ts";
import { openPostgres } from "../lib/db/postgres.ts";
import { withFreshDatabase } from "./fresh_database.ts";

const TESTS_DIR = new URL("../supabase/tests/database/", import.meta.url);
/** The helpers every test file uses, installed once after the migrations and pgtap. */
const HELPERS_FILE = new URL("../supabase/tests/helpers.sql", import.meta.url);

export interface PgTapResult {
  passed: number;
  failed: number;
}

export interface PgTapOptions {
  /** "pg_prove" (default when on PATH) or "psql". */
  runner?: "pg_prove" | "psql";
  testsDir?: URL;
  /** The shared helpers installed before the test files (default supabase/tests/helpers.sql). */
  helpersFile?: URL;
  log?: (line: string) => void;
}

interface FileResult {
  file: string;
  planned: number | null;
  passed: number;
  failed: number;
  /** Why the file counts as errored (SQL error, plan mismatch…), or null. */
  error: string | null;
  /** The lines worth showing when something went wrong. */
  details: string[];
}

/** Runs every pgTAP file against a fresh database created from `adminUrl`, and drops it afterwards. */
export async function runPgTap(adminUrl: string, options: PgTapOptions = {}): Promise<PgTapResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const testsDir = options.testsDir ?? TESTS_DIR;
  const files = await listTestFiles(testsDir);
  const helpers = await Deno.readTextFile(options.helpersFile ?? HELPERS_FILE);
  const runner = options.runner ?? (await findOnPath("pg_prove") ? "pg_prove" : "psql");
  if (!(await findOnPath(runner))) {
    throw new Error(`${runner} est introuvable dans le PATH : impossible de lancer les tests pgTAP.`);
  }

  const results: FileResult[] = [];
  await withFreshDatabase(adminUrl, "pgtap", async (testUrl, dbName) => {
    log(`pgTAP: base ${dbName}, ${files.length} fichier(s), via ${runner}`);
    const db = openPostgres(testUrl, { max: 1 });
    try {
      await migrate(db);
      try {
        await db.execScript("create extension if not exists pgtap");
      } catch (error) {
        const reason = (error as Error).message;
        throw new Error(`extension pgtap indisponible (${reason}) : installez postgresql-<version>-pgtap`, {
          cause: error,
        });
      }
      try {
        await db.execScript(helpers);
      } catch (error) {
        const reason = (error as Error).message;
        throw new Error(`helpers pgTAP (supabase/tests/helpers.sql) non installés : ${reason}`, {
          cause: error,
        });
      }
    } finally {
      await db.close();
    }

    for (const file of files) {
      const path = decodeURIComponent(new URL(file, testsDir).pathname);
      const result = runner === "pg_prove"
        ? await runWithPgProve(testUrl, file, path)
        : await runWithPsql(testUrl, file, path);
      results.push(result);
      log(summaryLine(result));
      if (result.failed > 0 || result.error) {
        for (const line of result.details) log(`      ${line}`);
      }
    }
  });

  const passed = results.reduce((sum, r) => sum + r.passed, 0);
  const failed = results.reduce((sum, r) => sum + r.failed, 0);
  log(`pgTAP: ${passed} passed, ${failed} failed`);
  return { passed, failed };
}

async function listTestFiles(dir: URL): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".sql")) files.push(entry.name);
  }
  return files.sort();
}

async function findOnPath(command: string): Promise<string | null> {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    if (!dir) continue;
    const candidate = `${dir}/${command}`;
    try {
      const info = await Deno.stat(candidate);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

async function run(
  command: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(command, {
    args,
    stdout: "piped",
    stderr: "piped",
    // Notices (pgTAP's own, `drop … if exists`) are noise here; errors still reach stderr.
    env: {
      PGOPTIONS: `${Deno.env.get("PGOPTIONS") ?? ""} --client-min-messages=warning`.trim(),
      PGAPPNAME: "pgtap",
    },
  }).output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

function runWithPgProve(url: string, file: string, path: string): Promise<FileResult> {
  // One pg_prove per file: its --verbose output is the file's raw TAP, and its exit code judges the
  // file as TAP::Harness does (failures, dubious exit, plan mismatch).
  return run("pg_prove", ["--verbose", "--dbname", url, path]).then(({ code, stdout, stderr }) =>
    judge(file, stdout, stderr, code, "pg_prove")
  );
}

function runWithPsql(url: string, file: string, path: string): Promise<FileResult> {
  // The psql settings pg_prove uses: raw rows (one TAP line each), stop at the first SQL error.
  const args = [
    "-X",
    "-q",
    "-A",
    "-t",
    "-P",
    "pager=off",
    "-v",
    "ON_ERROR_STOP=1",
    "-d",
    url,
    "-f",
    path,
  ];
  return run("psql", args).then(({ code, stdout, stderr }) => judge(file, stdout, stderr, code, "psql"));
}

/** Parses the top-level lines of a file's TAP output: plan, passed and failed tests, bail out. */
function parseTap(
  file: string,
  stdout: string,
): Omit<FileResult, "error"> & { seen: number; bailOut: string | null } {
  let planned: number | null = null;
  let passed = 0;
  let failed = 0;
  let seen = 0;
  let bailOut: string | null = null;
  const details: string[] = [];
  let inFailure = false;
  for (const line of stdout.split("\n")) {
    const plan = /^1\.\.(\d+)/.exec(line);
    if (plan) {
      planned = Number(plan[1]);
      continue;
    }
    const test = /^(not )?ok\s+\d+\b(.*)$/.exec(line);
    if (test) {
      seen++;
      // `not ok … # TODO` is an expected failure and `# SKIP` a skipped test: neither fails the file.
      if (!test[1] || /#\s*(TODO|SKIP)\b/i.test(test[2])) {
        passed++;
        inFailure = false;
      } else {
        failed++;
        inFailure = true;
        details.push(line);
      }
      continue;
    }
    const bail = /^Bail out!\s*(.*)$/.exec(line);
    if (bail) {
      bailOut = bail[1] || "Bail out!";
      details.push(line);
      continue;
    }
    if (line.startsWith("#") && (inFailure || /^#\s*Looks like/.test(line))) details.push(line);
  }
  return { file, planned, passed, failed, seen, bailOut, details };
}

function judge(file: string, stdout: string, stderr: string, code: number, runner: string): FileResult {
  const tap = parseTap(file, stdout);
  const problems: string[] = [];
  if (tap.bailOut) problems.push(`bail out: ${tap.bailOut}`);
  if (tap.planned === null) problems.push("no plan (1..N) printed");
  else if (tap.planned !== tap.seen) problems.push(`planned ${tap.planned} tests but ran ${tap.seen}`);
  if (code !== 0 && tap.failed === 0) problems.push(`${runner} exited with code ${code}`);
  const error = problems.length > 0 ? problems.join("; ") : null;
  const details = [...tap.details];
  if (error || tap.failed > 0) {
    details.push(...stderr.split("\n").filter((line) => line.trim() !== "").slice(0, 20));
  }
  // A file that errored counts at least one failure, and every planned test it did not reach.
  const missing = error ? Math.max(1, (tap.planned ?? 0) - tap.seen) : 0;
  return { file, planned: tap.planned, passed: tap.passed, failed: tap.failed + missing, error, details };
}

function summaryLine(result: FileResult): string {
  const total = result.planned ?? result.passed + result.failed;
  const status = result.error ? "ERROR" : result.failed > 0 ? "FAIL " : "ok   ";
  const counts = `${result.passed}/${total} passed`;
  const tail = result.error ? ` (${result.error})` : result.failed > 0 ? ` (${result.failed} failed)` : "";
  return `  ${status} ${result.file.padEnd(28)} ${counts}${tail}`;
}

if (import.meta.main) {
  const url = Deno.env.get("DATABASE_URL");
  if (!url) {
    console.log("pgTAP skipped: DATABASE_URL not set");
    Deno.exit(0);
  }
  const runner = Deno.env.get("PGTAP_RUNNER");
  if (runner && runner !== "pg_prove" && runner !== "psql") {
    console.error(`PGTAP_RUNNER doit valoir pg_prove ou psql, pas ${runner}`);
    Deno.exit(2);
  }
  try {
    const { failed } = await runPgTap(url, { runner: runner as PgTapOptions["runner"] });
    Deno.exit(failed > 0 ? 1 : 0);
  } catch (error) {
    console.error(`pgTAP: ${(error as Error).message}`);
    if ((error as Error).cause) console.error((error as Error).cause);
    console.log("pgTAP: 0 passed, 1 failed");
    Deno.exit(1);
  }
}
