// What the payments use cases need from a card payment provider. Two implementations: Stripe
// (lib/integrations/stripe.ts) and the simulated provider of the offline default
// (lib/payments/simulated.ts), which behaves like Stripe's test mode.

export interface ProviderIntent {
  id: string;
  status: string;
  /** Cents. */
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  /** Unix seconds. */
  created: number;
}

export interface CreatedIntent extends ProviderIntent {
  clientSecret: string;
}

export interface ProviderRefund {
  id: string;
  status: "pending" | "succeeded" | "failed" | "canceled" | "requires_action";
  amount: number;
  paymentIntentId: string;
}

export interface PaymentProvider {
  readonly name: "stripe" | "simulated";
  /** The browser's key (Stripe's publishable key; "" for the simulated provider). */
  readonly publishableKey: string;
  createIntent(input: {
    amount: number;
    currency: "eur";
    description: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<CreatedIntent>;
  /** Cancels an intent that asks for nothing any more (superseded, or its deal refused). Returns the
   * intent as the provider holds it after the attempt: canceled, or still succeeded / processing when
   * it was too late to cancel (the recorder then refunds it). */
  cancelIntent(id: string): Promise<ProviderIntent>;
  /** The intent as the provider holds it now (never what a request claims). */
  retrieveIntent(id: string): Promise<ProviderIntent>;
  /** Succeeded intents created since `since` (the reconciliation job's list). */
  listSucceededSince(since: Date): Promise<ProviderIntent[]>;
  /** `refundId`, our refund's id, is both the idempotency key (a retry never refunds twice) and the
   * metadata by which a webhook finds the refund. */
  refund(input: { paymentIntentId: string; amount: number; refundId: string }): Promise<ProviderRefund>;
  retrieveRefund(id: string): Promise<ProviderRefund>;
}

/** A provider's refusal with a message meant for the customer (card declined…). */
export class ProviderError extends Error {
  constructor(message: string, readonly status = 402) {
    super(message);
  }
}
