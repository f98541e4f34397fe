import { assertEquals } from "../../tests/support/assert.ts";
import {
  depositAmountOf,
  intentStatusMessage,
  loginInvitation,
  PAYMENT_MESSAGES,
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
