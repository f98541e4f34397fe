import { assertEquals } from "../../tests/support/assert.ts";
import { fillTemplate, period } from "./template.ts";

const values = {
  chatAvailable: false,
  durationMinutes: 150,
  startTime: "22:30",
  staff: 2,
  mobileBar: true,
  nbCocktails: 150,
  guests: 60,
  serviceAddress: "1 <b>rue</b>",
  editedAt: new Date("2026-11-20T10:00:00Z"),
  validityDays: 30,
  nbCocktailsAuthorized: 3,
  depositPercentage: 30,
};

Deno.test("the period wraps around midnight", () => {
  assertEquals(period("22:30", 150), "22h30 à 01h00");
  assertEquals(period("08:00", 90), "08h00 à 09h30");
  assertEquals(period(null, 90), "horaires à confirmer");
});

Deno.test("placeholders are filled and their values escaped", () => {
  assertEquals(
    fillTemplate(
      "<p>{{staff}}, {{periode}}, {{duree}}, {{cocktails_par_personne}}, {{adresse}}, {{acompte}} {{inconnu}}</p>",
      values,
    ),
    "<p>2 barmen, 22h30 à 01h00, 2h30, 2,5, 1 &lt;b&gt;rue&lt;/b&gt;, 30 % {{inconnu}}</p>",
  );
});
