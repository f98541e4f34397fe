// Card payments (spec 000 §7 'Payment by card'), mounted at /. The provider's configuration and
// webhook are public (the webhook is authenticated by its signature); the rest needs a signed-in user
// (a customer to pay, an admin for the deal's payments and refunds), which each use case checks.
import { addFlash } from "../lib/http/cookies.ts";
import { CHECKOUT_MESSAGES } from "../lib/orders/rules.ts";
import { Hono } from "hono";
import { type AppEnv, idParam, readBody, success } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { confirmPayment } from "../lib/payments/use_cases/confirm_payment.ts";
import { confirmSimulatedCard } from "../lib/payments/use_cases/confirm_simulated_card.ts";
import { createPaymentIntent } from "../lib/payments/use_cases/create_intent.ts";
import { dealPaymentLedger } from "../lib/payments/use_cases/payment_ledger.ts";
import { paymentConfig } from "../lib/payments/use_cases/payment_config.ts";
import { requestRefund } from "../lib/payments/use_cases/refund.ts";
import { quotePaymentIntent, quotePaymentLines } from "../lib/payments/use_cases/quote_page.ts";

const signedIn = requireUser("api");

export const paymentRoutes = new Hono<AppEnv>()
  .get("/api/payment/config", (c) => success(c, paymentConfig(c.var.deps)))
  .use("/api/payment/intent", signedIn)
  .use("/api/payment/confirm", signedIn)
  .use("/api/payment/simulated/*", signedIn)
  .use("/api/deal/:id/refunds", signedIn)
  .use("/api/deal/:id/payments", signedIn)
  .use("/quote/*", signedIn)
  .post("/api/payment/intent", async (c) => {
    const intent = await createPaymentIntent(c.var.deps, c.var.actor, await readBody(c));
    return c.json({ status: "success", ...intent, results: intent });
  })
  .post("/api/payment/confirm", async (c) => {
    const result = await confirmPayment(c.var.deps, c.var.actor, await readBody(c));
    // The page reloads after a payment: its success message waits for it on the server (spec 000 §8).
    // Not the cart's: its page stays and says it in its success block, so 'Vos sessions' would say it twice.
    if (result.paymentStatus === "succeeded" && result.message !== CHECKOUT_MESSAGES.paid) {
      await addFlash(c, "success", result.message);
    }
    return c.json({ status: "success", ...result, results: result });
  })
  .post(
    "/api/payment/simulated/confirm",
    async (c) => success(c, await confirmSimulatedCard(c.var.deps, c.var.actor, await readBody(c))),
  )
  .post("/api/deal/:id/refunds", async (c) => {
    const { message } = await requestRefund(c.var.deps, c.var.actor, idParam(c, "id"), await readBody(c));
    return success(c, null, message);
  })
  // The admin's 'État des paiements': the deal's payments, refunds and credit notes (cents).
  .get(
    "/api/deal/:id/payments",
    async (c) => success(c, await dealPaymentLedger(c.var.deps, c.var.actor, idParam(c, "id"))),
  )
  // The older calls of the quote payment page /devis/{slug} (spec 000 §7).
  .post("/quote/stripe/create", async (c) => {
    const intent = await quotePaymentIntent(c.var.deps, c.var.actor, await readBody(c));
    return c.json({
      clientSecret: intent.clientSecret,
      amount: intent.amount,
      paymentIntentId: intent.paymentIntentId,
    });
  })
  .get(
    "/quote/lines/:id",
    async (c) => c.json(await quotePaymentLines(c.var.deps, c.var.actor, c.req.param("id"))),
  );
