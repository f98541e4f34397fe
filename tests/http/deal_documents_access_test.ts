// What each viewer's documents contain and which ones they may download (issue "Quotes and payments,
// second pass" §3). A partner's quote and proformas follow the page's and the API's masking (one
// function decides: partner_deal_contact through lib/deals/store.ts contactFor): with
// showEmailForPartner / showAddressForPartner / showServiceAddress off, no PDF of either partner's
// deals prints the customer's email, postal address or the precise service address; a partner's copy of
// an issued invoice masks them too and carries no Factur-X XML (the original, with the buyer's address,
// is the platform's and the customer's). Proformas follow the page's rule (showProformaInvoice, nothing
// paid, the deposit's stages only when the quote offers one) for customers and partners alike; a
// customer downloads the quote only where the page shows it (not in start, new or pending).
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, ORIGIN, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { attachmentNames, pdfText } from "../../lib/billing/fixtures_test.ts";
import { DEAL_MESSAGES } from "../../lib/deals/rules.ts";
import {
  ADMIN,
  CUSTOMER,
  dealForPartner,
  dealOf,
  forceStatus,
  freshIp,
  loggedIn,
  PARTNER,
  PARTNER2,
  payDepositByCard,
  userIdOf,
} from "./deals_fixtures_test.ts";

const PROFORMA_NOT_AVAILABLE = "Cette facture proforma n'est pas disponible pour ce devis.";
/** client@example.fr's details (lib/seed/demo.ts). */
const CUSTOMER_SECRETS = ["client@example.fr", "27 rue Sainte-Catherine", "33000"];

async function get(
  client: Client,
  path: string,
): Promise<{ status: number; bytes: Uint8Array; text: string }> {
  // Refusals answer JSON (an API client's request); a browser's /quote/download/{id} gets the error page.
  const headers = new Headers({ accept: "application/json" });
  if (client.cookies.size) headers.set("cookie", [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
  const response = await (await testEnv()).app.request(`${ORIGIN}${path}`, { headers }, {
    remoteAddr: { transport: "tcp", hostname: client.options.ip ?? "127.0.0.1", port: 40000 },
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const pdf = response.headers.get("content-type") === "application/pdf";
  return {
    status: response.status,
    bytes,
    text: pdf ? await pdfText(bytes) : new TextDecoder().decode(bytes),
  };
}

async function pdf(
  client: Client,
  path: string,
  context: string,
): Promise<{ bytes: Uint8Array; text: string }> {
  const res = await get(client, path);
  assertEquals(res.status, 200, `${context}: ${res.text.slice(0, 300)}`);
  return res;
}

function assertRefused(res: { status: number; text: string }, message: string, context: string) {
  assertEquals(res.status, 404, `${context}: ${res.text.slice(0, 300)}`);
  assertEquals(JSON.parse(res.text).message, message, context);
}

const oneLine = (text: string) => text.replace(/\s+/g, " ");

/** A deal of `partnerEmail`, validated (send), linked to client@example.fr, proformas shown. */
async function linkedDeal(admin: Client, partner: Client, partnerEmail: string) {
  const deal = await dealForPartner(admin, partnerEmail);
  dealOf(await admin.patch(`/api/deal/${deal.id}`, { adminSettings: { showProformaInvoice: true } }));
  dealOf(await partner.post(`/api/deal/${deal.id}/validate-availability`));
  const { db } = await testEnv();
  await systemQuery(db, "update public.deals set customer_id = $1 where id = $2", [
    await userIdOf(CUSTOMER),
    deal.id,
  ]);
  // The customer's address as the demo data has it: on PostgreSQL the test files share one database,
  // and another one (admin_test's impersonation) edits this customer's profile.
  await systemQuery(
    db,
    "update public.users set address1 = '27 rue Sainte-Catherine', zipcode = '33000', city = 'Bordeaux' where email = $1",
    [CUSTOMER],
  );
  return deal;
}

function documentPaths(deal: { id: number; token: string }) {
  return [
    `/quote/download/${deal.id}`,
    `/quote/download/${deal.token}`,
    `/api/customer/deal/download/quote/${deal.token}`,
    `/api/customer/deal/download/proforma/${deal.token}/deposit`,
    `/api/customer/deal/download/proforma/${deal.token}/final`,
  ];
}

httpTest(
  "a partner's quote and proforma PDFs hide what the admin hides, on both partners' deals",
  async () => {
    const admin = await loggedIn(ADMIN);
    const customer = await loggedIn(CUSTOMER);
    for (const partnerEmail of [PARTNER, PARTNER2]) {
      const partner = await loggedIn(partnerEmail);
      const deal = await linkedDeal(admin, partner, partnerEmail);
      const service = String(deal.request.adresse_precise);
      const requestEmail = String(deal.request.email);
      const hidden = [...CUSTOMER_SECRETS, service, requestEmail];
      // The admin and the customer read the buyer's details on every document.
      for (const [who, client] of [["admin", admin], ["customer", customer]] as const) {
        for (const path of documentPaths(deal)) {
          const text = oneLine((await pdf(client, path, `${who} ${path}`)).text);
          assert(
            text.includes("client@example.fr") && text.includes("27 rue Sainte-Catherine"),
            `${who}: ${text}`,
          );
        }
      }
      // The way the partner worked: every document of its deal, flags off.
      for (const path of documentPaths(deal)) {
        const text = oneLine((await pdf(partner, path, `${partnerEmail} ${path}`)).text);
        for (const secret of hidden) {
          assert(
            !text.includes(secret),
            `${partnerEmail} ${path} shows ${secret}`,
          );
        }
        assert(text.includes("Camille Bernard"), `the buyer's name stays: ${text}`);
      }
      // Each flag reveals its details, as on the page.
      dealOf(await admin.patch(`/api/deal/${deal.id}`, { adminSettings: { showEmailForPartner: true } }));
      let text = oneLine((await pdf(partner, `/quote/download/${deal.id}`, "email on")).text);
      assert(text.includes("client@example.fr") && !text.includes("27 rue Sainte-Catherine"), text);
      dealOf(
        await admin.patch(`/api/deal/${deal.id}`, {
          adminSettings: { showEmailForPartner: false, showAddressForPartner: true },
        }),
      );
      text = oneLine((await pdf(partner, `/quote/download/${deal.id}`, "address on")).text);
      assert(!text.includes("client@example.fr") && text.includes("27 rue Sainte-Catherine"), text);
    }
  },
);

httpTest(
  "a visitor's request: the partner's quote hides the contact's email and the service address",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER2);
    const deal = await dealForPartner(admin, PARTNER2);
    dealOf(await partner.post(`/api/deal/${deal.id}/validate-availability`));
    const service = String(deal.request.adresse_precise);
    const email = String(deal.request.email);
    const adminText = oneLine((await pdf(admin, `/quote/download/${deal.id}`, "admin")).text);
    assert(adminText.includes(email) && adminText.includes(service), adminText);
    const text = oneLine((await pdf(partner, `/quote/download/${deal.id}`, "partner")).text);
    assert(!text.includes(email) && !text.includes(service), text);
    dealOf(await admin.patch(`/api/deal/${deal.id}`, { adminSettings: { showServiceAddress: true } }));
    const shown = oneLine((await pdf(partner, `/quote/download/${deal.id}`, "service on")).text);
    assert(shown.includes(service) && !shown.includes(email), shown);
  },
);

httpTest("a partner's copy of an issued invoice masks the buyer and carries no Factur-X XML", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const customer = await loggedIn(CUSTOMER);
  const deal = await linkedDeal(admin, partner, PARTNER);
  const payment = await payDepositByCard(customer, deal.token);
  const invoice = `/api/customer/deal/download/invoice/${deal.token}/deposit`;
  const original = await pdf(customer, invoice, "customer's invoice");
  const number = /N° (FA-\d{4}-[0-9A-F]{6}-\d{5})/.exec(original.text)?.[1];
  assert(number, original.text);
  assert(oneLine(original.text).includes("27 rue Sainte-Catherine"), "the original carries the address");
  assertEquals(await attachmentNames(original.bytes), ["factur-x.xml"]);
  assertEquals(await attachmentNames((await pdf(admin, invoice, "admin")).bytes), ["factur-x.xml"]);
  for (const path of [invoice, `/quote/invoice/${payment.id}`]) {
    const copy = await pdf(partner, path, `partner ${path}`);
    const text = oneLine(copy.text);
    for (const secret of CUSTOMER_SECRETS) assert(!text.includes(secret), `${path} shows ${secret}`);
    assert(text.includes(`N° ${number}`) && text.includes("Camille Bernard"), text);
    assert(text.includes("Copie du partenaire"), text);
    assertEquals(await attachmentNames(copy.bytes), [], "no Factur-X XML in the partner's copy");
  }
  // With the customer's email and address shown to the partner, it reads the original.
  dealOf(
    await admin.patch(`/api/deal/${deal.id}`, {
      adminSettings: { showEmailForPartner: true, showAddressForPartner: true },
    }),
  );
  const full = await pdf(partner, invoice, "flags on");
  assert(oneLine(full.text).includes("27 rue Sainte-Catherine"), full.text);
  assertEquals(await attachmentNames(full.bytes), ["factur-x.xml"]);
  // Paid: no proforma any more, for anyone but the admin.
  for (const client of [customer, partner]) {
    for (const stage of ["deposit", "final"]) {
      assertRefused(
        await get(client, `/api/customer/deal/download/proforma/${deal.token}/${stage}`),
        PROFORMA_NOT_AVAILABLE,
        `${stage} proforma after the deposit`,
      );
    }
  }
});

httpTest(
  "a customer downloads the quote only where the page shows it, proformas by the page's rule",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const customer = await loggedIn(CUSTOMER);
    const deal = await dealForPartner(admin, PARTNER);
    const { db } = await testEnv();
    await systemQuery(db, "update public.deals set customer_id = $1 where id = $2", [
      await userIdOf(CUSTOMER),
      deal.id,
    ]);
    const quotes = [`/quote/download/${deal.id}`, `/api/customer/deal/download/quote/${deal.token}`];
    const proforma = (stage: string) => `/api/customer/deal/download/proforma/${deal.token}/${stage}`;
    dealOf(await admin.patch(`/api/deal/${deal.id}`, { adminSettings: { showProformaInvoice: true } }));
    // 'new' and 'pending': the page says 'Devis non disponible', and so do the downloads.
    for (const status of ["new", "pending"]) {
      if (status === "pending") await forceStatus(admin, deal.id, "pending");
      for (const path of quotes) {
        assertRefused(await get(customer, path), DEAL_MESSAGES.unavailable, `${status} ${path}`);
        await pdf(partner, path, `the partner's quote in ${status}`);
      }
      assertRefused(
        await get(customer, proforma("deposit")),
        DEAL_MESSAGES.unavailable,
        `${status} proforma`,
      );
    }
    await forceStatus(admin, deal.id, "send");
    for (const path of quotes) await pdf(customer, path, `send ${path}`);
    // A quote with a deposit: the deposit and balance proformas, never the full one.
    await pdf(customer, proforma("deposit"), "deposit proforma");
    await pdf(customer, proforma("final"), "final proforma");
    assertRefused(
      await get(customer, proforma("full")),
      PROFORMA_NOT_AVAILABLE,
      "full proforma with a deposit",
    );
    // Without a deposit: the full proforma only.
    dealOf(await admin.patch(`/api/deal/${deal.id}`, { settings: { hasDeposit: false } }));
    for (const client of [customer, partner]) {
      assertRefused(await get(client, proforma("deposit")), PROFORMA_NOT_AVAILABLE, "no deposit proforma");
      assertRefused(await get(client, proforma("final")), PROFORMA_NOT_AVAILABLE, "no balance proforma");
      await pdf(client, proforma("full"), "full proforma");
    }
    // showProformaInvoice off: no proforma for the customer nor the partner (the admin still reads it).
    dealOf(await admin.patch(`/api/deal/${deal.id}`, { adminSettings: { showProformaInvoice: false } }));
    for (const client of [customer, partner]) {
      assertRefused(await get(client, proforma("full")), PROFORMA_NOT_AVAILABLE, "proforma not shown");
    }
    await pdf(admin, proforma("full"), "the admin's proforma");
    // An admin impersonating the customer is the customer.
    const impersonator = new Client({ ip: freshIp() });
    await impersonator.login(ADMIN);
    assertEquals(
      (await impersonator.request("POST", `/admin/switch/${await userIdOf(CUSTOMER)}`)).status,
      303,
    );
    assertRefused(await get(impersonator, proforma("full")), PROFORMA_NOT_AVAILABLE, "impersonated customer");
  },
);
