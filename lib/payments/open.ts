// The card payment provider of this deployment: Stripe when keys are configured; otherwise, outside
// production, the simulated provider ('Mode démo'). Production never runs without Stripe: loadConfig()
// refuses to start without its keys, and this refuses a configuration built another way.
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import { stripeProvider } from "../integrations/stripe.ts";
import type { PaymentProvider } from "./provider.ts";
import { simulatedProvider } from "./simulated.ts";

export function openPaymentProvider(config: Config, db: Database): PaymentProvider {
  if (config.stripeSecretKey) {
    return stripeProvider({
      secretKey: config.stripeSecretKey,
      publishableKey: config.stripePublishableKey,
      apiUrl: config.stripeApiUrl,
    });
  }
  if (config.appEnv === "production") {
    throw new Error("STRIPE_SECRET_KEY manquant : pas de paiement simulé en production.");
  }
  return simulatedProvider(db);
}
