// GET /api/payment/config: the provider's public configuration for the payment dialog.
import type { Deps } from "../../deps.ts";

export interface PaymentConfig {
  publicKey: string;
  provider: "stripe" | "simulated" | null;
  /** The simulated provider: the dialog says 'Mode démo'. */
  demo: boolean;
}

export function paymentConfig(deps: Deps): PaymentConfig {
  return {
    publicKey: deps.payments?.publishableKey ?? "",
    provider: deps.payments?.name ?? null,
    demo: deps.payments?.name === "simulated",
  };
}
