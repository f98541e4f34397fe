// What a partner may read of the customer: with showEmailForPartner, showPhoneForPartner,
// showAddressForPartner and showServiceAddress off, the partner's GET /api/deal/get/{id} (and its list)
// carries no customer email, phone, company/SIREN/address, nor properties.adresse_precise; each one
// appears when the admin turns its flag on; the admin always sees everything. Notifications become
// emails to the right recipients once the queue drains, and a partner never reads the customer's
// address through them.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest } from "../support/app.ts";
import {
  ADMIN,
  assertError,
  body,
  dealForPartner,
  dealOf,
  drainNotifications,
  emailsFor,
  freshIp,
  type Json,
  loggedIn,
  MSG,
  PARTNER,
  PARTNER2,
  registeredCustomer,
  userIdOf,
} from "./deals_fixtures_test.ts";

const FLAGS = [
  "showEmailForPartner",
  "showPhoneForPartner",
  "showAddressForPartner",
  "showServiceAddress",
] as const;
type Flag = typeof FLAGS[number];

/** The customer's details in the payload, grouped by the flag that reveals them. */
function revealed(deal: Json): Record<Flag, unknown[]> {
  const c = deal.customer ?? {};
  return {
    showEmailForPartner: [deal.email, c.email],
    showPhoneForPartner: [deal.phone, c.phone],
    showAddressForPartner: [c.name, c.siren, c.address1, c.zipcode, c.city],
    showServiceAddress: [deal.properties?.adresse_precise],
  };
}

async function setFlags(admin: Client, id: number, on: Flag[]) {
  const adminSettings = Object.fromEntries(FLAGS.map((f) => [f, on.includes(f)]));
  const deal = dealOf(await admin.patch(`/api/deal/${id}`, { adminSettings }));
  for (const f of FLAGS) assertEquals(deal.adminSettings[f], on.includes(f), f);
}

async function setup() {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const customer = await registeredCustomer();
  const deal = await dealForPartner(admin, PARTNER, { client: customer.client });
  // The admin's view is the reference: every detail, unmasked.
  const full = dealOf(await admin.get(`/api/deal/get/${deal.id}`));
  const secrets: Record<Flag, string[]> = {
    showEmailForPartner: [String(deal.request.email), customer.email],
    showPhoneForPartner: [String(full.phone), String(full.customer.phone)],
    showAddressForPartner: [customer.name, customer.siren, customer.address],
    showServiceAddress: [String(deal.request.adresse_precise)],
  };
  return { admin, partner, customer, deal, full, secrets };
}

httpTest("the admin always sees every customer detail; the customer sees their own", async () => {
  const { admin, customer, deal, full } = await setup();
  assertEquals(full.email, deal.request.email);
  assertEquals(full.phone, deal.request.phone);
  assertEquals(full.properties.adresse_precise, deal.request.adresse_precise);
  assertEquals(full.customer.email, customer.email);
  assertEquals(full.customer.name, customer.name);
  assertEquals(full.customer.siren, customer.siren);
  assertEquals(full.customer.address1, customer.address);
  assert(full.customer.zipcode && full.customer.city && full.customer.phone, "zipcode, city and phone");
  for (const flag of FLAGS) assertEquals(full.adminSettings[flag], false, `${flag} off by default`);
  const own = dealOf(await customer.client.get(`/api/customer/deal/get/${deal.token}`));
  assertEquals(revealed(own), revealed(full), "the customer reads their own details");
  // With every flag on then off again, the admin's view never changes.
  await setFlags(admin, deal.id, [...FLAGS]);
  assertEquals(revealed(dealOf(await admin.get(`/api/deal/get/${deal.id}`))), revealed(full));
  await setFlags(admin, deal.id, []);
  assertEquals(revealed(dealOf(await admin.get(`/api/deal/get/${deal.id}`))), revealed(full));
});

httpTest(
  "flags off: the partner's deal and list carry no customer email, phone, company, SIREN or address",
  async () => {
    const { partner, deal, secrets } = await setup();
    const res = await partner.get(`/api/deal/get/${deal.id}`);
    const seen = dealOf(res);
    assertEquals(seen.email, null);
    assertEquals(seen.phone, null);
    assertEquals(
      [seen.customer.email, seen.customer.phone, seen.customer.name, seen.customer.siren],
      [null, null, null, null],
    );
    assertEquals(
      [seen.customer.address1, seen.customer.address2, seen.customer.zipcode, seen.customer.city],
      [null, null, null, null],
    );
    assert(!("adresse_precise" in seen.properties), "no properties.adresse_precise");
    // Names are always shown.
    assertEquals(seen.firstname, deal.request.firstname);
    assertEquals(seen.lastname, deal.request.lastname);
    for (const secret of Object.values(secrets).flat()) {
      assert(!res.text.includes(secret), `the partner's deal does not contain ${secret}`);
    }
    const list = await partner.get("/api/deal/index");
    assertEquals(list.status, 200);
    for (const secret of Object.values(secrets).flat()) {
      assert(!list.text.includes(secret), `the partner's list does not contain ${secret}`);
    }
    // An admin impersonating the partner sees what the partner sees.
    const impersonator = new Client({ ip: freshIp() });
    await impersonator.login(ADMIN);
    assertEquals((await impersonator.request("POST", `/admin/switch/${deal.partnerId}`)).status, 303);
    const asPartner = await impersonator.get(`/api/deal/get/${deal.id}`);
    assertEquals(revealed(dealOf(asPartner)), revealed(seen));
    for (const secret of Object.values(secrets).flat()) {
      assert(!asPartner.text.includes(secret), `impersonation does not reveal ${secret}`);
    }
  },
);

httpTest(
  "each visibility flag, turned on by the admin, reveals exactly its details to the partner",
  async () => {
    const { admin, partner, deal, full, secrets } = await setup();
    const expected = revealed(full);
    for (const flag of FLAGS) {
      await setFlags(admin, deal.id, [flag]);
      const res = await partner.get(`/api/deal/get/${deal.id}`);
      const seen = revealed(dealOf(res));
      for (const other of FLAGS) {
        if (other === flag) {
          assertEquals(seen[other], expected[other], `${flag} on: its details appear`);
        } else {
          assert(seen[other].every((v) => v == null), `${flag} on: ${other}'s details stay hidden`);
          for (const secret of secrets[other]) {
            assert(
              !res.text.includes(secret),
              `${flag} on: ${secret} hidden`,
            );
          }
        }
      }
    }
    await setFlags(admin, deal.id, [...FLAGS]);
    assertEquals(revealed(dealOf(await partner.get(`/api/deal/get/${deal.id}`))), expected, "all flags on");
    // The other partner still reads nothing.
    const other = await loggedIn(PARTNER2);
    assertError(await other.get(`/api/deal/get/${deal.id}`), 404, MSG.notFound);
    await setFlags(admin, deal.id, []);
    const res = await partner.get(`/api/deal/get/${deal.id}`);
    for (const secret of Object.values(secrets).flat()) {
      assert(
        !res.text.includes(secret),
        `hidden again: ${secret}`,
      );
    }
  },
);

httpTest(
  "a partner may not rewrite the precise address it cannot see; with the flag on, its edit is saved",
  async () => {
    const { admin, partner, deal } = await setup();
    const hidden = await partner.patch(`/api/deal/${deal.id}`, {
      properties: { adresse_precise: "1 rue Pirate" },
    });
    assertError(hidden, 403, MSG.notAllowed);
    assertEquals(
      dealOf(await admin.get(`/api/deal/get/${deal.id}`)).properties.adresse_precise,
      deal.request.adresse_precise,
    );

    await setFlags(admin, deal.id, ["showServiceAddress"]);
    const moved = await partner.patch(`/api/deal/${deal.id}`, {
      properties: { adresse_precise: "2 place Bellecour" },
    });
    assertEquals(
      dealOf(moved).properties.adresse_precise,
      "2 place Bellecour",
      "the partner's answer shows its edit",
    );
    assertEquals(
      dealOf(await admin.get(`/api/deal/get/${deal.id}`)).properties.adresse_precise,
      "2 place Bellecour",
      "the partner's edit of the precise address is stored",
    );
  },
);

httpTest(
  "notifications: the partner is emailed on send-to-partner, the customer's contact on validation",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const customer = await registeredCustomer();
    const deal = await dealForPartner(admin, PARTNER, { client: customer.client, send: false });
    const contact = String(deal.request.email);
    const partnerEmails = async () =>
      (await emailsFor(PARTNER)).filter((m) => m.text_body.includes(`/espace-partenaire/deal/${deal.id}`));

    assertEquals((await partnerEmails()).length, 0);
    dealOf(await admin.post(`/api/deal/${deal.id}/send-to-partner`));
    assertEquals((await partnerEmails()).length, 0, "nothing is written before the queue drains");
    await drainNotifications();
    const [toPartner, ...more] = await partnerEmails();
    assertEquals(more.length, 0);
    assertEquals(toPartner.template, "deal-new-partner");
    assert(toPartner.subject.startsWith("Nouvelle demande de devis"), toPartner.subject);
    for (
      const secret of [
        contact,
        customer.email,
        String(deal.request.phone),
        String(deal.request.adresse_precise),
      ]
    ) {
      assert(!toPartner.text_body.includes(secret), `the partner's email does not carry ${secret}`);
    }
    assertEquals((await emailsFor(contact)).map((m) => m.template), ["deal-request-received"]);

    const validated = await partner.post(`/api/deal/${deal.id}/validate-availability`);
    assertEquals(dealOf(validated).status, "send");
    for (const secret of [contact, customer.email, String(deal.request.adresse_precise)]) {
      assert(!validated.text.includes(secret), `the partner's answer does not carry ${secret}`);
    }
    await drainNotifications();
    const ready = (await emailsFor(contact)).map((m) => m.template);
    assertEquals(ready, ["deal-request-received", "deal-quote-ready"], "the request's contact is told");
    const [quote] = (await emailsFor(contact)).slice(-1);
    assert(quote.text_body.includes(`/deal/show/${deal.token}`), "with the public link");
    assertEquals(
      (await emailsFor(customer.email)).filter((m) => m.template.startsWith("deal-quote")).length,
      0,
      "sent to the request's contact, not to the account's other address",
    );

    // Edited then revalidated: the contact is told the quote was updated.
    dealOf(
      await partner.patch(`/api/deal/${deal.id}`, { lines: [{ label: "Barman", qty: 2, unitCost: 200 }] }),
    );
    dealOf(await partner.post(`/api/deal/${deal.id}/validate-availability`));
    await drainNotifications();
    assertEquals((await emailsFor(contact)).map((m) => m.template).slice(-1), ["deal-quote-updated"]);
    assertEquals((await partnerEmails()).length, 1, "the partner is emailed once");

    // The partner cannot read the outbox where the customer's address is: the admin's page refuses it.
    const outbox = await partner.get("/dashboard/admin/emails");
    assertEquals(outbox.status, 403);
    assert(!outbox.text.includes(contact));
    const impersonator = new Client({ ip: freshIp() });
    await impersonator.login(ADMIN);
    await impersonator.request("POST", `/admin/switch/${await userIdOf(PARTNER)}`);
    assertEquals((await impersonator.get("/dashboard/admin/emails")).status, 403);
    assertEquals(body(await admin.get(`/api/deal/get/${deal.id}`)).results.status, "edited");
  },
);

httpTest(
  "a partner who moves its quote to 'send' through the status dialog gets the customer emailed too",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const deal = await dealForPartner(admin, PARTNER);
    const res = await partner.patch(`/api/deal/${deal.id}`, { status: "send" });
    assertEquals(dealOf(res).status, "send");
    assertEquals(body(res).message, "Statut mis à jour vers : Devis envoyé");
    await drainNotifications();
    assertEquals(
      (await emailsFor(String(deal.request.email))).map((m) => m.template),
      ["deal-request-received", "deal-quote-ready"],
      "the quote 'sent to the client' reaches the client",
    );
  },
);
