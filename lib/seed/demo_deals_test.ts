// The demo deals (lib/seed/demo_deals.ts) on a fresh embedded database: every status, both partners
// and customers and some visitors, locked deals, each visibility flag on and off, totals computed by the
// engine, payments consistent with the status, a history that walks the statuses, and a second seeding
// that adds nothing.
import { assert, assertEquals } from "../../tests/support/assert.ts";
import { openPglite } from "../db/pglite.ts";
import { migrate } from "../db/migrate.ts";
import type { Database } from "../db/database.ts";
import { statementAs, systemActor, transactionAs } from "../actor.ts";
import { seedDemoData } from "./demo.ts";
import {
  CUSTOMER_EMAILS,
  DEMO_CATALOGUES,
  DEMO_DEALS,
  DEMO_HUBSPOT_PREFIX,
  demoHubspotId,
  PARTNER_EMAILS,
  seedDemoDeals,
  SHAKER_PRICING,
} from "./demo_deals.ts";
import {
  type CommissionTier,
  computeTotals,
  DEFAULT_COMMISSION_TIERS,
  DEFAULT_PRICING,
  priceQuote,
  type PricingConfig,
  type RecipeType,
  validatePricing,
} from "../deals/pricing.ts";
import { percentOf, percentToBasisPoints } from "../money.ts";
import { DEAL_STATUSES, type DealStatus, findReason, REFUSED_STATUSES } from "../deals/rules.ts";
import { DEFAULT_DEVISEUR_SETTINGS } from "../deals/settings.ts";

const SEED = systemActor("seed");

interface Row {
  id: number;
  hubspotId: string;
  status: DealStatus;
  refusalReason: string | null;
  lines: { label: string; qty: number; unitCost: number; totalCost: number }[];
  settings: { hasDeposit?: boolean; depositPercentage?: number | null; cocktailListType?: string };
  adminSettings: Record<string, boolean>;
  choices: { cocktails: string[] };
  parameters: { vat: number; commissionRate: number };
  properties: Record<string, unknown>;
  calculations: { nbCocktails: number; officialStaffCount: number };
  totals: Record<string, number>;
  totalHt: number;
  serviceDate: string | null;
  guests: number;
  depositPaidAt: Date | null;
  depositAmount: number | null;
  paidAt: Date | null;
  totalAmountPaid: number | null;
  customerEmail: string | null;
  companyEmail: string | null;
  createdAt: Date;
}

const query = <T>(db: Database, text: string, params: unknown[] = []) =>
  statementAs<T>(db, SEED, text, params);

async function demoDeals(db: Database): Promise<Row[]> {
  return await query<Row>(
    db,
    `select d.id, d.hubspot_id as "hubspotId", d.status, d.refusal_reason as "refusalReason", d.lines, d.settings,
       d.admin_settings as "adminSettings", d.choices, d.parameters, d.properties, d.calculations, d.totals,
       d.total_ht as "totalHt", d.service_date as "serviceDate", d.guests, d.deposit_paid_at as "depositPaidAt",
       d.deposit_amount as "depositAmount", d.paid_at as "paidAt", d.total_amount_paid as "totalAmountPaid",
       cu.email as "customerEmail", co.email as "companyEmail", d.created_at as "createdAt"
     from public.deals d
     left join public.users cu on cu.id = d.customer_id
     left join public.users co on co.id = d.company_id
     where d.hubspot_id like '${DEMO_HUBSPOT_PREFIX}%' order by d.hubspot_id`,
  );
}

async function counts(db: Database): Promise<Record<string, number>> {
  const tables = [
    "deals",
    "deal_contacts",
    "deal_status_changes",
    "settings",
    "company_settings",
    "email_outbox",
  ];
  const [payments] = await query<{ exists: boolean }>(
    db,
    "select to_regclass('public.deal_payments') is not null as exists",
  );
  if (payments.exists) tables.push("deal_payments");
  const result: Record<string, number> = {};
  for (const table of tables) {
    const [row] = await query<{ n: number }>(db, `select count(*)::int as n from public.${table}`);
    result[table] = row.n;
  }
  return result;
}

let shared: Promise<Database> | null = null;
/** One database for the file: migrated and seeded once (the accounts' password hashing is slow). */
function seeded(): Promise<Database> {
  shared ??= (async () => {
    const db = await openPglite("memory://");
    await migrate(db);
    const started = performance.now();
    await seedDemoData(db);
    console.log(`seedDemoData (comptes compris) : ${Math.round(performance.now() - started)} ms`);
    return db;
  })();
  return shared;
}

const test = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name, fn, sanitizeOps: false, sanitizeResources: false });

test("every status is present, over both partners, both customers and visitors", async () => {
  const deals = await demoDeals(await seeded());
  assertEquals(deals.length, DEMO_DEALS.length);
  const statuses = new Set(deals.map((d) => d.status));
  for (const status of DEAL_STATUSES) assert(statuses.has(status), `no demo deal in status ${status}`);
  for (const email of Object.values(PARTNER_EMAILS)) {
    const own = deals.filter((d) => d.companyEmail === email);
    assert(own.length >= 8, `${email}: ${own.length} deals`);
    // Spread: each partner has deals waiting, sent, accepted, paid and refused.
    for (
      const stage of [["new", "pending"], ["send", "edited"], ["accepted"], [
        "pay_partial",
        "pay_total",
        "win",
      ]]
    ) {
      assert(own.some((d) => stage.includes(d.status)), `${email} has no deal in ${stage.join("/")}`);
    }
    assert(own.some((d) => REFUSED_STATUSES.includes(d.status)), `${email} has no refused deal`);
  }
  for (const email of Object.values(CUSTOMER_EMAILS)) {
    assert(deals.filter((d) => d.customerEmail === email).length >= 5, `${email} has few deals`);
  }
  assert(deals.filter((d) => d.customerEmail === null).length >= 3, "few anonymous-contact deals");
  // 'start' deals only wait for the admin: with or without a partner chosen.
  assert(deals.some((d) => d.status === "start" && d.companyEmail === null));
});

test("each partner has a deal with edits locked, and each visibility flag is on and off", async () => {
  const deals = await demoDeals(await seeded());
  for (const email of Object.values(PARTNER_EMAILS)) {
    const locked = deals.filter((d) =>
      d.companyEmail === email && d.adminSettings.disableQuoteEdits === true
    );
    assert(locked.length >= 1, `${email} has no locked deal`);
  }
  // Accepting locks the edits (spec 001 §4): every accepted or paid deal is locked.
  for (const d of deals.filter((d) => ["accepted", "pay_partial", "pay_total", "win"].includes(d.status))) {
    assertEquals(d.adminSettings.disableQuoteEdits, true, `deal ${d.hubspotId}`);
  }
  assert(deals.some((d) => d.status === "send" && d.adminSettings.disableQuoteEdits === true));
  for (
    const flag of [
      "showEmailForPartner",
      "showPhoneForPartner",
      "showAddressForPartner",
      "showServiceAddress",
    ]
  ) {
    const assigned = deals.filter((d) => d.companyEmail !== null);
    assert(assigned.some((d) => d.adminSettings[flag] === true), `${flag} never on`);
    assert(assigned.some((d) => d.adminSettings[flag] !== true), `${flag} never off`);
  }
});

test("every demo deal is priced by the engine: lines from the partner's grid, totals from computeTotals", async () => {
  const db = await seeded();
  const deals = await demoDeals(db);
  const [tiers] = await query<{ value: CommissionTier[] }>(
    db,
    "select value from public.settings where key = 'deviseur_fixed_commission_tiers'",
  );
  for (const deal of deals) {
    const totals = computeTotals(deal.lines, deal.parameters, {
      guests: deal.guests,
      nbCocktails: deal.calculations.nbCocktails,
      commissionTiers: tiers.value,
    });
    assertEquals(deal.totals, { ...totals }, `totals of ${deal.hubspotId}`);
    assertEquals(deal.totalHt, totals.totalInvoiceByPartner, `total_ht of ${deal.hubspotId}`);
    for (const line of deal.lines) assertEquals(line.totalCost, line.qty * line.unitCost);
    assertEquals(deal.parameters, { vat: 20, commissionRate: 15 });

    const grid: PricingConfig = deal.companyEmail === PARTNER_EMAILS.shaker
      ? SHAKER_PRICING
      : DEFAULT_PRICING;
    const p = deal.properties;
    const quote = priceQuote(grid, {
      guests: Number(p.nombre_de_participants),
      durationMinutes: Number(p.duree_2_service),
      recipeType: p.type_de_recette as RecipeType,
      customRecipe: p.creation_de_recette === "true",
      mobileBar: p.bar_mobile___table_a_dispo === "true",
      distanceKm: Number(p.distance_en_km),
    });
    assertEquals(deal.lines.slice(0, quote.lines.length), quote.lines, `lines of ${deal.hubspotId}`);
    assertEquals(deal.calculations, { nbCocktails: quote.nbCocktails, officialStaffCount: quote.staff });
  }
});

test("payments match the status: deposit = total TTC × percentage, full payments = total TTC", async () => {
  const deals = await demoDeals(await seeded());
  for (const d of deals) {
    const ttc = d.totals.totalTTC;
    const percentage = d.settings.depositPercentage ?? 35;
    const deposit = percentOf(ttc, percentToBasisPoints(percentage));
    const label = `deal ${d.hubspotId} (${d.status})`;
    if (d.status === "pay_partial") {
      assert(d.depositPaidAt && !d.paidAt, label);
      assertEquals(d.depositAmount, deposit, label);
      assertEquals(d.totalAmountPaid, null, label);
    } else if (d.status === "pay_total" || d.status === "win") {
      assert(d.paidAt, label);
      assertEquals(d.totalAmountPaid, ttc, label);
      if (d.depositPaidAt) {
        assertEquals(d.depositAmount, deposit, label);
        assert(d.depositPaidAt < d.paidAt!, label);
      } else {
        assertEquals(d.depositAmount, null, label);
        assertEquals(d.settings.hasDeposit, false, label);
      }
    } else {
      assertEquals(
        [d.depositPaidAt, d.depositAmount, d.paidAt, d.totalAmountPaid],
        [null, null, null, null],
        label,
      );
    }
    for (const at of [d.depositPaidAt, d.paidAt]) if (at) assert(at > d.createdAt && at <= new Date(), label);
  }
  // With the payments capability installed, each payment is recorded as a row too.
  const db = await seeded();
  const [{ exists }] = await query<{ exists: boolean }>(
    db,
    "select to_regclass('public.deal_payments') is not null as exists",
  );
  if (exists) {
    const sums = await query<{ dealId: number; total: number }>(
      db,
      `select deal_id as "dealId", sum(amount)::int as total from public.deal_payments group by deal_id`,
    );
    for (const d of deals) {
      const paid = d.totalAmountPaid ?? d.depositAmount ?? 0;
      assertEquals(sums.find((s) => s.dealId === d.id)?.total ?? 0, paid, `payments of ${d.hubspotId}`);
    }
  }
  // Both ways of paying are shown: deposit then balance, and everything at once.
  assert(deals.some((d) => d.status === "pay_total" && d.depositPaidAt));
  assert(deals.some((d) => d.status === "pay_total" && !d.depositPaidAt));
});

test("refusals carry a known reason; dates are ahead or 'à confirmer'; choices come from the catalogue", async () => {
  const deals = await demoDeals(await seeded());
  const today = new Date().toISOString().slice(0, 10);
  for (const d of deals) {
    if (REFUSED_STATUSES.includes(d.status)) {
      assert(d.refusalReason && findReason(d.refusalReason), d.hubspotId);
    } else assertEquals(d.refusalReason, null, d.hubspotId);
    if (d.serviceDate !== null) assert(d.serviceDate > today, `${d.hubspotId}: ${d.serviceDate}`);
    assertEquals(d.properties.deal_prestation_date, d.serviceDate ?? "");
    const partner = d.companyEmail === PARTNER_EMAILS.shaker ? "shaker" : "mixologie";
    const type = d.settings.cocktailListType as "signature" | "classic" | "mocktail" | "creation";
    for (const id of d.choices.cocktails) {
      const offered = type === "creation"
        ? (d.settings as { customCocktails: { id: string }[] }).customCocktails
        : DEMO_CATALOGUES[partner][type];
      assert(offered.some((c) => c.id === id), `${d.hubspotId}: ${id}`);
    }
  }
  assert(deals.some((d) => d.serviceDate === null), "no deal with 'Date à confirmer'");
  assert(deals.some((d) => d.settings.cocktailListType === "creation"));
  assert(deals.some((d) => d.settings.cocktailListType === "mocktail"));
});

test("each deal's history walks from 'start' to its status, dated and attributed", async () => {
  const db = await seeded();
  const deals = await demoDeals(db);
  const history = await query<
    {
      dealId: number;
      from: string | null;
      to: string;
      action: string;
      role: string;
      actor: string | null;
      at: Date;
    }
  >(
    db,
    `select deal_id as "dealId", from_status as from, to_status as to, action, actor_role as role,
       actor_id as actor, created_at as at
     from public.deal_status_changes order by deal_id, created_at, id`,
  );
  for (const d of deals) {
    const rows = history.filter((h) => h.dealId === d.id);
    assertEquals(rows[0].from, null, d.hubspotId);
    assertEquals(rows[0].to, "start", d.hubspotId);
    assertEquals(rows[0].action, "request", d.hubspotId);
    assertEquals(rows[rows.length - 1].to, d.status, d.hubspotId);
    rows.slice(1).forEach((row, i) => {
      assertEquals(row.from, rows[i].to, `${d.hubspotId} step ${i + 1}`);
      assert(row.at > rows[i].at, `${d.hubspotId} step ${i + 1} is later`);
      assert(row.actor !== null && ["Admin", "Company", "Customer"].includes(row.role), d.hubspotId);
    });
    const moves = rows.map((r) => `${r.to}:${r.role}`);
    if (d.status !== "start") assertEquals(moves[1], "new:Admin", `${d.hubspotId}: ${moves.join(" ")}`);
    for (const row of rows.filter((r) => r.to === "send" || r.to === "edited" || r.to === "pending")) {
      assertEquals(row.role, "Company", `${d.hubspotId}: the partner validates and edits`);
    }
    if (d.status === "refused_partner") assertEquals(rows[rows.length - 1].role, "Company");
  }
});

test("catalogues, Shaker & Co's grid and the engine's settings are stored", async () => {
  const db = await seeded();
  const settings = await query<{ key: string; value: unknown }>(
    db,
    "select key, value from public.settings where key like 'deviseur_%' order by key",
  );
  assertEquals(settings, [
    { key: "deviseur_fixed_commission_tiers", value: DEFAULT_COMMISSION_TIERS },
    { key: "deviseur_pricing", value: DEFAULT_PRICING },
    { key: "deviseur_settings", value: DEFAULT_DEVISEUR_SETTINGS },
  ]);
  const records = await query<{ email: string; name: string; value: Record<string, unknown> }>(
    db,
    `select u.email, s.name, s.value from public.company_settings s join public.users u on u.id = s.user_id
     order by u.email, s.name`,
  );
  assertEquals(records.map((r) => `${r.email} ${r.name}`), [
    "partenaire2@example.fr cocktails",
    "partenaire@example.fr cocktails",
    "partenaire@example.fr deviseur_pricing",
  ]);
  for (const record of records.filter((r) => r.name === "cocktails")) {
    for (const list of ["signature", "classic", "mocktail"]) {
      const items = record.value[list] as { id: string; name: string; description: string; photo: string }[];
      assert(items.length >= 3, `${record.email} ${list}`);
      for (const item of items) {
        assertEquals(Object.keys(item).sort(), ["description", "id", "name", "photo"]);
        assertEquals(item.photo, "");
        assert(/^[A-Za-z0-9_-]{1,64}$/.test(item.id) && item.name && item.description);
      }
    }
  }
  const grid = records.find((r) => r.name === "deviseur_pricing")!.value as unknown as PricingConfig;
  assertEquals(validatePricing(grid), null);
  assertEquals(grid, SHAKER_PRICING);
});

test("seeding again adds nothing (the first seeding's time is printed)", async () => {
  const db = await seeded();
  const before = await counts(db);
  await seedDemoData(db);
  assertEquals(await counts(db), before);
  assertEquals(await transactionAs(db, SEED, (tx) => seedDemoDeals(tx)), 0);
  assertEquals(before.email_outbox, 0, "seeding sends no email");

  assertEquals(
    (await demoDeals(db)).map((d) => d.hubspotId),
    DEMO_DEALS.map((d) => demoHubspotId(d.n)).sort(),
  );
});
