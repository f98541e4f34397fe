// The card payment of an order (a cart's workshop places, a gift voucher): the same intent as
// /api/payment/intent answers for a deal, from the same provider. The amount is the server's
// (order_amount_due: the order's total less its voucher discount). The provider is called outside any
// transaction; the intent is then recorded with the order locked, which checks the order still asks
// for that amount and supersedes its other open intents (canceled at the provider by the outbox).
import { type RoleActor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { centsToEuros, formatEuros } from "../../money.ts";
import { PAYMENTS, requireProvider } from "../../payments/use_cases/record_card_payment.ts";
import { CHECKOUT_MESSAGES } from "../rules.ts";
import { findOrder, saveOrderIntent, supersededOrderIntents, supersedeOrderIntents } from "../store.ts";

export interface OrderIntentResult {
  clientSecret: string;
  paymentIntentId: string;
  /** Euros, as /api/payment/intent answers. */
  amount: number;
  amountFormatted: string;
  paymentType: "full";
  kind: "total";
  orderId: number;
  /** Cents. */
  amountCents: number;
}

export async function createOrderIntent(
  deps: Deps,
  customer: RoleActor<"Customer">,
  orderId: number,
): Promise<OrderIntentResult> {
  const provider = requireProvider(deps);
  const { order, generation } = await transactionAs(deps.db, PAYMENTS, async (tx) => ({
    order: await findOrder(tx, orderId),
    generation: await supersededOrderIntents(tx, orderId),
  }));
  if (!order || order.userId !== customer.user.id) {
    throw new AppError("not_found", CHECKOUT_MESSAGES.orderChanged);
  }
  if (order.status !== "pending" || order.due <= 0) {
    throw new AppError("conflict", CHECKOUT_MESSAGES.orderChanged);
  }
  const idempotencyKey = `order-${order.id}-${order.due}-${customer.user.id}${
    generation > 0 ? `-${generation}` : ""
  }`;
  const intent = await provider.createIntent({
    amount: order.due,
    currency: "eur",
    description: `Commande n° ${order.id}`,
    metadata: { orderId: String(order.id), kind: "total", customerId: customer.user.id },
    idempotencyKey,
  });
  const still = await transactionAs(deps.db, PAYMENTS, async (tx) => {
    const locked = await findOrder(tx, order.id, true);
    await saveOrderIntent(tx, {
      id: intent.id,
      provider: provider.name,
      orderId: order.id,
      customerId: customer.user.id,
      amount: order.due,
      status: intent.status,
      idempotencyKey,
    });
    // Superseded or paid while the provider answered: this intent asks for nothing any more.
    const ok = locked?.status === "pending" && locked.due === order.due;
    await supersedeOrderIntents(tx, order.id, ok ? intent.id : null);
    return ok;
  });
  if (!still) throw new AppError("conflict", CHECKOUT_MESSAGES.orderChanged);
  return {
    clientSecret: intent.clientSecret,
    paymentIntentId: intent.id,
    amount: centsToEuros(order.due),
    amountFormatted: formatEuros(order.due),
    paymentType: "full",
    kind: "total",
    orderId: order.id,
    amountCents: order.due,
  };
}
