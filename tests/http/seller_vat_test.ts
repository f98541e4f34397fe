// A quote goes to the customer only when its invoices can carry the seller's VAT number (issue 11 §2,
// EN 16931 BT-31): a partner that charges VAT and has no valid VAT number in its profile cannot validate
// its availability, nor through the status dialog, nor can an admin validate or set 'Devis envoyé' on its
// behalf: 409 with a French message, nothing changed, nobody emailed. A VAT-exempt partner (its quote
// priced without VAT) sends its quote; a valid number unblocks it.
import { assertEquals } from "../support/assert.ts";
import { httpTest, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { SELLER_VAT_MESSAGES } from "../../lib/partners/rules.ts";
import {
  ADMIN,
  assertError,
  dealForPartner,
  dealOf,
  historyRows,
  loggedIn,
  PARTNER2,
  userIdOf,
} from "./deals_fixtures_test.ts";

interface TaxIdentity {
  vat_number: string | null;
  vat_exemption: boolean;
  siren: string | null;
}

/** Runs `body` with partenaire2's tax identity changed as the database allows it, then puts it back. */
async function withPartnerTax(change: Partial<TaxIdentity>, body: () => Promise<void>): Promise<void> {
  const { db } = await testEnv();
  const [saved] = await systemQuery<TaxIdentity>(
    db,
    "select vat_number, vat_exemption, siren from public.users where email = $1",
    [PARTNER2],
  );
  const set = async (t: TaxIdentity) =>
    await systemQuery(
      db,
      "update public.users set vat_number = $1, vat_exemption = $2, siren = $3 where email = $4",
      [t.vat_number, t.vat_exemption, t.siren, PARTNER2],
    );
  await set({ ...saved, ...change });
  try {
    await body();
  } finally {
    await set(saved);
  }
}

async function notifications(dealId: number): Promise<number> {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ n: number }>(
    db,
    "select count(*)::int as n from public.deal_notifications where deal_id = $1 and kind in ('quote_ready', 'quote_updated')",
    [dealId],
  );
  return Number(row.n);
}

async function statusOf(dealId: number): Promise<string> {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ status: string }>(db, "select status from public.deals where id = $1", [
    dealId,
  ]);
  return row.status;
}

/** Every way a quote is sent is refused with `partnerMessage` / `adminMessage`, and changes nothing. */
async function assertEveryWayRefused(partnerMessage: string, adminMessage: string) {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER2);
  const deal = await dealForPartner(admin, PARTNER2);
  const refused = [
    [
      "partner, 'Valider ma disponibilité'",
      await partner.post(`/api/deal/${deal.id}/validate-availability`),
      partnerMessage,
    ],
    [
      "partner, status dialog",
      await partner.patch(`/api/deal/${deal.id}`, { status: "send" }),
      partnerMessage,
    ],
    [
      "admin on the partner's behalf",
      await admin.post(`/api/deal/${deal.id}/validate-availability`),
      adminMessage,
    ],
    [
      "admin, status 'Devis envoyé'",
      await admin.patch(`/api/deal/${deal.id}`, { status: "send" }),
      adminMessage,
    ],
  ] as const;
  for (const [who, res, message] of refused) {
    const json = assertError(res, 409, message, who);
    assertEquals(json.errors?.vatNumber, message, who);
  }
  assertEquals(await statusOf(deal.id), "new", "nothing changed");
  assertEquals(await notifications(deal.id), 0, "the customer is not emailed");
  assertEquals((await historyRows(deal.id)).map((h) => h.to_status), ["start", "new"]);
  return deal;
}

httpTest(
  "a partner charging VAT without a VAT number cannot send its quote, nor an admin for it",
  async () => {
    await withPartnerTax({ vat_number: null, vat_exemption: false }, async () => {
      const deal = await assertEveryWayRefused(
        SELLER_VAT_MESSAGES.missing,
        SELLER_VAT_MESSAGES.missingForAdmin,
      );
      // Once the partner enters its number in 'Mon profil', the same validation goes through.
      const partner = await loggedIn(PARTNER2);
      const saved = await partner.patch("/api/user/update", { vatNumber: "FR05987654321" });
      assertEquals([saved.status, saved.json().vatNumber], [200, "FR05987654321"], saved.text);
      assertEquals(dealOf(await partner.post(`/api/deal/${deal.id}/validate-availability`)).status, "send");
      assertEquals(await notifications(deal.id), 1);
    });
  },
);

httpTest("a VAT number whose key does not match its SIREN does not send a quote either", async () => {
  // Stored before the key was checked (the table only checks the shape).
  await withPartnerTax({ vat_number: "FR12987654321", vat_exemption: false }, async () => {
    await assertEveryWayRefused(SELLER_VAT_MESSAGES.invalid, SELLER_VAT_MESSAGES.invalidForAdmin);
  });
});

httpTest("a VAT-exempt partner (art. 293 B) sends its quote without a VAT number", async () => {
  await withPartnerTax({ vat_number: null, vat_exemption: true }, async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER2);
    // Assigned while exempt: priced without VAT.
    const deal = await dealForPartner(admin, PARTNER2);
    const { db } = await testEnv();
    const [row] = await systemQuery<{ vat: number }>(
      db,
      "select (parameters->>'vat')::numeric as vat from public.deals where id = $1",
      [deal.id],
    );
    assertEquals(Number(row.vat), 0);
    assertEquals(dealOf(await partner.post(`/api/deal/${deal.id}/validate-availability`)).status, "send");
    // A deal of this partner priced with VAT (before the exemption) still needs the number.
    const other = await dealForPartner(admin, PARTNER2);
    await systemQuery(
      db,
      "update public.deals set parameters = parameters || '{\"vat\": 20}' where id = $1",
      [
        other.id,
      ],
    );
    assertError(
      await partner.post(`/api/deal/${other.id}/validate-availability`),
      409,
      SELLER_VAT_MESSAGES.missing,
    );
    assertEquals(await userIdOf(PARTNER2), deal.partnerId);
  });
});

/** partenaire2's open quotes (not refused, not fully paid) whose VAT is `withVat`. */
async function openQuotes(withVat: boolean): Promise<{ id: number; status: string }[]> {
  const { db } = await testEnv();
  const rows = await systemQuery<{ id: number; status: string }>(
    db,
    `select id, status from public.deals where company_id = (select id from public.users where email = $1)
       and status in ('start', 'new', 'pending', 'send', 'edited', 'accepted', 'pay_partial')
       and (coalesce(nullif(parameters->>'vat', '')::numeric, 20) > 0) = $2 order by id`,
    [PARTNER2, withVat],
  );
  return rows.map((r) => ({ id: Number(r.id), status: r.status }));
}

httpTest(
  "a partner cannot switch to VAT exemption while quotes priced with VAT are open (nor back while exempt ones are)",
  async () => {
    const { db } = await testEnv();
    await withPartnerTax({ vat_exemption: false }, async () => {
      const admin = await loggedIn(ADMIN);
      const partner = await loggedIn(PARTNER2);
      const deal = await dealForPartner(admin, PARTNER2); // priced with 20 % VAT, open
      const refused = await partner.patch("/api/user/update", { vatExemption: true, vatNumber: "" });
      assertEquals(refused.status, 409, refused.text);
      const message = refused.json().message as string;
      assertEquals(message.includes(`n° ${deal.id}`), true, message);
      assertEquals(message.startsWith("Vous ne pouvez pas passer en franchise de TVA"), true, message);
      const [row] = await systemQuery<{ exempt: boolean; vat: string | null }>(
        db,
        "select vat_exemption as exempt, vat_number as vat from public.users where email = $1",
        [PARTNER2],
      );
      assertEquals(row.exempt, false, "nothing changed");
      assertEquals(row.vat !== null, true, "the VAT number kept");
      // Nor can it remove its VAT number: the invoices of those quotes must carry it.
      const removed = await partner.patch("/api/user/update", { vatNumber: "" });
      assertEquals(removed.status, 409, removed.text);
      assertEquals(
        (removed.json().message as string).startsWith("Vous ne pouvez pas retirer"),
        true,
        removed.text,
      );
      // Once no quote priced with VAT is open (here: set aside, then put back), the switch goes through.
      const open = await openQuotes(true);
      await systemQuery(db, "update public.deals set status = 'refused' where id = any($1::bigint[])", [
        open.map((d) => d.id),
      ]);
      try {
        const switched = await partner.patch("/api/user/update", { vatExemption: true, vatNumber: "" });
        assertEquals([switched.status, switched.json().vatExemption], [200, true], switched.text);
        // Assigned now: priced without VAT; switching back to VAT is refused while it is open.
        const exemptDeal = await dealForPartner(admin, PARTNER2);
        const back = await partner.patch("/api/user/update", { vatExemption: false });
        assertEquals(back.status, 409, back.text);
        assertEquals((back.json().message as string).includes(`n° ${exemptDeal.id}`), true, back.text);
      } finally {
        for (const d of open) {
          await systemQuery(db, "update public.deals set status = $1 where id = $2", [d.status, d.id]);
        }
      }
    });
  },
);
