import { assertEquals } from "../../tests/support/assert.ts";
import { isLoginLocked, loginRefusal, safeRedirect } from "./policy.ts";

const none = { accountFromClient: 0, client: 0, account: 0, known: false };

Deno.test("ten failures on one account from one client, or twenty from one client, lock the next try", () => {
  assertEquals(isLoginLocked({ ...none, accountFromClient: 9, client: 19 }), false);
  assertEquals(isLoginLocked({ ...none, accountFromClient: 10, client: 10 }), true);
  assertEquals(isLoginLocked({ ...none, client: 20 }), true);
});

Deno.test("an account under attack refuses unknown addresses only; a known address keeps its own pair lock", () => {
  assertEquals(loginRefusal({ ...none, account: 49 }), null);
  assertEquals(loginRefusal({ ...none, account: 50 }), "account");
  assertEquals(loginRefusal({ ...none, account: 500, client: 500, known: true }), null);
  assertEquals(loginRefusal({ ...none, accountFromClient: 10, known: true }), "pair");
  assertEquals(loginRefusal({ ...none, client: 20, account: 50 }), "client");
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
