// 'Changer de partenaire' is confirmed in the admin list with the total the server will apply:
// GET /api/deal/{id}/partner-preview?company=… runs the change's own rule (lib/deals/use_cases/
// partner_change.ts) and writes nothing; only admins may ask.
import { assert, assertEquals } from "../support/assert.ts";
import {
  ADMIN,
  anonymous,
  assertError,
  body,
  CUSTOMER,
  dealForPartner,
  dealOf,
  drainNotifications,
  emailsFor,
  ensureCatalogue,
  historyRows,
  loggedIn,
  PARTNER,
  PARTNER2,
  requestDeal,
  sentDealForCustomer,
  userIdOf,
} from "./deals_fixtures_test.ts";
import { DEAL_MESSAGES } from "../../lib/deals/rules.ts";
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

httpTest(
  "a change of partner after the quote reached the customer: back to 'new', both partners emailed, said before and after",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const deal = await sentDealForCustomer(admin, partner);
    const partner2Id = await userIdOf(PARTNER2);
    await drainNotifications();
    const contact = String(deal.request.email);
    const before = {
      partner: (await emailsFor(PARTNER)).length,
      partner2: (await emailsFor(PARTNER2)).length,
      customer: (await emailsFor(contact)).length,
    };

    // The dialog says so before confirming.
    const preview = dealOf(await admin.get(`/api/deal/${deal.id}/partner-preview?company=${partner2Id}`));
    assertEquals(preview.backToNew, true);
    assertEquals(preview.notice, DEAL_MESSAGES.partnerChangeResets);

    const res = await admin.patch(`/api/deal/${deal.id}`, { company: partner2Id });
    const changed = dealOf(res);
    assertEquals(changed.status, "new", "the new partner has to validate the quote");
    assertEquals(changed.company.id, partner2Id);
    assertEquals(body(res).message, DEAL_MESSAGES.partnerChangedBackToNew(changed.company.name));
    const history = (await historyRows(deal.id)).map((h) => `${h.from_status}>${h.to_status}:${h.action}`);
    assertEquals(history.at(-1), "send>new:change_partner");

    // Both partners are emailed; the previous one without a link to the deal it lost.
    await drainNotifications();
    const removed = (await emailsFor(PARTNER)).slice(before.partner);
    assertEquals(removed.map((m) => m.template), ["deal-partner-removed"]);
    assert(removed[0].subject.includes(`#${deal.id}`), removed[0].subject);
    assert(!removed[0].text_body.includes(`/deal/${deal.id}`), "no link to the deal");
    assert(!removed[0].text_body.includes(contact), "never the customer's email");
    const asked = (await emailsFor(PARTNER2)).slice(before.partner2);
    assertEquals(asked.map((m) => m.template), ["deal-new-partner"]);
    assertEquals((await emailsFor(contact)).length, before.customer, "the customer is not emailed yet");

    // The customer's page says the quote is being updated (it answered 'Devis non disponible').
    const page = await anonymous().get(`/deal/show/${deal.token}`);
    assertEquals(page.status, 200);
    assert(page.text.includes("Votre devis est en cours de mise à jour"), "being updated");

    // The previous partner has lost it; the new one validates and the customer gets the updated quote.
    assertError(await partner.post(`/api/deal/${deal.id}/validate-availability`), 404);
    const partner2 = await loggedIn(PARTNER2);
    await ensureCatalogue(admin, partner2Id);
    const validated = await partner2.post(`/api/deal/${deal.id}/validate-availability`);
    assertEquals(dealOf(validated).status, "send", validated.text);
    await drainNotifications();
    assertEquals(
      (await emailsFor(contact)).slice(before.customer).map((m) => m.template),
      ["deal-quote-updated"],
    );
    assertEquals((await anonymous().get(`/deal/show/${deal.token}`)).status, 200);

    // A deal in 'new' keeps its status; both partners still hear of the change, and the dialog says it.
    const fresh = await dealForPartner(admin);
    const notice = dealOf(await admin.get(`/api/deal/${fresh.id}/partner-preview?company=${partner2Id}`));
    assertEquals([notice.backToNew, notice.notice], [false, DEAL_MESSAGES.partnerChangeNotifies]);
    assertEquals(dealOf(await admin.patch(`/api/deal/${fresh.id}`, { company: partner2Id })).status, "new");
  },
);
