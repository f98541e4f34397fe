// 'Changer de partenaire' is confirmed in the admin list with the total the server will apply:
// GET /api/deal/{id}/partner-preview?company=… runs the change's own rule (lib/deals/use_cases/
// partner_change.ts) and writes nothing; only admins may ask.
import { assert, assertEquals } from "../support/assert.ts";
import {
  ADMIN,
  anonymous,
  assertError,
  CUSTOMER,
  dealOf,
  loggedIn,
  PARTNER,
  PARTNER2,
  requestDeal,
  userIdOf,
} from "./deals_fixtures_test.ts";
import { httpTest } from "../support/app.ts";
import { eurosToCents } from "../../lib/money.ts";

httpTest(
  "partner preview: the totals announced are those the change writes, and nothing is written",
  async () => {
    const admin = await loggedIn(ADMIN);
    const deal = await requestDeal();
    const partnerId = await userIdOf(PARTNER);
    const before = dealOf(await admin.get(`/api/deal/get/${deal.id}`));

    const preview = dealOf(await admin.get(`/api/deal/${deal.id}/partner-preview?company=${partnerId}`));
    assertEquals(preview.dealId, deal.id);
    assertEquals(preview.companyId, partnerId);
    assertEquals(preview.repriced, true, "a deal in 'start' is priced with the new partner's grid");
    assertEquals(preview.current.totalHtCents, eurosToCents(before.totals.totalInvoiceByPartner));
    assertEquals(preview.current.totalTtcCents, eurosToCents(before.totals.totalTTC));
    assert(Number.isInteger(preview.next.totalHtCents) && Number.isInteger(preview.next.totalTtcCents));
    assert(
      preview.next.totalHtCents !== preview.current.totalHtCents,
      "Shaker & Co's grid gives another price",
    );

    // Nothing was written by the preview.
    const still = dealOf(await admin.get(`/api/deal/get/${deal.id}`));
    assertEquals(still.company, null);
    assertEquals(still.totals, before.totals);

    // The change itself gives exactly the announced totals.
    const changed = dealOf(await admin.patch(`/api/deal/${deal.id}`, { company: partnerId }));
    assertEquals(eurosToCents(changed.totals.totalInvoiceByPartner), preview.next.totalHtCents);
    assertEquals(eurosToCents(changed.totals.totalTTC), preview.next.totalTtcCents);

    // Once the quote has been sent, a new partner keeps the lines: not re-priced, and said so.
    dealOf(await admin.post(`/api/deal/${deal.id}/send-to-partner`));
    dealOf(await admin.patch(`/api/deal/${deal.id}`, { status: "pending" }));
    const partner2Id = await userIdOf(PARTNER2);
    const later = dealOf(await admin.get(`/api/deal/${deal.id}/partner-preview?company=${partner2Id}`));
    assertEquals(later.repriced, false);
    assertEquals(later.current.totalHtCents, preview.next.totalHtCents);
    const applied = dealOf(await admin.patch(`/api/deal/${deal.id}`, { company: partner2Id }));
    assertEquals(eurosToCents(applied.totals.totalInvoiceByPartner), later.next.totalHtCents);
    assertEquals(eurosToCents(applied.totals.totalTTC), later.next.totalTtcCents);
  },
);

httpTest(
  "partner preview: admins only; a bad or unknown partner or deal is a clear French error (422 as PATCH answers it)",
  async () => {
    const deal = await requestDeal();
    const partnerId = await userIdOf(PARTNER);
    const path = `/api/deal/${deal.id}/partner-preview?company=${partnerId}`;
    assertError(await anonymous().get(path), 401);
    for (const email of [PARTNER, CUSTOMER]) {
      assertError(await (await loggedIn(email)).get(path), 403, undefined, email);
    }
    const admin = await loggedIn(ADMIN);
    const customerId = await userIdOf(CUSTOMER);
    for (const company of ["", "pas-un-id", customerId, "00000000-0000-4000-8000-000000000000"]) {
      assertError(
        await admin.get(`/api/deal/${deal.id}/partner-preview?company=${company}`),
        422,
        "Partenaire introuvable.",
        `company=${company}`,
      );
    }
    assertError(await admin.get(`/api/deal/99999999/partner-preview?company=${partnerId}`), 404);
  },
);
