import { assertEquals } from "../../tests/support/assert.ts";
import { dashboardPathForHash, homeFor, menuFor } from "./menu.ts";

Deno.test("each role sees its own side menu", () => {
  assertEquals(menuFor("Customer").map((r) => r.label), [
    "Mon tableau de bord",
    "Mes demandes de devis en cours",
    "Mon profil",
  ]);
  assertEquals(menuFor("Admin").some((r) => r.path === "/dashboard/admin/utilisateurs"), true);
  assertEquals(menuFor("Company").some((r) => r.path.startsWith("/dashboard/admin")), false);
});

Deno.test("after login each role has a landing page", () => {
  assertEquals(homeFor("Admin"), "/dashboard/admin/utilisateurs");
  assertEquals(homeFor("Company"), "/dashboard");
  assertEquals(homeFor("Customer"), "/dashboard/demandes-en-cours");
});

Deno.test("dashboard hash links map to server pages", () => {
  assertEquals(dashboardPathForHash("#/espace-partenaire/deal/12"), "/dashboard/espace-partenaire/deal/12");
  assertEquals(dashboardPathForHash("#/profil/"), "/dashboard/profil");
  assertEquals(dashboardPathForHash("#/../evil"), null);
  assertEquals(dashboardPathForHash(""), null);
});
