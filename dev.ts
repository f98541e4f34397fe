// `deno task dev`: rebuilds islands and CSS on every change and restarts the server when server
// code changes (deno --watch). WATCH_ASSETS=1 makes pages re-read the asset manifest on each request.
import { build, watch } from "./scripts/build.ts";

await build(true);
watch().catch((error) => console.error(error));
const server = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", "--watch=lib/,routes/,components/,supabase/migrations/", "main.ts"],
  env: { APP_ENV: Deno.env.get("APP_ENV") ?? "development", WATCH_ASSETS: "1" },
  stdout: "inherit",
  stderr: "inherit",
}).spawn();
await server.status;
