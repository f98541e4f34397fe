import { assertEquals } from "../../tests/support/assert.ts";
import {
  amountDue,
  depositAmountOf,
  intentParameters,
  intentStatusMessage,
  loginInvitation,
  PAYMENT_MESSAGES,
  paymentFits,
  paymentStage,
  planPayment,
  quotePaymentType,
} from "./rules.ts";

const deal = (changes = {}) => ({
  status: "send" as const,
  settings: { hasDeposit: true, depositPercentage: 30 },
  totalTTC: 123457,
  depositAmount: null,
  totalAmountPaid: null,
  depositPaidAt: false,
  paidAt: false,
  ...changes,
});

Deno.test("the deposit is the total × the percentage, 35 % when unset, to the cent", () => {
  assertEquals(depositAmountOf(deal()), 37037, "30 % of 1 234,57 € = 370,371 €");
  assertEquals(
    depositAmountOf(deal({ settings: { hasDeposit: true } })),
    43210,
    "35 % of 1 234,57 € = 432,0995 €",
  );
});

Deno.test("planPayment: the server decides the amount", () => {
  assertEquals(planPayment(deal(), "deposit"), { ok: true, kind: "deposit", amount: 37037 });
  assertEquals(planPayment(deal(), "full"), { ok: true, kind: "total", amount: 123457 });
  assertEquals(planPayment(deal(), "remaining").ok, false);
  assertEquals(planPayment(deal({ settings: { hasDeposit: false } }), "deposit"), {
    ok: false,
    error: "Le paiement par acompte n'est pas disponible pour ce devis",
  });
  const afterDeposit = deal({ status: "pay_partial", depositPaidAt: true, depositAmount: 37037 });
  assertEquals(planPayment(afterDeposit, "remaining"), { ok: true, kind: "balance", amount: 86420 });
  assertEquals(
    planPayment(afterDeposit, "full"),
    { ok: true, kind: "balance", amount: 86420 },
    "full after a deposit pays the rest",
  );
  assertEquals(planPayment(afterDeposit, "deposit").ok, false);
  assertEquals(planPayment(deal({ paidAt: true, status: "pay_total" }), "full").ok, false);
  for (const status of ["start", "new", "pending", "refused_client", "win"] as const) {
    assertEquals(planPayment(deal({ status }), "full").ok, false, status);
  }
  assertEquals(planPayment(deal({ totalTTC: 0 }), "full").ok, false);
});

Deno.test("payment stage and quote payment type", () => {
  assertEquals(paymentStage({ depositPaidAt: false, paidAt: false }), "none");
  assertEquals(paymentStage({ depositPaidAt: true, paidAt: false }), "deposit");
  assertEquals(paymentStage({ depositPaidAt: true, paidAt: true }), "paid_after_deposit");
  assertEquals(paymentStage({ depositPaidAt: false, paidAt: true }), "paid");
  assertEquals(quotePaymentType(deal()), "deposit");
  assertEquals(quotePaymentType(deal({ settings: { hasDeposit: false } })), "total");
  assertEquals(quotePaymentType(deal({ depositPaidAt: true })), "balance");
  assertEquals(quotePaymentType(deal({ paidAt: true })), "paid");
});

Deno.test("the provider's status becomes the spec's message", () => {
  assertEquals(intentStatusMessage("succeeded"), "Succès de paiement");
  assertEquals(intentStatusMessage("processing"), "Paiement en cours");
  assertEquals(intentStatusMessage("requires_payment_method"), "Paiement échoué, veuillez réessayer");
  assertEquals(intentStatusMessage("canceled"), "Une erreur inattendue s'est produite, veuillez réessayer");
});

Deno.test("loginInvitation: the login dialog invites; 'Vous pouvez désormais…' waits for the login", () => {
  assertEquals(
    loginInvitation(PAYMENT_MESSAGES.loginForDeposit),
    "Connectez-vous ou créez votre compte client pour régler votre acompte.",
  );
  assertEquals(
    loginInvitation(PAYMENT_MESSAGES.loginForBalance),
    "Connectez-vous ou créez votre compte client pour régler votre solde.",
  );
  assertEquals(
    loginInvitation(PAYMENT_MESSAGES.loginForTotal),
    "Connectez-vous ou créez votre compte client pour régler votre devis.",
  );
  assertEquals(loginInvitation("autre"), "Connectez-vous ou créez votre compte client pour continuer.");
});

Deno.test("amountDue and paymentFits: a deal never keeps more than it owes", () => {
  assertEquals(amountDue(777870, 0), 777870);
  assertEquals(amountDue(777870, 900000), 0, "never below zero");
  const open = { due: 777870, depositPaid: false, paid: false };
  assertEquals(paymentFits(open, "total", 777870), true);
  assertEquals(paymentFits(open, "total", 100050), false, "a total below the due does not settle the deal");
  assertEquals(paymentFits(open, "deposit", 100050), true);
  assertEquals(paymentFits(open, "deposit", 777871), false);
  assertEquals(paymentFits(open, "balance", 777870), false, "no balance without a deposit");
  const afterDeposit = { due: 544509, depositPaid: true, paid: false };
  assertEquals(paymentFits(afterDeposit, "balance", 544509), true);
  assertEquals(paymentFits(afterDeposit, "balance", 544508), false);
  assertEquals(paymentFits(afterDeposit, "deposit", 1000), false, "a second deposit is not owed");
  assertEquals(
    paymentFits(afterDeposit, "total", 777870),
    false,
    "a total after a deposit is paid twice over",
  );
  assertEquals(paymentFits({ due: 0, depositPaid: false, paid: true }, "deposit", 1000), false);
});

Deno.test("a superseded intent is never replayed: the key counts the deal's superseded intents", () => {
  const first = intentParameters(12, "deposit", 159793, "c1");
  assertEquals(first.idempotencyKey, "deal-12-deposit-159793-c1");
  assertEquals(
    intentParameters(12, "deposit", 159793, "c1", 2).idempotencyKey,
    "deal-12-deposit-159793-c1-2",
  );
  assertEquals(intentStatusMessage("refunding"), PAYMENT_MESSAGES.refunding);
});
