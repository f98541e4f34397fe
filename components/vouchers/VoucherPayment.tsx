// The card step of a gift voucher's purchase, a chunk loaded once the server created the payment: the
// simulated provider's 'Mode démo' form or Stripe's Payment Element (its own chunk), then the server
// records the payment through the one confirm path (/api/payment/confirm), which activates the voucher.
import { useEffect, useState } from "react";
import type { ComponentType } from "preact";
import { PAYMENT_MESSAGES } from "../../lib/payments/rules.ts";
import {
  confirmSimulatedCard,
  confirmUntilSettled,
  emitPaymentError,
  loadConfig,
  type PaymentConfig,
  PaymentFailure,
  statusText,
} from "../payments/client.ts";
import { DEMO_TEST_CARDS, groupDigits } from "../payments/test_cards.ts";
import type { StripeCardProps } from "../payments/StripeCard.tsx";
import { PRIMARY_BUTTON } from "../payments/styles.ts";

export interface VoucherPaymentProps {
  intent: { clientSecret: string; paymentIntentId: string; amountFormatted: string };
  onDone: (message: string) => void;
  onBusy: (busy: boolean) => void;
}

export default function VoucherPayment({ intent, onDone, onBusy }: VoucherPaymentProps) {
  const [config, setConfig] = useState<PaymentConfig | null>(null);
  const [StripeCard, setStripeCard] = useState<ComponentType<StripeCardProps> | null>(null);
  const [alert, setAlert] = useState<{ tone: "error" | "info" | "success"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [number, setNumber] = useState("");

  const fail = (error: unknown) => {
    const text = error instanceof PaymentFailure ? error.message : PAYMENT_MESSAGES.unexpected;
    setAlert({ tone: "error", text });
    setBusy(false);
    emitPaymentError(text);
  };

  useEffect(() => {
    (async () => {
      try {
        const loaded = await loadConfig();
        if (loaded.provider === "stripe") {
          const module = await import("../payments/StripeCard.tsx");
          setStripeCard(() => module.default);
        }
        setConfig(loaded);
      } catch (error) {
        fail(error);
      }
    })();
  }, []);

  const afterProvider = async (status: string) => {
    if (status !== "succeeded" && status !== "processing") {
      return fail(new PaymentFailure(statusText(status)));
    }
    setAlert({ tone: "info", text: statusText(status) });
    try {
      const result = await confirmUntilSettled(
        intent.paymentIntentId,
        (text) => setAlert({ tone: "info", text }),
      );
      if (result.paymentStatus === "succeeded" || result.paymentStatus === "processing") {
        setAlert({ tone: result.paymentStatus === "succeeded" ? "success" : "info", text: result.message });
        onDone(result.message);
        return;
      }
      fail(new PaymentFailure(statusText(result.paymentStatus)));
    } catch (error) {
      fail(error);
    }
  };

  const start = () => {
    setBusy(true);
    onBusy(true);
    setAlert(null);
  };

  return (
    <div class="space-y-4" data-testid="voucher-payment">
      {!config && !alert && (
        <p role="status" class="text-sm text-slate-600">Préparation du paiement sécurisé…</p>
      )}
      {config?.provider === "simulated" && (
        <form
          class="space-y-3"
          data-testid="demo-card-form"
          onSubmit={async (event) => {
            event.preventDefault();
            if (busy) return;
            start();
            try {
              await afterProvider(await confirmSimulatedCard(intent.paymentIntentId, number));
            } catch (error) {
              fail(error);
            }
          }}
        >
          <div class="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
            <p class="font-semibold">
              <span class="mr-2 rounded-full bg-amber-500 px-2.5 py-0.5 text-xs font-bold uppercase text-white">
                {PAYMENT_MESSAGES.demoMode}
              </span>
              Aucun paiement réel n'est effectué.
            </p>
            <ul class="mt-2 grid gap-1">
              {DEMO_TEST_CARDS.map((card) => (
                <li key={card.number}>
                  <button
                    type="button"
                    class="w-full rounded-lg bg-white/70 px-3 py-1.5 text-left hover:bg-white"
                    onClick={() => setNumber(groupDigits(card.number))}
                  >
                    <span class="font-mono">{groupDigits(card.number)}</span>{" "}
                    <span class="text-xs text-amber-900">{card.label}</span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
          <label class="block text-sm font-medium text-slate-700">
            Numéro de carte
            <input
              name="cardNumber"
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="4242 4242 4242 4242"
              maxLength={23}
              value={number}
              onInput={(e) => setNumber(groupDigits((e.target as HTMLInputElement).value))}
              class="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2.5 font-mono"
              required
            />
          </label>
          <button type="submit" class={PRIMARY_BUTTON} disabled={busy} data-testid="pay-submit">
            {busy ? "Validation…" : `Payer ${intent.amountFormatted}`}
          </button>
        </form>
      )}
      {config?.provider === "stripe" && StripeCard && (
        <StripeCard
          publicKey={config.publicKey}
          clientSecret={intent.clientSecret}
          amountLabel={intent.amountFormatted}
          busy={busy}
          onStart={start}
          onStatus={afterProvider}
          onError={(text) => fail(new PaymentFailure(text))}
        />
      )}
      {alert && (
        <div
          role={alert.tone === "error" ? "alert" : "status"}
          data-testid="payment-alert"
          class={`rounded-lg border px-4 py-3 text-sm ${
            alert.tone === "error"
              ? "border-red-200 bg-red-50 text-red-800"
              : alert.tone === "success"
              ? "border-emerald-200 bg-emerald-50 text-emerald-800"
              : "border-sky-200 bg-sky-50 text-sky-900"
          }`}
        >
          {alert.text}
        </div>
      )}
    </div>
  );
}
