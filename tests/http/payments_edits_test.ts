// Money against edits of the quote (found by an outside review of "Quotes and payments, second pass"):
// a payment that lands after the quote was edited back to 'pending', a total lowered below the money
// held, a deposit of the whole quote. The rule: a deal never keeps more than it owes, and its status,
// depositPaidAt, paidAt and totalAmountPaid always agree.
import { assert, assertEquals } from "../support/assert.ts";
import { type Client, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import {
  ADMIN,
  assertError,
  body,
  CUSTOMER,
  CUSTOMER2,
  forceStatus,
  loggedIn,
  PARTNER,
  PARTNER2,
  payDepositByCard,
  sentDealForCustomer,
  userIdOf,
} from "./deals_fixtures_test.ts";
import { DEAL_MESSAGES } from "../../lib/deals/rules.ts";
import { PAYMENT_MESSAGES } from "../../lib/payments/rules.ts";
import { formatEuros } from "../../lib/money.ts";
import { drainBilling, drainRefunds } from "../support/stripe_app.ts";

function editsTest(name: string, fn: () => Promise<void>) {
  Deno.test({ name: `money and edits: ${name}`, fn, sanitizeOps: false, sanitizeResources: false });
}

interface State {
  status: string;
  depositPaid: boolean;
  paid: boolean;
  depositAmount: number | null;
  totalAmountPaid: number | null;
  total: number;
  /** What the deal keeps: counted payments less refunds, succeeded or pending. */
  kept: number;
}

async function stateOf(id: number): Promise<State> {
  const { db } = await testEnv();
  const [row] = await systemQuery<State>(
    db,
    `select status, deposit_paid_at is not null as "depositPaid", paid_at is not null as paid,
            deposit_amount::int as "depositAmount", total_amount_paid::int as "totalAmountPaid",
            (totals->>'totalTTC')::int as total,
            coalesce((select sum(p.amount - p.refunded_amount
                                 - coalesce((select sum(r.amount) from public.refunds r
                                             where r.payment_id = p.id and r.status = 'pending'), 0))
                      from public.deal_payments p where p.deal_id = d.id), 0)::int as kept
     from public.deals d where id = $1`,
    [id],
  );
  return row;
}

/** Asks for an intent, lets `between` run, then pays it by card and confirms it: the confirm answer. */
async function payWith(customer: Client, token: string, type: string, between?: () => Promise<void>) {
  const intent = await customer.post("/api/payment/intent", { dealToken: token, paymentType: type });
  assertEquals(intent.status, 200, intent.text);
  const paymentIntentId = String(body(intent).paymentIntentId);
  if (between) await between();
  await customer.post("/api/payment/simulated/confirm", { paymentIntentId, cardNumber: "4242424242424242" });
  return body(await customer.post("/api/payment/confirm", { paymentIntentId }));
}

editsTest("a full payment landing after the partner edited the quote is refunded, not kept", async () => {
  const admin = await loggedIn(ADMIN), partner = await loggedIn(PARTNER), customer = await loggedIn(CUSTOMER);
  const deal = await sentDealForCustomer(admin, partner);
  const answer = await payWith(customer, deal.token, "full", async () => {
    assertEquals((await partner.patch(`/api/deal/${deal.id}`, { properties: {} })).status, 200);
  });
  assertEquals(answer.paymentStatus, "refunding", "the customer is told the payment is refunded");
  let state = await stateOf(deal.id);
  assertEquals(
    [state.status, state.paid, state.totalAmountPaid, state.kept],
    ["pending", false, null, 0],
    "an edited quote owes nothing until it is sent again",
  );
  // Lowering the lines and refusing keep nothing either.
  const lowered = await partner.patch(`/api/deal/${deal.id}`, {
    lines: [{ label: "Barman", qty: 1, unitCost: 1 }],
  });
  assertEquals(lowered.status, 200, lowered.text);
  assertEquals(
    (await partner.post(`/api/deal/${deal.id}/refuse`, { reason: "partner_unavailable" })).status,
    200,
  );
  state = await stateOf(deal.id);
  assertEquals([state.status, state.kept], ["refused_partner", 0]);
});

editsTest("an edit supersedes the open intents: a deposit paid after it is refunded", async () => {
  const admin = await loggedIn(ADMIN), partner = await loggedIn(PARTNER), customer = await loggedIn(CUSTOMER);
  const deal = await sentDealForCustomer(admin, partner);
  const answer = await payWith(customer, deal.token, "deposit", async () => {
    assertEquals((await partner.patch(`/api/deal/${deal.id}`, { properties: {} })).status, 200);
  });
  assertEquals(answer.paymentStatus, "refunding");
  const { db } = await testEnv();
  const [intent] = await systemQuery<{ superseded: boolean }>(
    db,
    "select superseded_at is not null as superseded from public.payment_intents where deal_id = $1",
    [deal.id],
  );
  assert(intent.superseded, "the edit superseded the open intent");
  const state = await stateOf(deal.id);
  assertEquals([state.status, state.depositPaid, state.kept], ["pending", false, 0]);
});

editsTest("the status follows the money: a balance paid while 'edited' ends in pay_total", async () => {
  const admin = await loggedIn(ADMIN), partner = await loggedIn(PARTNER), customer = await loggedIn(CUSTOMER);
  const deal = await sentDealForCustomer(admin, partner);
  await payDepositByCard(customer, deal.token);
  // An admin's direct status change (any to any) leaves the deposit paid in another payable status.
  await forceStatus(admin, deal.id, "edited");
  const answer = await payWith(customer, deal.token, "remaining");
  assertEquals(answer.paymentStatus, "succeeded", JSON.stringify(answer));
  const state = await stateOf(deal.id);
  assertEquals(
    [state.status, state.depositPaid, state.paid, state.totalAmountPaid, state.kept],
    ["pay_total", true, true, state.total, state.total],
  );
});

editsTest(
  "a deposit of 100 % is the full payment; a manual deposit of the whole amount is refused",
  async () => {
    const admin = await loggedIn(ADMIN),
      partner = await loggedIn(PARTNER),
      customer = await loggedIn(CUSTOMER);
    const deal = await sentDealForCustomer(admin, partner);
    const saved = await partner.patch(`/api/deal/${deal.id}`, {
      settings: { hasDeposit: true, depositPercentage: 100 },
    });
    assertEquals(saved.status, 200, saved.text);
    const answer = await payWith(customer, deal.token, "deposit");
    assertEquals(answer.paymentStatus, "succeeded", JSON.stringify(answer));
    let state = await stateOf(deal.id);
    assertEquals(
      [state.status, state.paid, state.totalAmountPaid, state.kept],
      ["pay_total", true, state.total, state.total],
      "the deal is paid, not stuck in pay_partial",
    );

    const other = await sentDealForCustomer(admin, partner);
    const manual = await admin.post(`/api/deal/${other.id}/payments`, {
      kind: "deposit",
      amount: String(other.totalTTC / 100),
    });
    assertError(manual, 422, PAYMENT_MESSAGES.depositBelowDue(formatEuros(other.totalTTC)));
    state = await stateOf(other.id);
    assertEquals([state.status, state.depositPaid, state.kept], ["send", false, 0]);
  },
);

editsTest("the total never goes below the deposit held, and a paid quote keeps its total", async () => {
  const admin = await loggedIn(ADMIN), partner = await loggedIn(PARTNER), customer = await loggedIn(CUSTOMER);
  const deal = await sentDealForCustomer(admin, partner);
  const deposit = await payDepositByCard(customer, deal.token);
  const lowered = await admin.patch(`/api/deal/${deal.id}`, {
    lines: [{ label: "Barman", qty: 1, unitCost: 1 }],
  });
  assertError(lowered, 409, DEAL_MESSAGES.totalBelowPaid(formatEuros(deposit.amount)));
  let state = await stateOf(deal.id);
  assertEquals([state.status, state.total], ["pay_partial", deal.totalTTC], "nothing was written");

  // The database holds the rule too, whoever writes.
  const { db } = await testEnv();
  const refused = await systemQuery(
    db,
    "update public.deals set totals = jsonb_set(totals, '{totalTTC}', '100') where id = $1",
    [deal.id],
  ).then(() => null, (error: Error) => error.message);
  assert(refused?.includes("below the deposit"), `the guard trigger refuses it: ${refused}`);

  const balance = await payWith(customer, deal.token, "remaining");
  assertEquals(balance.paymentStatus, "succeeded");
  const raised = await admin.patch(`/api/deal/${deal.id}`, {
    lines: [{ label: "Barman", qty: 1, unitCost: 100_000 }],
  });
  assertError(raised, 409, DEAL_MESSAGES.paidTotalFixed);
  state = await stateOf(deal.id);
  assertEquals([state.status, state.total, state.kept], ["pay_total", deal.totalTTC, deal.totalTTC]);
});

editsTest("once money is received, the partner (the seller of the invoices) cannot change", async () => {
  const admin = await loggedIn(ADMIN), partner = await loggedIn(PARTNER), customer = await loggedIn(CUSTOMER);
  const deal = await sentDealForCustomer(admin, partner);
  await payDepositByCard(customer, deal.token);
  const other = await userIdOf(PARTNER2);
  const preview = await admin.get(`/api/deal/${deal.id}/partner-preview?company=${other}`);
  assertError(preview, 409, DEAL_MESSAGES.partnerFixedOncePaid);
  const change = await admin.patch(`/api/deal/${deal.id}`, { company: other });
  assertError(change, 409, DEAL_MESSAGES.partnerFixedOncePaid);
  const { db } = await testEnv();
  const [row] = await systemQuery<{ company: string }>(
    db,
    "select company_id::text as company from public.deals where id = $1",
    [deal.id],
  );
  assertEquals(row.company, await userIdOf(PARTNER));
});

editsTest("a refund shows on the customer's payments, with its credit note to download", async () => {
  const admin = await loggedIn(ADMIN), partner = await loggedIn(PARTNER), customer = await loggedIn(CUSTOMER);
  const deal = await sentDealForCustomer(admin, partner);
  const deposit = await payDepositByCard(customer, deal.token);
  const ledger = body(await admin.get(`/api/deal/${deal.id}/payments`)).results as { id: string }[];
  const paymentId = ledger.find((p) => p.id === deposit.id)!.id;
  const refund = await admin.post(`/api/deal/${deal.id}/refunds`, { paymentId, amount: 40, reason: "Geste" });
  assertEquals(refund.status, 200, refund.text);
  const { deps } = await testEnv();
  await drainRefunds(deps);
  await drainBilling(deps);

  const rows = body(await customer.get("/api/customer/quotes-orders")).results as {
    id: string;
    refunded: number;
    creditNotes: { id: string; amount: number }[];
  }[];
  const row = rows.find((r) => r.id === deposit.id)!;
  assertEquals([row.refunded, row.creditNotes.map((n) => n.amount)], [40, [40]]);
  const note = await customer.get(`/quote/invoice/${row.creditNotes[0].id}`);
  assertEquals([note.status, note.headers.get("content-type")], [200, "application/pdf"]);
  const page = await customer.get("/dashboard/client/reglements");
  assert(page.text.includes("Remboursé : 40,00"), "the page says what came back");
  assert(page.text.includes(`/quote/invoice/${row.creditNotes[0].id}`), "and links the credit note");
  // Another customer reads neither the row nor the credit note.
  const other = await loggedIn(CUSTOMER2);
  const theirs = body(await other.get("/api/customer/quotes-orders")).results as { id: string }[];
  assert(!theirs.some((r) => r.id === deposit.id));
  assert([403, 404].includes((await other.get(`/quote/invoice/${row.creditNotes[0].id}`)).status));
});
