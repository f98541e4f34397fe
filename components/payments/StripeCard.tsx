// Stripe's Payment Element inside the 'Paiement sécurisé' dialog: a chunk of its own, loaded only for
// the Stripe provider when the dialog opens; `loadStripe` injects js.stripe.com at that moment (never
// with the page). The payment is confirmed in the browser with a return URL (cards needing a bank's
// authentication come back to this page, where the PaymentSection island finishes the payment).
import { useEffect, useRef, useState } from "react";
import { loadStripe } from "@stripe/stripe-js/pure";
import type { Stripe, StripeElements } from "@stripe/stripe-js";
import { PAYMENT_MESSAGES } from "../../lib/payments/rules.ts";
import { PRIMARY_BUTTON } from "./styles.ts";

export interface StripeCardProps {
  publicKey: string;
  clientSecret: string;
  amountLabel: string;
  busy: boolean;
  onStart: () => void;
  /** The PaymentIntent's status after confirmation (succeeded, processing, requires_payment_method…). */
  onStatus: (status: string) => void;
  onError: (text: string) => void;
}

export default function StripeCard(
  { publicKey, clientSecret, amountLabel, busy, onStart, onStatus, onError }: StripeCardProps,
) {
  const mount = useRef<HTMLDivElement>(null);
  const stripe = useRef<Stripe | null>(null);
  const elements = useRef<StripeElements | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const loaded = await loadStripe(publicKey, { locale: "fr" });
        if (!loaded || cancelled || !mount.current) {
          if (!cancelled) onError(PAYMENT_MESSAGES.setupError);
          return;
        }
        const created = loaded.elements({
          clientSecret,
          locale: "fr",
          appearance: {
            theme: "stripe",
            variables: {
              colorPrimary: "#d94f3d",
              borderRadius: "8px",
              fontFamily: "Montserrat, system-ui, sans-serif",
            },
          },
        });
        const element = created.create("payment", { layout: "tabs" });
        element.on("ready", () => setReady(true));
        element.on("loaderror", () => onError(PAYMENT_MESSAGES.setupError));
        element.mount(mount.current);
        stripe.current = loaded;
        elements.current = created;
      } catch {
        if (!cancelled) onError(PAYMENT_MESSAGES.setupError);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [publicKey, clientSecret]);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    if (!stripe.current || !elements.current || !ready) return onError(PAYMENT_MESSAGES.notReady);
    onStart();
    try {
      const { error, paymentIntent } = await stripe.current.confirmPayment({
        elements: elements.current,
        confirmParams: { return_url: `${location.origin}${location.pathname}` },
        redirect: "if_required",
      });
      if (error) {
        // Card and validation errors carry a message meant for the customer; anything else does not.
        const known = error.type === "card_error" || error.type === "validation_error";
        onError(known ? error.message || PAYMENT_MESSAGES.cardError : PAYMENT_MESSAGES.unexpected);
        return;
      }
      onStatus(paymentIntent?.status ?? "unknown");
    } catch {
      onError(PAYMENT_MESSAGES.unexpected);
    }
  };

  return (
    <form class="space-y-4" onSubmit={submit} data-testid="stripe-form">
      <div ref={mount} class="min-h-[8rem]" />
      <button type="submit" class={PRIMARY_BUTTON} disabled={busy || !ready} data-testid="pay-submit">
        {busy ? "Validation…" : `Payer ${amountLabel}`}
      </button>
    </form>
  );
}
