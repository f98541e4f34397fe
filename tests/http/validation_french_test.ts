// Every validation message the API returns is French (issue "Invoices…" §3): zod's messages come from
// one place (lib/zod_locale.ts), so a query the list schema refuses names its problem in French.
import { assert, assertEquals } from "../support/assert.ts";
import { httpTest } from "../support/app.ts";
import { ADMIN, assertError, loggedIn, PARTNER } from "./deals_fixtures_test.ts";

httpTest("validation details are French: GET /api/deal/index?page=-1 and friends", async () => {
  const admin = await loggedIn(ADMIN);
  const page = assertError(await admin.get("/api/deal/index?page=-1"), 422, "La recherche est invalide.");
  assertEquals(page.errors.page, "Le numéro de page est invalide.");
  const perPage = assertError(await admin.get("/api/deal/index?perPage=0"), 422);
  assertEquals(perPage.errors.perPage, "La valeur doit être supérieure ou égale à 1.");
  const big = assertError(await admin.get("/api/deal/index?perPage=100000"), 422);
  assertEquals(big.errors.perPage, "La valeur doit être inférieure ou égale à 100.");
  const sort = assertError(await admin.get("/api/deal/index?sort=password"), 422);
  assert(sort.errors.sort.startsWith("Valeur invalide : choisissez parmi "), sort.errors.sort);
  // A partner's edit with a wrong type: French too.
  const partner = await loggedIn(PARTNER);
  const bad = assertError(await partner.patch("/api/deal/1", { lines: "pas une liste" }), 422);
  for (const message of Object.values(bad.errors as Record<string, string>)) {
    assert(!/[Ee]xpected|Invalid|Too (small|big)/.test(message), `French: ${message}`);
  }
});
