// The body of the 'Paiement sécurisé' dialog, loaded only when the dialog opens (a separate chunk of
// the PaymentSection island): reads the provider's configuration, asks the server for the payment
// (the amount is the server's), then shows the provider's card form — Stripe's Payment Element (its
// own chunk, which loads js.stripe.com) or the simulated provider's 'Mode démo' form — and, once the
// provider accepted the card, has the server record the payment (spec 000 §4 'Card payment result',
// §8). Every error shows in the dialog's alert and emits a `paymentError` event.
import { useEffect, useRef, useState } from "react";
import type { ComponentType } from "preact";
import { formatEuros } from "../../lib/money.ts";
import { PAYMENT_MESSAGES, type PaymentType } from "../../lib/payments/rules.ts";
import {
  confirmSimulatedCard,
  confirmUntilSettled,
  createIntent,
  emitPaymentError,
  type Intent,
  loadConfig,
  type PaymentConfig,
  PaymentFailure,
  statusText,
} from "./client.ts";
import { DEMO_TEST_CARDS, groupDigits } from "./test_cards.ts";
import type { StripeCardProps } from "./StripeCard.tsx";
import { PRIMARY_BUTTON } from "./styles.ts";

export interface PaymentFormProps {
  token?: string;
  paymentType?: PaymentType;
  /** Another payment than a deal's (the workshop cart's checkout): asks the server for its intent. */
  startIntent?: () => Promise<Intent>;
  /** Cents, as the page computed it (the server's amount replaces it once known). */
  amount: number;
  /** The payment is recorded (or still processing after a long wait): the page reloads the deal. */
  onSettled: (message: string, type: "success" | "info") => void;
  /** Tells the page the dialog is busy (no closing by mistake while paying). */
  onBusy?: (busy: boolean) => void;
}

interface Alert {
  tone: "error" | "info" | "success";
  text: string;
}

const ALERT_CLASS: Record<Alert["tone"], string> = {
  error: "border-red-200 bg-red-50 text-red-800",
  info: "border-sky-200 bg-sky-50 text-sky-900",
  success: "border-emerald-200 bg-emerald-50 text-emerald-800",
};

export default function PaymentForm(
  { token, paymentType, startIntent, amount, onSettled, onBusy }: PaymentFormProps,
) {
  const [config, setConfig] = useState<PaymentConfig | null>(null);
  const [intent, setIntent] = useState<Intent | null>(null);
  const [alert, setAlert] = useState<Alert | null>(null);
  const [busy, setBusyState] = useState(false);
  const [StripeCard, setStripeCard] = useState<ComponentType<StripeCardProps> | null>(null);
  const settled = useRef(false);

  const setBusy = (value: boolean) => {
    setBusyState(value);
    onBusy?.(value);
  };

  const fail = (error: unknown) => {
    const text = error instanceof PaymentFailure ? error.message : PAYMENT_MESSAGES.unexpected;
    setAlert({ tone: "error", text });
    setBusy(false);
    emitPaymentError(text);
  };

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const loaded = await loadConfig();
        if (loaded.provider === "stripe") {
          // Stripe.js and the Payment Element: a chunk of their own, only for the Stripe provider.
          const module = await import("./StripeCard.tsx").catch(() => {
            throw new PaymentFailure(PAYMENT_MESSAGES.setupError);
          });
          if (!cancelled) setStripeCard(() => module.default);
        }
        const created = startIntent
          ? await startIntent()
          : await createIntent(token ?? "", paymentType ?? "full");
        if (cancelled) return;
        setConfig(loaded);
        setIntent(created);
      } catch (error) {
        if (!cancelled) fail(error);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, []);

  /** What the provider said about the card: record the payment on the server when it went through. */
  const afterProvider = async (status: string) => {
    if (!intent || settled.current) return;
    if (status !== "succeeded" && status !== "processing") {
      setBusy(false);
      const text = statusText(status);
      setAlert({ tone: "error", text });
      emitPaymentError(text);
      return;
    }
    setAlert({ tone: status === "succeeded" ? "success" : "info", text: statusText(status) });
    try {
      const result = await confirmUntilSettled(
        intent.paymentIntentId,
        (text) => setAlert({ tone: "info", text }),
      );
      // "refunding": the money was taken for a payment the deal no longer owed; it is being given back.
      if (
        result.paymentStatus === "succeeded" || result.paymentStatus === "processing" ||
        result.paymentStatus === "refunding"
      ) {
        settled.current = true;
        setAlert({
          tone: result.paymentStatus === "succeeded" ? "success" : "info",
          text: result.message,
        });
        onSettled(result.message, result.paymentStatus === "succeeded" ? "success" : "info");
        return;
      }
      fail(new PaymentFailure(statusText(result.paymentStatus)));
    } catch (error) {
      fail(error);
    }
  };

  const providerError = (text: string) => fail(new PaymentFailure(text));
  const amountLabel = intent?.amountFormatted ?? formatEuros(amount);

  return (
    <div class="space-y-4" data-testid="payment-form">
      {!intent && !alert && (
        <p class="flex items-center gap-3 text-sm text-slate-600" role="status">
          <span class="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-500" />
          Préparation du paiement sécurisé…
        </p>
      )}
      {intent && config?.provider === "simulated" && (
        <SimulatedCard
          amountLabel={amountLabel}
          busy={busy}
          onSubmit={async (cardNumber) => {
            if (!intent) return providerError(PAYMENT_MESSAGES.notReady);
            setBusy(true);
            setAlert(null);
            try {
              await afterProvider(await confirmSimulatedCard(intent.paymentIntentId, cardNumber));
            } catch (error) {
              fail(error);
            }
          }}
        />
      )}
      {intent && config?.provider === "stripe" && StripeCard && (
        <StripeCard
          publicKey={config.publicKey}
          clientSecret={intent.clientSecret}
          amountLabel={amountLabel}
          busy={busy}
          onStart={() => {
            setBusy(true);
            setAlert(null);
          }}
          onStatus={afterProvider}
          onError={providerError}
        />
      )}
      {alert && (
        <div
          role={alert.tone === "error" ? "alert" : "status"}
          class={`rounded-lg border px-4 py-3 text-sm font-medium ${ALERT_CLASS[alert.tone]}`}
          data-testid="payment-alert"
          data-tone={alert.tone}
        >
          {alert.text}
        </div>
      )}
    </div>
  );
}

/** The simulated provider's card form, clearly labelled 'Mode démo', with its test cards. */
function SimulatedCard(
  { amountLabel, busy, onSubmit }: {
    amountLabel: string;
    busy: boolean;
    onSubmit: (cardNumber: string) => void;
  },
) {
  const [number, setNumber] = useState("");
  return (
    <form
      class="space-y-4"
      data-testid="demo-card-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) onSubmit(number);
      }}
    >
      <div class="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
        <p class="flex flex-wrap items-center gap-2 font-semibold">
          <span class="rounded-full bg-amber-500 px-2.5 py-0.5 text-xs font-bold uppercase tracking-wide text-white">
            {PAYMENT_MESSAGES.demoMode}
          </span>
          Aucun paiement réel n'est effectué.
        </p>
        <p class="mt-2">Choisissez une carte de test :</p>
        <ul class="mt-2 grid gap-1.5">
          {DEMO_TEST_CARDS.map((card) => (
            <li key={card.number}>
              <button
                type="button"
                class="block w-full rounded-lg bg-white/70 px-3 py-2 text-left hover:bg-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-amber-500"
                onClick={() => setNumber(groupDigits(card.number))}
              >
                <span class="block font-mono text-sm tracking-wide">{groupDigits(card.number)}</span>
                <span class="block text-xs text-amber-900">{card.label}</span>
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div class="text-sm">
        <label for="demo-card-number" class="block font-medium text-slate-700">Numéro de carte</label>
        <input
          id="demo-card-number"
          name="cardNumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          maxLength={23}
          value={number}
          onInput={(e) => setNumber(groupDigits((e.target as HTMLInputElement).value))}
          class="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2.5 font-mono text-base tracking-wide outline-none focus:ring-2 focus:ring-brand-500"
          required
        />
      </div>
      <button type="submit" class={PRIMARY_BUTTON} disabled={busy} data-testid="pay-submit">
        {busy ? "Validation…" : `Payer ${amountLabel}`}
      </button>
    </form>
  );
}
