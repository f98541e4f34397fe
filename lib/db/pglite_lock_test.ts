// Two app instances on one embedded data folder would each see only their own writes and lose some
// on restart: the second one must refuse to open the folder.
import { assert, assertEquals } from "../../tests/support/assert.ts";
import { openPglite } from "./pglite.ts";

Deno.test("a second instance refuses to open a PGlite folder already in use", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pglite-lock-" });
  const first = await openPglite(dir);
  try {
    let message = "";
    try {
      const second = await openPglite(dir);
      await second.close();
    } catch (error) {
      message = (error as Error).message;
    }
    assert(message.includes(dir), `names the folder: ${message}`);
    assert(message.includes(String(Deno.pid)), `names the running instance: ${message}`);
    assert(/déjà utilisé/.test(message), `in French: ${message}`);
  } finally {
    await first.close();
  }
  // Once the first instance has closed, the folder opens again.
  const again = await openPglite(dir);
  assertEquals(again.kind, "pglite");
  await again.close();
  await Deno.remove(dir, { recursive: true });
});
