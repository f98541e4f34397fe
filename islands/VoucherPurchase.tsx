// 'Offrir un bon cadeau' (spec 000 §2, issue 12): the purchase form — recipient, their email, the day
// the voucher is emailed to them, a message, the name it is signed with; the price is fixed (50 €) and
// there is no company field. On the dashboard it sits in a persistent dialog (800 px: Escape and clicks
// outside do not close it mid-purchase); on the public page /bons-cadeaux it is inline. Sending it asks
// the server for the voucher's payment (the amount is the server's); the card step is the one payment
// form of the quote page and the cart (components/payments/PaymentForm.tsx), a chunk loaded only then.
import { useState } from "react";
import type { ComponentType } from "preact";
import { Dialog } from "../components/ui/Dialog.tsx";
import { ApiError, submitOnce } from "../components/ui/api.ts";
import { Notice, type NoticeState } from "../components/ui/Notice.tsx";
import type { PaymentFormProps } from "../components/payments/PaymentForm.tsx";
import { formatEuros } from "../lib/money.ts";
import {
  VOUCHER_DIALOG_WIDTH,
  VOUCHER_MESSAGES as M,
  VOUCHER_PRICE_CENTS,
  VOUCHER_SNACKBAR_MS,
} from "../lib/vouchers/rules.ts";

export interface VoucherPurchaseProps {
  mode: "dialog" | "inline";
  /** The customer's own name, the default signature. */
  senderName: string;
  /** YYYY-MM-DD in Paris, the earliest send date. */
  today: string;
}

interface VoucherIntent {
  voucherId: string;
  clientSecret: string;
  paymentIntentId: string;
  amount: number;
  amountCents: number;
  amountFormatted: string;
}

const INPUT =
  "mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 outline-none focus:ring-2 focus:ring-brand-500";
const BUTTON =
  "rounded-full bg-brand-500 px-5 py-2.5 font-semibold text-white shadow-sm hover:bg-brand-600 disabled:opacity-60";

export default function VoucherPurchase(props: VoucherPurchaseProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  if (props.mode === "inline") return <PurchaseFlow {...props} onBusy={setBusy} />;
  return (
    <>
      <button type="button" class={BUTTON} onClick={() => setOpen(true)} data-testid="voucher-offer">
        Offrir un bon cadeau
      </button>
      <Dialog
        open={open}
        onClose={() => !busy && setOpen(false)}
        title="Offrir un bon cadeau"
        width={VOUCHER_DIALOG_WIDTH}
        persistent
        testId="voucher-dialog"
      >
        <PurchaseFlow {...props} onBusy={setBusy} />
      </Dialog>
      {notice && <Notice notice={notice} onDone={() => setNotice(null)} durationMs={VOUCHER_SNACKBAR_MS} />}
    </>
  );
}

function PurchaseFlow(
  { senderName, today, onBusy }: VoucherPurchaseProps & { onBusy: (busy: boolean) => void },
) {
  const [form, setForm] = useState({
    recipientName: "",
    recipientEmail: "",
    sendOn: today,
    message: "",
    senderName,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState("");
  const [sending, setSending] = useState(false);
  const [intent, setIntent] = useState<VoucherIntent | null>(null);
  const [Payment, setPayment] = useState<ComponentType<PaymentFormProps> | null>(null);

  const set = (name: keyof typeof form) => (e: Event) =>
    setForm({ ...form, [name]: (e.target as HTMLInputElement).value });

  const submit = async (event: Event) => {
    event.preventDefault();
    const missing: Record<string, string> = {};
    for (const name of ["recipientName", "recipientEmail", "sendOn", "senderName"] as const) {
      if (!form[name].trim()) missing[name] = M.required;
    }
    setErrors(missing);
    if (Object.keys(missing).length) return setError(M.invalidForm);
    setSending(true);
    setError("");
    onBusy(true);
    try {
      const [{ results }, module] = await Promise.all([
        submitOnce<{ results: VoucherIntent }>("/api/customer/discounts", form),
        import("../components/payments/PaymentForm.tsx"),
      ]);
      setPayment(() => module.default);
      setIntent(results);
    } catch (e) {
      if (e instanceof ApiError) {
        setErrors(e.body.errors ?? {});
        setError(e.body.error || e.body.message || M.paymentError);
      } else setError(M.paymentError);
      onBusy(false);
    } finally {
      setSending(false);
    }
  };

  if (intent && Payment) {
    return (
      <div data-testid="voucher-payment">
        <Payment
          startIntent={() => Promise.resolve(intent)}
          amount={intent.amountCents}
          onSettled={() => {
            onBusy(false);
            location.assign(`/dashboard/client/bons-cadeaux?paid=${encodeURIComponent(intent.voucherId)}`);
          }}
          onBusy={onBusy}
        />
      </div>
    );
  }

  const field = (name: keyof typeof form, label: string, input: preact.JSX.Element) => (
    <label class="block text-sm font-medium text-slate-700">
      {label}
      {input}
      {errors[name] && <span class="mt-1 block text-sm text-red-700">{errors[name]}</span>}
    </label>
  );

  return (
    <form class="space-y-4" onSubmit={submit} noValidate data-testid="voucher-form">
      <p class="rounded-lg bg-brand-50 px-4 py-3 text-brand-900">
        Montant du bon cadeau :{" "}
        <strong data-testid="voucher-price">{formatEuros(VOUCHER_PRICE_CENTS)}</strong>{" "}
        — valable un an sur tous nos ateliers cocktails.
      </p>
      <div class="grid gap-4 sm:grid-cols-2">
        {field(
          "recipientName",
          "Nom du bénéficiaire",
          <input
            name="recipientName"
            class={INPUT}
            maxLength={100}
            value={form.recipientName}
            onInput={set("recipientName")}
            required
          />,
        )}
        {field(
          "recipientEmail",
          "Email du bénéficiaire",
          <input
            name="recipientEmail"
            type="email"
            class={INPUT}
            maxLength={254}
            value={form.recipientEmail}
            onInput={set("recipientEmail")}
            required
          />,
        )}
        {field(
          "sendOn",
          "Date d'envoi",
          <input
            name="sendOn"
            type="date"
            class={INPUT}
            min={today}
            value={form.sendOn}
            onInput={set("sendOn")}
            required
          />,
        )}
        {field(
          "senderName",
          "De la part de",
          <input
            name="senderName"
            class={INPUT}
            maxLength={100}
            value={form.senderName}
            onInput={set("senderName")}
            required
          />,
        )}
      </div>
      {field(
        "message",
        "Message (facultatif)",
        <textarea
          name="message"
          class={INPUT}
          rows={3}
          maxLength={500}
          value={form.message}
          onInput={set("message")}
        />,
      )}
      {error && (
        <p role="alert" class="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {error}
        </p>
      )}
      <button type="submit" class={BUTTON} disabled={sending} data-testid="voucher-submit">
        {sending ? "Préparation du paiement…" : `Payer ${formatEuros(VOUCHER_PRICE_CENTS)}`}
      </button>
    </form>
  );
}
