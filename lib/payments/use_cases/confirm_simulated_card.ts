// POST /api/payment/simulated/confirm: the simulated provider's card form (what Stripe.js does with
// the card in the browser), outside production only, for the customer's own intents.
import { type Actor, requireRole, statementTx } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { parseInput } from "../../validation.ts";
import { z } from "zod";
import { PAYMENT_MESSAGES } from "../rules.ts";
import { ProviderError } from "../provider.ts";
import type { SimulatedProvider } from "../simulated.ts";
import { ownsIntent } from "../store.ts";
import { PAYMENTS } from "./record_card_payment.ts";

const simulatedSchema = z.object({
  paymentIntentId: z.string().regex(/^pi_sim_[A-Za-z0-9_-]{3,100}$/, PAYMENT_MESSAGES.confirmError),
  cardNumber: z.string().max(30),
});

export async function confirmSimulatedCard(
  deps: Deps,
  actor: Actor,
  body: unknown,
): Promise<{ status: string }> {
  const customer = requireRole(actor, "Customer", { message: PAYMENT_MESSAGES.customersOnly });
  if (deps.payments?.name !== "simulated" || deps.config.appEnv === "production") {
    throw new AppError("not_found");
  }
  const { paymentIntentId, cardNumber } = parseInput(simulatedSchema, body, PAYMENT_MESSAGES.confirmError);
  if (!(await ownsIntent(statementTx(deps.db, PAYMENTS), paymentIntentId, customer.user.id))) {
    throw new AppError("not_found", PAYMENT_MESSAGES.confirmError);
  }
  try {
    const intent = await (deps.payments as SimulatedProvider).confirm(paymentIntentId, cardNumber);
    return { status: intent.status };
  } catch (error) {
    if (error instanceof ProviderError) {
      throw new AppError("validation", error.message, { card: error.message });
    }
    throw error;
  }
}
