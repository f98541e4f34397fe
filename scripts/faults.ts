// The database fault test (a step of `deno task test` when DATABASE_URL is set): runs the scenario of
// scripts/faults/scenario.ts and prints one line per check and `N passed, M failed`.
// Ports: FAULTS_PORTS="app1,app2,proxy" (default 18101,18102,18103).
import { runFaultScenario } from "./faults/scenario.ts";

const adminUrl = Deno.env.get("DATABASE_URL");
if (!adminUrl) {
  console.log("DATABASE_URL is not set: the fault test needs PostgreSQL.");
  Deno.exit(0);
}
const ports = (Deno.env.get("FAULTS_PORTS") ?? "18101,18102,18103").split(",").map(Number) as [
  number,
  number,
  number,
];
const started = performance.now();
console.log("Database faults: two instances, backends terminated twice, the network cut for 15 s");
const { checks, figures } = await runFaultScenario({ adminUrl, ports, log: (line) => console.log(line) });
const passed = checks.filter((c) => c.ok).length;
const failed = checks.length - passed;
console.log(`  figures: ${JSON.stringify(figures)}`);
console.log(`  in ${Math.round((performance.now() - started) / 1000)} s`);
console.log(`${passed} passed, ${failed} failed`);
Deno.exit(failed ? 1 : 0);
