// The card payment provider of this deployment: Stripe when keys are configured; otherwise, outside
// production, the simulated provider ('Mode démo'); in production without keys, none (the payment
// dialog then says it cannot start).
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import { stripeProvider } from "../integrations/stripe.ts";
import type { PaymentProvider } from "./provider.ts";
import { simulatedProvider } from "./simulated.ts";

export function openPaymentProvider(config: Config, db: Database): PaymentProvider | null {
  if (config.stripeSecretKey) {
    return stripeProvider({
      secretKey: config.stripeSecretKey,
      publishableKey: config.stripePublishableKey,
      apiUrl: config.stripeApiUrl,
    });
  }
  return config.appEnv === "production" ? null : simulatedProvider(db);
}
