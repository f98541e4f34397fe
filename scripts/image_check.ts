// CI's stand-in for building and running the container image (this machine runs no Docker engine):
//  1. reads the Dockerfile: its build step must be scripts/build_image.sh, its user not root, its stop
//     signal SIGTERM, its HEALTHCHECK on /healthz; its ENV, HEALTHCHECK and CMD are used below as written;
//  2. copies the repository's files (tracked and untracked, less what .gitignore leaves out: what
//     `COPY . .` gets with .dockerignore) to a temporary folder and runs scripts/build_image.sh there
//     (npm packages and Deno: linked from this run's own install, which .ci/run makes from nothing, or
//     installed afresh with IMAGE_CHECK_FRESH=1; then the assets and the module cache);
//  3. starts the image's CMD with its ENV in production mode against a fresh PostgreSQL database shaped
//     like a hosted Supabase one (the app migrates it as the non-superuser owner; dropped after);
//  4. waits for IMAGE_READY_PATH (default /readyz), runs the HEALTHCHECK command, checks a page and a
//     built asset answer, sends SIGTERM and checks the process exits 0 within its shutdown deadline.
// Prints each check and `N passed, M failed`. Needs DATABASE_URL (an admin URL). `deno compile` is not
// used: ARCHITECTURE.md, 'Deploying', says why.
import { withHostedDatabase } from "./fresh_database.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const adminUrl = Deno.env.get("DATABASE_URL") ?? "";
const port = Number(Deno.env.get("IMAGE_CHECK_PORT") ?? 8933);
const readyPath = Deno.env.get("IMAGE_READY_PATH") ?? "/readyz";
/** The app's shutdown deadline (SHUTDOWN_TIMEOUT_MS, 25 s by default): the process must be gone by then. */
const shutdownMs = Number(Deno.env.get("SHUTDOWN_TIMEOUT_MS") ?? 25_000);
const READY_WITHIN_MS = 90_000;
/** IMAGE_CHECK_FRESH=1: the copy installs its npm packages and Deno itself, as `docker build` does (about
 * 25 s more on an idle machine, and as long again to delete them); by default it links this run's. */
const FRESH = Deno.env.get("IMAGE_CHECK_FRESH") === "1";

let passed = 0;
let failed = 0;
const t0 = Date.now();
function check(name: string, ok: boolean, detail = "") {
  if (ok) passed++;
  else failed++;
  const at = `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? ` (${detail})` : ""} [${at}]`);
}

export interface DockerfilePlan {
  runs: string[];
  user: string | null;
  stopSignal: string | null;
  healthcheck: string[] | null;
  cmd: string[] | null;
  /** ENV of the final image, in order. */
  env: Record<string, string>;
}

/** The instructions this check uses, from a Dockerfile's text (continuation lines joined). */
export function readDockerfile(text: string): DockerfilePlan {
  const lines = text.replace(/\\\n/g, " ").split("\n").map((l) => l.trim()).filter((l) =>
    l && !l.startsWith("#")
  );
  const plan: DockerfilePlan = {
    runs: [],
    user: null,
    stopSignal: null,
    healthcheck: null,
    cmd: null,
    env: {},
  };
  for (const line of lines) {
    const [, instruction, rest] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    switch (instruction?.toUpperCase()) {
      case "RUN":
        plan.runs.push(rest);
        break;
      case "USER":
        plan.user = rest;
        break;
      case "STOPSIGNAL":
        plan.stopSignal = rest;
        break;
      case "HEALTHCHECK": {
        const cmd = /\bCMD\s+(\[.*\])$/.exec(rest);
        plan.healthcheck = cmd ? JSON.parse(cmd[1]) : null;
        break;
      }
      case "CMD":
        plan.cmd = JSON.parse(rest);
        break;
      case "ENV":
        for (const pair of rest.split(/\s+/)) {
          const at = pair.indexOf("=");
          if (at > 0) plan.env[pair.slice(0, at)] = pair.slice(at + 1);
        }
        break;
    }
  }
  return plan;
}

async function output(cmd: string, args: string[], cwd: string): Promise<string> {
  const result = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "inherit" }).output();
  if (!result.success) throw new Error(`${cmd} ${args.join(" ")} failed`);
  return new TextDecoder().decode(result.stdout);
}

/** What `COPY . .` copies: the repository's files, less what .gitignore (hence .dockerignore) leaves out. */
async function copyRepository(to: string) {
  const files = (await output("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], ROOT))
    .split("\0").filter(Boolean);
  for (const file of files) {
    const from = `${ROOT}${file}`;
    const info = await Deno.lstat(from).catch(() => null);
    if (!info?.isFile) continue; // deleted in the work tree, or a symlink (node_modules, .tools here)
    const target = `${to}/${file}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.copyFile(from, target);
    // Dates kept: run-deno.mjs installs again when package-lock.json is newer than the install.
    if (info.mtime && info.atime) await Deno.utime(target, info.atime, info.mtime);
  }
  if (!FRESH) {
    // The packages and Deno this run already installed from the same package-lock.json (.ci/run's
    // `npm test` starts from none): the build script finds them up to date and skips both installs.
    for (const installed of ["node_modules", ".tools"]) {
      await Deno.symlink(await Deno.realPath(`${ROOT}${installed}`), `${to}/${installed}`);
    }
  }
  return files.length;
}

async function waitFor(url: string, withinMs: number, child: Deno.ChildProcess): Promise<number | null> {
  const started = Date.now();
  let exited = false;
  child.status.then(() => exited = true);
  while (Date.now() - started < withinMs && !exited) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      if (response.ok) return Date.now() - started;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  return null;
}

async function main() {
  if (!adminUrl) {
    console.log("DATABASE_URL is not set: the image check needs PostgreSQL.\n0 passed, 1 failed");
    return 1;
  }
  const started = Date.now();
  const plan = readDockerfile(await Deno.readTextFile(`${ROOT}Dockerfile`));
  check(
    "Dockerfile builds with scripts/build_image.sh",
    plan.runs.some((r) => r.includes("scripts/build_image.sh")),
  );
  check(
    "Dockerfile runs as a non-root user",
    !!plan.user && !/^(root|0)(:|$)/.test(plan.user),
    plan.user ?? "",
  );
  check("Dockerfile stops with SIGTERM", plan.stopSignal === "SIGTERM", plan.stopSignal ?? "none");
  const healthcheck = plan.healthcheck ?? [];
  const healthScript = healthcheck.find((a) => a.endsWith(".mjs"));
  const healthText = healthScript ? await Deno.readTextFile(`${ROOT}${healthScript}`).catch(() => "") : "";
  check("HEALTHCHECK asks /healthz", healthText.includes('"/healthz"'), healthcheck.join(" "));
  if (!plan.cmd) {
    check("Dockerfile has a CMD", false);
    return 1;
  }

  const dir = await Deno.makeTempDir({ prefix: "image_check_" });
  try {
    const files = await copyRepository(dir);
    // The image's ENV, with its /app folder being the copy here.
    const imageEnv = Object.fromEntries(
      Object.entries(plan.env).map(([k, v]) => [k, v.replaceAll("/app", dir)]),
    );
    const buildStarted = Date.now();
    const build = await new Deno.Command("sh", {
      args: ["scripts/build_image.sh"],
      cwd: dir,
      env: { DENO_DIR: imageEnv.DENO_DIR ?? `${dir}/.deno`, NO_COLOR: "1" },
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    check(
      "scripts/build_image.sh builds from a fresh copy",
      build.success,
      `${files} files, ${Math.round((Date.now() - buildStarted) / 1000)} s`,
    );
    if (!build.success) return 1;

    await withHostedDatabase(adminUrl, "deploy", async (ownerUrl) => {
      const origin = `http://127.0.0.1:${port}`;
      const env = {
        ...imageEnv,
        // What an operator gives the container (README, 'Deploying'); APP_URL is http on loopback only.
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_URL: ownerUrl,
        APP_URL: origin,
        APP_SECRET: crypto.randomUUID() + crypto.randomUUID(),
        STRIPE_SECRET_KEY: "sk_test_image_check",
        STRIPE_PUBLISHABLE_KEY: "pk_test_image_check",
        STRIPE_WEBHOOK_SECRET: "whsec_image_check",
        STRIPE_API_URL: "http://127.0.0.1:9",
        SHUTDOWN_TIMEOUT_MS: String(shutdownMs),
        NO_COLOR: "1",
      };
      const [command, ...args] = plan.cmd!;
      const child = new Deno.Command(command.startsWith(".") ? `${dir}/${command}` : command, {
        args,
        cwd: dir,
        env,
        stdout: "inherit",
        stderr: "inherit",
      }).spawn();
      let exited = false;
      const status = child.status.then((s) => {
        exited = true;
        return s;
      });
      try {
        const readyMs = await waitFor(`${origin}${readyPath}`, READY_WITHIN_MS, child);
        check(
          `ready: GET ${readyPath} answers 2xx`,
          readyMs !== null,
          readyMs === null ? "never" : `${readyMs} ms`,
        );
        if (readyMs === null) return;
        const [healthCmd, ...healthArgs] = healthcheck;
        const health = await new Deno.Command(healthCmd, { args: healthArgs, cwd: dir, env }).output();
        check(`HEALTHCHECK ${healthcheck.join(" ")}`, health.success);
        const login = await fetch(`${origin}/login`);
        const html = await login.text();
        check(
          "GET /login answers the login page",
          login.status === 200 && html.includes("<form"),
          `${login.status}`,
        );
        const css = /href="(\/build\/styles-[^"]+\.css)"/.exec(html)?.[1];
        const asset = css ? await fetch(`${origin}${css}`) : null;
        await asset?.body?.cancel();
        check(
          "the stylesheet built at image time is served",
          asset?.status === 200,
          css ?? "no stylesheet link",
        );
      } finally {
        if (!exited) {
          const stopAt = Date.now();
          child.kill("SIGTERM");
          const timer = setTimeout(() => !exited && child.kill("SIGKILL"), shutdownMs + 5000);
          const result = await status;
          clearTimeout(timer);
          const tookMs = Date.now() - stopAt;
          check(
            `SIGTERM: exits 0 within the shutdown deadline (${shutdownMs} ms)`,
            result.code === 0 && tookMs <= shutdownMs,
            `code ${result.code}${result.signal ? ` ${result.signal}` : ""}, ${tookMs} ms`,
          );
        } else {
          check("the app kept running", false, `exited with ${(await status).code}`);
        }
      }
    });
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  console.log(`image check in ${Math.round((Date.now() - started) / 1000)} s`);
  return failed > 0 ? 1 : 0;
}

if (import.meta.main) {
  let code = 1;
  try {
    code = await main();
  } catch (error) {
    check("image check ran", false, String(error));
  }
  console.log(`${passed} passed, ${failed} failed`);
  Deno.exit(failed > 0 ? 1 : code);
}
