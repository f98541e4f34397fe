// Recording what the provider reports for an intent (re-fetched by the caller, never taken from a
// request), exactly once, through record_card_payment(): the customer's confirm call, the webhook, the
// reconciliation job and the simulated provider's settlement all end here.
import { systemActor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { PAYMENT_MESSAGES, type PaymentKind } from "../rules.ts";
import type { PaymentProvider, ProviderIntent } from "../provider.ts";
import { recordCardPayment } from "../store.ts";
import { settleOrder } from "../../orders/use_cases/settle_order.ts";

/** Payments are recorded only through record_payment, as the system, after the use case's checks. */
export const PAYMENTS = systemActor("payments");

/** The provider of this deployment (409 'setupError' when none is configured). */
export function requireProvider(deps: Deps): PaymentProvider {
  if (!deps.payments) throw new AppError("conflict", PAYMENT_MESSAGES.setupError);
  return deps.payments;
}

export interface RecordResult {
  recorded: boolean;
  dealId: number | null;
  /** An order's payment (workshop places, a voucher): its invoice, receipt and email are issued in
   * the payment's transaction. */
  orderId: number | null;
  kind: PaymentKind | null;
  /** The deal did not owe it: recorded, and refunded automatically (the refunds queue). */
  overpayment: boolean;
}

/** Records what the provider holds for this intent (re-fetched by the caller); exactly once. */
export async function recordProviderIntent(
  deps: Deps,
  provider: string,
  intent: ProviderIntent,
): Promise<RecordResult> {
  const row = await transactionAs(deps.db, PAYMENTS, async (tx) => {
    const recorded = await recordCardPayment(tx, provider, intent);
    if (recorded?.recorded && recorded.order_id !== null) {
      await settleOrder(tx, deps.config, recorded.order_id);
    }
    return recorded;
  });
  if (row?.recorded && row.overpayment) {
    await deps.logger.warning("payments", "Paiement par carte non dû : remboursement automatique demandé", {
      dealId: row.deal_id,
      orderId: row.order_id,
      kind: row.kind,
      amount: intent.amount,
      intent: intent.id,
    });
  } else if (row?.recorded) {
    await deps.logger.info("payments", "Paiement par carte enregistré", {
      dealId: row.deal_id,
      kind: row.kind,
      amount: intent.amount,
      intent: intent.id,
    });
  }
  return {
    recorded: row?.recorded ?? false,
    dealId: row?.deal_id ?? null,
    orderId: row?.order_id ?? null,
    kind: row?.kind ?? null,
    overpayment: row?.overpayment ?? false,
  };
}
