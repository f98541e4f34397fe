import { assertEquals } from "../../tests/support/assert.ts";
import { applySessionNotice, createSessionCache } from "./session_cache.ts";
import type { UserActor } from "../actor.ts";

const actor = (id: string, impersonatorId: string | null = null) =>
  ({
    kind: "user",
    user: { id, type: "Customer", firstname: "A", lastname: "B", name: null, email: `${id}@x.fr` },
    impersonatorId,
    sessionHash: `hash-${id}`,
  }) as unknown as UserActor;

Deno.test("a cached session lives its time, then is looked up again", () => {
  let now = 0;
  const cache = createSessionCache({ ttlMs: 10_000, now: () => now });
  cache.set("h1", actor("u1"), cache.epoch());
  assertEquals(cache.get("h1")?.user.id, "u1");
  now = 9_999;
  assertEquals(cache.get("h1")?.user.id, "u1");
  now = 10_000;
  assertEquals(cache.get("h1"), null);
  assertEquals(cache.size, 0);
});

Deno.test("notices drop a session, every session of a user (or impersonated by them), or everything", () => {
  const cache = createSessionCache({ ttlMs: 10_000 });
  cache.set("h1", actor("u1"), cache.epoch());
  cache.set("h2", actor("u1"), cache.epoch());
  cache.set("h3", actor("u2", "admin"), cache.epoch());
  cache.set("h4", actor("u3"), cache.epoch());
  cache.set("t5", actor("u5"), cache.epoch());
  applySessionNotice(cache, "h:hash-u5");
  assertEquals([cache.get("t5"), cache.get("h2")?.user.id], [null, "u1"]);
  applySessionNotice(cache, "u:u1");
  assertEquals(cache.get("h2"), null);
  applySessionNotice(cache, "u:admin");
  assertEquals(cache.get("h3"), null, "an impersonation ends with its admin's change");
  assertEquals(cache.get("h4")?.user.id, "u3");
  applySessionNotice(cache, "anything else");
  assertEquals(cache.size, 0);
});

Deno.test("a lookup that ran while a session was dropped is not cached (it may have read the old state)", () => {
  const cache = createSessionCache({ ttlMs: 10_000 });
  const before = cache.epoch();
  cache.dropSession("hash-u1"); // the logout commits while the lookup runs
  cache.set("h1", actor("u1"), before);
  assertEquals(cache.get("h1"), null);
  cache.set("h1", actor("u1"), cache.epoch());
  assertEquals(cache.get("h1")?.user.id, "u1");
});

Deno.test("a zero lifetime caches nothing; the oldest entry leaves first when full", () => {
  const off = createSessionCache({ ttlMs: 0 });
  off.set("h1", actor("u1"), off.epoch());
  assertEquals(off.get("h1"), null);
  const small = createSessionCache({ ttlMs: 10_000, maxEntries: 2 });
  small.set("h1", actor("u1"), small.epoch());
  small.set("h2", actor("u2"), small.epoch());
  small.set("h3", actor("u3"), small.epoch());
  assertEquals([small.get("h1"), small.get("h2")?.user.id, small.get("h3")?.user.id], [null, "u2", "u3"]);
});
