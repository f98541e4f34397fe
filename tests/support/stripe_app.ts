// The app configured with Stripe (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET and
// STRIPE_API_URL pointing at a local fake, tests/support/fake_stripe.ts) and deps.payments from
// lib/payments/open.ts, as main.ts builds it; on the shared test database (tests/support/app.ts) or on
// another one (a PGlite folder, a fresh PostgreSQL database), plus what the payments tests need around
// it: a deal ready to pay, signed webhook deliveries to the app's mount, the queues, the state.
import { ORIGIN, PASSWORD, testEnv } from "./app.ts";
import { Client } from "./app.ts";
import { systemQuery } from "./db.ts";
import type { FakeStripe } from "./fake_stripe.ts";
import { assert, assertEquals } from "./assert.ts";
import { type Config, loadConfig } from "../../lib/config.ts";
import type { Database } from "../../lib/db/database.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { seedDemoData } from "../../lib/seed/demo.ts";
import { createLogger } from "../../lib/log/logger.ts";
import { createBackground, type Deps } from "../../lib/deps.ts";
import { memoryStorage } from "../../lib/storage/storage.ts";
import { openPaymentProvider } from "../../lib/payments/open.ts";
import { createApp } from "../../routes/_app.tsx";
import { billingQueue } from "../../lib/billing/queue.ts";
import { refundsQueue } from "../../lib/payments/queues.ts";
import type { Hono } from "hono";
import type { AppEnv } from "../../lib/http/context.ts";

export const ADMIN = "admin@example.fr";
export const PARTNER = "partenaire@example.fr";
export const PARTNER2 = "partenaire2@example.fr";
export const CUSTOMER = "client@example.fr";
export const CUSTOMER2 = "client2@example.fr";

// deno-lint-ignore no-explicit-any
export type Json = Record<string, any>;

export interface StripeEnv {
  db: Database;
  deps: Deps;
  app: Hono<AppEnv>;
  config: Config;
  fake: FakeStripe;
  settle(): Promise<void>;
}

/** The configuration of a deployment with Stripe keys, its API at the fake. */
export function stripeConfig(fake: FakeStripe, extra: Record<string, string> = {}): Config {
  const env: Record<string, string> = {
    APP_ENV: "test",
    APP_URL: ORIGIN,
    STRIPE_SECRET_KEY: fake.secretKey,
    STRIPE_PUBLISHABLE_KEY: fake.publishableKey,
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_API_URL: fake.url,
    ...extra,
  };
  return loadConfig((name) => env[name]);
}

/** An app with Stripe on `db` (already migrated and seeded). */
export async function stripeApp(db: Database, fake: FakeStripe): Promise<StripeEnv> {
  const config = stripeConfig(fake);
  const logger = createLogger(db, { quiet: true });
  const deps: Deps = {
    config,
    db,
    logger,
    background: createBackground(logger, { manual: true }),
    storage: memoryStorage(),
    payments: openPaymentProvider(config, db),
  };
  assertEquals(deps.payments?.name, "stripe", "the provider is Stripe when a secret key is configured");
  const app = await createApp(deps);
  return { db, deps, app, config, fake, settle: () => deps.background.settle() };
}

/** The app with Stripe on the shared test database of this process (PGlite in memory, or
 * TEST_DATABASE_URL): the default app (simulated provider) and this one see the same data. */
export async function sharedStripeApp(fake: FakeStripe): Promise<StripeEnv> {
  const { db } = await testEnv();
  return await stripeApp(db, fake);
}

/** `db` with a count of the statements and transactions run through this very object: shows which
 * connection served a request (after a restart, the new one and not the closed one). */
export function trackedDatabase(db: Database): Database & { readonly uses: number } {
  let uses = 0;
  return {
    kind: db.kind,
    get uses() {
      return uses;
    },
    transaction(claims, fn) {
      uses++;
      return db.transaction(claims, fn);
    },
    statement(claims, text, params, options) {
      uses++;
      return db.statement(claims, text, params, options);
    },
    execScript(script, guard) {
      uses++;
      return db.execScript(script, guard);
    },
    listen: (channel, onMessage, onListening) => db.listen(channel, onMessage, onListening),
    close: () => db.close(),
  };
}

/** Migrates and seeds a database opened for a test (a PGlite folder, a fresh PostgreSQL database). */
export async function prepareDatabase(db: Database): Promise<void> {
  await migrate(db);
  await seedDemoData(db);
}

// ---------------------------------------------------------------------------------------------------
// Clients.

// Started at random: each test module has its own copy, and the modules of the PostgreSQL step share one
// database (and so the per-address limits).
let ipCounter = Math.floor(Math.random() * 600_000);
function freshIp(): string {
  ipCounter++;
  return `10.${120 + ((ipCounter >> 16) % 8)}.${(ipCounter >> 8) & 255}.${(ipCounter & 255) || 1}`;
}

export function clientOf(env: { app: Hono<AppEnv> }): Client {
  return new Client({ app: env.app, ip: freshIp() });
}

export async function loggedInto(env: { app: Hono<AppEnv> }, email: string): Promise<Client> {
  const client = clientOf(env);
  await client.login(email, PASSWORD);
  return client;
}

export async function userId(db: Database, email: string): Promise<string> {
  const [row] = await systemQuery<{ id: string }>(db, "select id from public.users where email = $1", [
    email,
  ]);
  assert(row, `no user ${email}`);
  return row.id;
}

// ---------------------------------------------------------------------------------------------------
// A deal ready to pay: the public request, the admin assigns a partner and sends it, the partner's
// catalogue and 'Valider ma disponibilité' (status send), the customer linked by a direct update of
// deals.customer_id.

let uniqueCounter = 0;
function unique(prefix: string): string {
  uniqueCounter++;
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}${uniqueCounter}`;
}

function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

let phoneCounter = 0;
function uniqueMobile(): string {
  phoneCounter++;
  const n = `${(Date.now() % 100_000) * 100 + (phoneCounter % 100)}`.padStart(7, "0").slice(-7);
  return `+3368${n}`;
}

export const SIGNATURE_CATALOGUE = {
  signature: [
    { id: "mojito-maison", name: "Mojito maison", description: "Rhum, menthe fraîche, citron vert" },
    { id: "spritz-royal", name: "Spritz royal", description: "Apérol, prosecco, orange" },
  ],
  classic: [],
  mocktail: [],
};

export interface Parties {
  admin: Client;
  partner: Client;
  customer: Client;
  customerId: string;
  partnerId: string;
}

/** The admin, the partner and the customer signed in to `env`'s app (one login each, reused). */
export async function partiesOf(
  env: { app: Hono<AppEnv>; db: Database },
  customerEmail = CUSTOMER,
): Promise<Parties> {
  const [admin, partner, customer] = await Promise.all([
    loggedInto(env, ADMIN),
    loggedInto(env, PARTNER),
    loggedInto(env, customerEmail),
  ]);
  return {
    admin,
    partner,
    customer,
    customerId: await userId(env.db, customerEmail),
    partnerId: await userId(env.db, PARTNER),
  };
}

export interface ReadyDeal {
  id: number;
  token: string;
  /** Total TTC of the quote, cents (deals.totals.totalTTC). */
  totalTTC: number;
  settings: Json;
}

function ok(res: { status: number; text: string }, what: string): Json {
  assertEquals(res.status, 200, `${what}: ${res.status} ${res.text.slice(0, 400)}`);
  return JSON.parse(res.text);
}

/** A deal in 'send', assigned to PARTNER, linked to `customerId`. `settings`: the partner's deposit
 * settings before it validates (hasDeposit, depositPercentage — null for the 35 % fallback; default: a
 * deposit offered). */
export async function dealReadyToPay(
  env: { app: Hono<AppEnv>; db: Database },
  parties: Parties,
  options: { settings?: Json; customerId?: string } = {},
): Promise<ReadyDeal> {
  const visitor = clientOf(env);
  const requested = ok(
    await visitor.post("/api/deal/request", {
      type_d_evenement: "Anniversaire",
      deal_prestation_date: inDays(60),
      horaire_souhaite: "19:00",
      nombre_de_participants: 40,
      duree_2_service: 180,
      ville: "Lyon",
      adresse_precise: `${Math.floor(Math.random() * 90) + 1} avenue ${unique("Paiement")}`,
      distance_en_km: 12,
      bar_mobile: false,
      type_de_recette: "signature",
      creation_de_recette: false,
      description: "Soirée d'anniversaire payée par carte",
      firstname: "Jeanne",
      lastname: unique("Payeuse"),
      email: `${unique("payeuse")}@example.fr`.toLowerCase(),
      phone: uniqueMobile(),
      consent: true,
    }),
    "quote request",
  );
  const token = String(requested.results.token);
  const [row] = await systemQuery<{ id: number }>(env.db, "select id from public.deals where token = $1", [
    token,
  ]);
  assert(row, "the deal was created");
  const id = Number(row.id);

  const catalogue = ok(
    await parties.admin.get(`/api/company/settings/cocktails/${parties.partnerId}`),
    "catalogue",
  );
  const current = catalogue.results?.value;
  if (!(Array.isArray(current?.signature) && current.signature.length > 0)) {
    ok(
      await parties.admin.patch(`/api/company/settings/cocktails/${parties.partnerId}`, {
        value: SIGNATURE_CATALOGUE,
      }),
      "catalogue written",
    );
  }
  ok(await parties.admin.patch(`/api/deal/${id}`, { company: parties.partnerId }), "partner assigned");
  ok(await parties.admin.post(`/api/deal/${id}/send-to-partner`), "sent to the partner");
  // New deals offer no deposit (spec 001 §3); unless told otherwise the partner turns it on.
  const settings = options.settings ?? { hasDeposit: true };
  ok(await parties.partner.patch(`/api/deal/${id}`, { settings }), "deposit settings");
  const validated = ok(await parties.partner.post(`/api/deal/${id}/validate-availability`), "availability");
  assertEquals(validated.results.status, "send");
  await systemQuery(env.db, "update public.deals set customer_id = $2 where id = $1", [
    id,
    options.customerId ?? parties.customerId,
  ]);
  const [deal] = await systemQuery<{ totals: Json; settings: Json }>(
    env.db,
    "select totals, settings from public.deals where id = $1",
    [id],
  );
  const totalTTC = Number(deal.totals.totalTTC);
  assert(Number.isInteger(totalTTC) && totalTTC > 0, `a total in cents: ${deal.totals.totalTTC}`);
  return { id, token, totalTTC, settings: deal.settings };
}

// ---------------------------------------------------------------------------------------------------
// Webhooks, queues and state.

/** A Stripe webhook delivery POSTed to the app's mount /api/webhooks/stripe (as Stripe's servers send
 * it: no cookie, no Origin). */
export async function deliverToApp(
  env: { app: Hono<AppEnv> },
  request: Request,
): Promise<{ status: number; body: Json }> {
  const url = new URL(request.url);
  assertEquals(url.pathname, "/api/webhooks/stripe");
  const response = await env.app.request(request, undefined, {
    remoteAddr: { transport: "tcp", hostname: "54.187.174.169", port: 443 },
  });
  const text = await response.text();
  let body: Json = {};
  try {
    body = JSON.parse(text);
  } catch {
    body = { text };
  }
  return { status: response.status, body };
}

/** Drains the billing queue until it has nothing left to issue. */
export async function drainBilling(deps: Deps): Promise<number> {
  let total = 0;
  for (let i = 0; i < 50; i++) {
    const issued = await billingQueue.drain(deps);
    total += issued;
    if (issued === 0) return total;
  }
  throw new Error("the billing queue never ran dry");
}

/** Drains the refunds queue (what is due now). */
export async function drainRefunds(deps: Deps): Promise<number> {
  return await refundsQueue.drain(deps);
}

export interface PaymentRow {
  id: string;
  kind: string;
  amount: number;
  method: string;
  provider: string | null;
  providerPaymentId: string | null;
  refundedAmount: number;
}

export async function paymentsOf(db: Database, dealId: number): Promise<PaymentRow[]> {
  return await systemQuery<PaymentRow>(
    db,
    `select id, kind, amount, method, provider, provider_payment_id as "providerPaymentId",
       refunded_amount as "refundedAmount"
     from public.deal_payments where deal_id = $1 order by paid_at, created_at`,
    [dealId],
  );
}

export async function paymentsOfIntent(db: Database, intentId: string): Promise<PaymentRow[]> {
  return await systemQuery<PaymentRow>(
    db,
    `select id, kind, amount, method, provider, provider_payment_id as "providerPaymentId",
       refunded_amount as "refundedAmount"
     from public.deal_payments where provider_payment_id = $1`,
    [intentId],
  );
}

export interface DealState {
  status: string;
  depositPaidAt: Date | null;
  depositAmount: number | null;
  paidAt: Date | null;
  totalAmountPaid: number | null;
}

export async function dealState(db: Database, dealId: number): Promise<DealState> {
  const [row] = await systemQuery<DealState>(
    db,
    `select status, deposit_paid_at as "depositPaidAt", deposit_amount as "depositAmount", paid_at as "paidAt",
       total_amount_paid as "totalAmountPaid" from public.deals where id = $1`,
    [dealId],
  );
  assert(row, `no deal ${dealId}`);
  return row;
}

export interface InvoiceRow {
  id: string;
  series: string;
  kind: string;
  number: string;
  paymentId: string | null;
  refundId: string | null;
  relatedInvoiceId: string | null;
  totalTTC: number;
  document: Json;
}

export async function invoicesOf(db: Database, dealId: number): Promise<InvoiceRow[]> {
  return await systemQuery<InvoiceRow>(
    db,
    `select id, series, kind, number, payment_id as "paymentId", refund_id as "refundId",
       related_invoice_id as "relatedInvoiceId", total_ttc as "totalTTC", document
     from public.invoices where deal_id = $1 order by issued_at, series`,
    [dealId],
  );
}

export interface RefundRow {
  id: string;
  paymentId: string;
  amount: number;
  status: string;
  providerRefundId: string | null;
  reason: string;
}

export async function refundsOfPayment(db: Database, paymentId: string): Promise<RefundRow[]> {
  return await systemQuery<RefundRow>(
    db,
    `select id, payment_id as "paymentId", amount, status, provider_refund_id as "providerRefundId", reason
     from public.refunds where payment_id = $1 order by created_at`,
    [paymentId],
  );
}

/** What a document settles: its total TTC plus its rounding amount (EN 16931 BT-114, one cent at most,
 * when no HT amount gives exactly the amount paid once its VAT is rounded). */
export function settledBy(invoice: { totalTTC: number; document: Json }): number {
  const rounding = Number(invoice.document.rounding ?? 0);
  assert(Math.abs(rounding) <= 1, `a rounding of one cent at most: ${rounding}`);
  assertEquals(invoice.document.totalTTC, invoice.totalTTC, "invoices.total_ttc is the document's");
  return invoice.totalTTC + rounding;
}

/** Exactly one payment for the intent, and (after the billing queue drains) exactly one customer
 * invoice (FA) and one commission invoice (CO) for it. Returns the payment. */
export async function assertRecordedOnce(
  env: { db: Database; deps: Deps },
  dealId: number,
  intentId: string,
  expected: { kind: string; amount: number },
): Promise<PaymentRow> {
  const rows = await paymentsOfIntent(env.db, intentId);
  assertEquals(rows.length, 1, `exactly one payment row for ${intentId}, got ${rows.length}`);
  const [payment] = rows;
  assertEquals(
    { kind: payment.kind, amount: payment.amount, method: payment.method, provider: payment.provider },
    { kind: expected.kind, amount: expected.amount, method: "card", provider: "stripe" },
  );
  await drainBilling(env.deps);
  await drainBilling(env.deps);
  const invoices = (await invoicesOf(env.db, dealId)).filter((i) => i.paymentId === payment.id);
  assertEquals(
    invoices.map((i) => i.series).sort(),
    ["CO", "FA"],
    `one customer invoice and one commission invoice for the payment, got ${invoices.map((i) => i.number)}`,
  );
  const fa = invoices.find((i) => i.series === "FA")!;
  assertEquals(
    fa.kind,
    expected.kind === "deposit" ? "deposit" : expected.kind === "balance" ? "final" : "full",
  );
  if (fa.kind === "deposit") {
    assertEquals(settledBy(fa), expected.amount, "the deposit invoice is for the amount paid");
  } else {
    // A final invoice shows the whole quote and deducts the deposit invoice; a full one the whole quote.
    assertEquals(fa.document.amountPaid, expected.amount, "the invoice says what was paid");
  }
  return payment;
}

/** The deal moved as a payment of `kind` moves it: status, dates and amounts in cents. */
export async function assertDealPaid(
  db: Database,
  dealId: number,
  expected: { status: string; depositAmount: number | null; totalAmountPaid: number | null },
): Promise<DealState> {
  const state = await dealState(db, dealId);
  assertEquals(
    { status: state.status, depositAmount: state.depositAmount, totalAmountPaid: state.totalAmountPaid },
    expected,
    `deal ${dealId} state`,
  );
  if (expected.depositAmount !== null) {
    assert(state.depositPaidAt instanceof Date, "depositPaidAt is set");
    assert(Math.abs(state.depositPaidAt.getTime() - Date.now()) < 10 * 60_000, "depositPaidAt is now");
  } else {
    assertEquals(state.depositPaidAt, null, "no depositPaidAt");
  }
  if (expected.totalAmountPaid !== null) {
    assert(state.paidAt instanceof Date, "paidAt is set");
    assert(Math.abs(state.paidAt.getTime() - Date.now()) < 10 * 60_000, "paidAt is now");
  } else {
    assertEquals(state.paidAt, null, "no paidAt");
  }
  return state;
}
