// The Dockerfile as scripts/image_check.ts reads it: what the image promises (non-root, SIGTERM, a health
// check on /healthz, the build script, production mode), checked without PostgreSQL or Docker.
import { assert, assertEquals } from "../tests/support/assert.ts";
import { readDockerfile } from "./image_check.ts";

Deno.test("the Dockerfile: build script, non-root user, SIGTERM, health check, production CMD", async () => {
  const plan = readDockerfile(await Deno.readTextFile(new URL("../Dockerfile", import.meta.url)));
  assert(plan.runs.some((run) => run.startsWith("sh scripts/build_image.sh")), plan.runs.join("\n"));
  assertEquals(plan.user, "node");
  assertEquals(plan.stopSignal, "SIGTERM");
  assertEquals(plan.healthcheck, ["node", "scripts/healthcheck.mjs"]);
  assertEquals(plan.cmd, [".tools/node_modules/.bin/deno", "run", "-A", "main.ts"]);
  assertEquals(plan.env.APP_ENV, "production");
  assertEquals(plan.env.DENO_DIR, "/app/.deno");
});

Deno.test("readDockerfile joins continued lines and skips comments", () => {
  const plan = readDockerfile(
    '# comment\nFROM x\nRUN a \\\n  && b\nENV A=1 B=two\nUSER 1000:1000\nCMD ["x", "y"]\n',
  );
  assertEquals(plan.runs, ["a    && b"]);
  assertEquals(plan.env, { A: "1", B: "two" });
  assertEquals(plan.user, "1000:1000");
  assertEquals(plan.cmd, ["x", "y"]);
  assertEquals(plan.healthcheck, null);
});
