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

Deno.test("ten failed logins lock the account", () => {
  assertEquals(isLoginLocked(9), false);
  assertEquals(isLoginLocked(10), true);
});

Deno.test("only local redirects are followed", () => {
  assertEquals(safeRedirect("/dashboard", "/"), "/dashboard");
  assertEquals(safeRedirect("//evil.example", "/"), "/");
  assertEquals(safeRedirect("https://evil.example", "/"), "/");
  assertEquals(safeRedirect("/\\evil.example", "/"), "/");
  assertEquals(safeRedirect(null, "/x"), "/x");
});
