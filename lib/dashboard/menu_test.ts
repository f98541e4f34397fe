import { assertEquals } from "../../tests/support/assert.ts";
import { DASHBOARD_ROUTES, dashboardPathForHash, homeFor, menuFor } from "./menu.ts";

Deno.test("each role sees its own side menu", () => {
  assertEquals(menuFor("Customer").map((r) => [r.label, r.path]), [
    ["Mon tableau de bord", "/dashboard"],
    ["Mes demandes de devis en cours", "/dashboard/demandes-en-cours"],
    ["Mes devis", "/dashboard/client/devis"],
    ["Vos sessions", "/dashboard/client/sessions"],
    ["Vos bons cadeaux", "/dashboard/client/bons-cadeaux"],
    ["Vos règlements de devis", "/dashboard/client/reglements"],
    ["Mon profil", "/dashboard/profil"],
  ]);
  assertEquals(menuFor("Admin").some((r) => r.path === "/dashboard/admin/utilisateurs"), true);
  assertEquals(menuFor("Company").some((r) => r.path.startsWith("/dashboard/admin")), false);
});

Deno.test("a partner's menu: its quotes, pricing grid and cocktails, not the customer's requests", () => {
  assertEquals(menuFor("Company").map((r) => [r.label, r.path]), [
    ["Mon tableau de bord", "/dashboard"],
    ["Mes devis", "/dashboard/partenaire/devis"],
    ["Ma grille tarifaire", "/dashboard/partenaire/grille-tarifaire"],
    ["Mes cocktails", "/dashboard/partenaire/cocktails"],
    ["Mon profil", "/dashboard/profil"],
  ]);
});

Deno.test("an admin's menu has the deals screen beside its other pages", () => {
  assertEquals(menuFor("Admin").map((r) => r.label), [
    "Mon tableau de bord",
    "Devis",
    "Utilisateurs",
    "Ateliers cocktails",
    "Emails envoyés",
    "Emails programmés",
    "Candidatures partenaires",
    "Logs",
    "Mon profil",
  ]);
  assertEquals(menuFor("Admin").find((r) => r.label === "Devis")?.path, "/dashboard/admin/devis");
  assertEquals(
    menuFor("Admin").find((r) => r.label === "Candidatures partenaires")?.path,
    "/dashboard/admin/candidatures",
  );
  assertEquals(menuFor("Admin").find((r) => r.label === "Logs")?.path, "/dashboard/admin/logs");
  assertEquals(menuFor("Customer").some((r) => r.path.startsWith("/dashboard/admin/logs")), false);
  assertEquals(menuFor("Company").some((r) => r.path.startsWith("/dashboard/admin/logs")), false);
  assertEquals(menuFor("Customer").some((r) => r.path.startsWith("/dashboard/partenaire")), false);
  assertEquals(menuFor("Admin").some((r) => r.path.startsWith("/dashboard/partenaire")), false);
});

Deno.test("menu paths are unique and every entry has at least one role", () => {
  const paths = DASHBOARD_ROUTES.map((r) => r.path);
  assertEquals(new Set(paths).size, paths.length);
  assertEquals(DASHBOARD_ROUTES.every((r) => r.roles.length > 0), true);
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
