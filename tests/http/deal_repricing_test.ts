// Re-pricing a deal after its request changed (GET/POST /api/deal/{id}/repricing): the guest count
// alone re-prices nothing; the engine's proposal shows the new lines and totals; applying it needs the
// total the caller saw (409 when it moved), writes the lines, counts and totals in one transaction,
// moves a sent quote back to 'pending' like any edit; partners of other deals, customers and visitors
// are refused, and a locked deal is refused to its partner.
import { assert, assertEquals } from "../support/assert.ts";
import { httpTest } from "../support/app.ts";
import {
  ADMIN,
  anonymous,
  assertError,
  body,
  CUSTOMER,
  dealForPartner,
  dealOf,
  type Json,
  loggedIn,
  MSG,
  PARTNER,
  PARTNER2,
} from "./deals_fixtures_test.ts";

const STALE = "La proposition a changé depuis son affichage : vérifiez-la à nouveau.";

httpTest(
  "repricing: a guest count change is offered as the engine's new lines, applied only when accepted",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const deal = await dealForPartner(admin, PARTNER);
    const before = dealOf(await admin.get(`/api/deal/get/${deal.id}`));
    const guests = Number(before.properties.nombre_de_participants);

    // Nothing changed: the engine gives the deal's own lines.
    let proposal = body(await admin.get(`/api/deal/${deal.id}/repricing`)).results as Json;
    assertEquals(proposal.changed, false);
    assertEquals(proposal.proposed.totalHt, before.totals.totalInvoiceByPartner);

    // Three times the guests: the saved properties leave the lines and totals as they were…
    const patched = dealOf(
      await partner.patch(`/api/deal/${deal.id}`, { properties: { nombre_de_participants: guests * 3 } }),
    );
    assertEquals(patched.lines, before.lines);
    assertEquals(patched.totals.totalInvoiceByPartner, before.totals.totalInvoiceByPartner);
    // …and the proposal has more cocktails and a higher total, beside the current one.
    proposal = body(await partner.get(`/api/deal/${deal.id}/repricing`)).results as Json;
    assertEquals(proposal.changed, true);
    assertEquals(proposal.guests, guests * 3);
    assertEquals(proposal.current.totalHt, before.totals.totalInvoiceByPartner);
    assert(proposal.proposed.totalHt > proposal.current.totalHt, "a larger party costs more");
    assert(proposal.nbCocktails >= guests * 3, "at least one cocktail an hour for each guest");

    // Denied: another partner, the customer, a visitor; malformed body.
    const partner2 = await loggedIn(PARTNER2);
    assert((await partner2.get(`/api/deal/${deal.id}/repricing`)).status >= 403);
    assert((await partner2.post(`/api/deal/${deal.id}/repricing`, { expectedTotalHt: 1 })).status >= 403);
    const customer = await loggedIn(CUSTOMER);
    assertError(await customer.get(`/api/deal/${deal.id}/repricing`), 403, MSG.notAllowed);
    assertEquals(
      (await anonymous().post(`/api/deal/${deal.id}/repricing`, { expectedTotalHt: 1 })).status,
      401,
    );
    assertError(
      await partner.post(`/api/deal/${deal.id}/repricing`, { expectedTotalHt: "x" }),
      422,
      "Proposition de recalcul invalide.",
    );

    // A total the caller did not see: refused, nothing written.
    assertError(
      await partner.post(`/api/deal/${deal.id}/repricing`, { expectedTotalHt: proposal.current.totalHt }),
      409,
      STALE,
    );
    assertEquals(dealOf(await admin.get(`/api/deal/get/${deal.id}`)).lines, before.lines);

    // Accepted: the proposed lines and totals, written on the server.
    const applied = dealOf(
      await partner.post(`/api/deal/${deal.id}/repricing`, { expectedTotalHt: proposal.proposed.totalHt }),
    );
    assertEquals(
      applied.lines.map((l: Json) => [l.label, l.qty, l.unitCost]),
      proposal.lines.map((l: Json) => [l.label, l.qty, l.unitCost]),
    );
    assertEquals(applied.totals.totalInvoiceByPartner, proposal.proposed.totalHt);
    assertEquals(applied.totals.totalTTC, proposal.proposed.totalTTC);
    assertEquals((body(await admin.get(`/api/deal/${deal.id}/repricing`)).results as Json).changed, false);
  },
);

httpTest(
  "repricing: a sent quote goes back to 'pending'; a locked deal is refused to its partner",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const deal = await dealForPartner(admin, PARTNER);
    const validated = await partner.post(`/api/deal/${deal.id}/validate-availability`);
    assertEquals(validated.status, 200, validated.text);
    await admin.patch(`/api/deal/${deal.id}`, { properties: { nombre_de_participants: 150 } });
    const proposal = body(await admin.get(`/api/deal/${deal.id}/repricing`)).results as Json;
    const applied = dealOf(
      await admin.post(`/api/deal/${deal.id}/repricing`, { expectedTotalHt: proposal.proposed.totalHt }),
    );
    assertEquals(applied.status, "pending");

    await admin.patch(`/api/deal/${deal.id}`, { adminSettings: { disableQuoteEdits: true } });
    await admin.patch(`/api/deal/${deal.id}`, { properties: { nombre_de_participants: 40 } });
    const again = body(await partner.get(`/api/deal/${deal.id}/repricing`)).results as Json;
    assertError(
      await partner.post(`/api/deal/${deal.id}/repricing`, { expectedTotalHt: again.proposed.totalHt }),
      409,
      MSG.locked,
    );
  },
);
