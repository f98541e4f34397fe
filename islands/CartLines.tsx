// The cart page's lines (/panier): each held date with the time its hold has left, its quantity
// (PATCH /api/cart/line/{id}: held again for CART_HOLD_MINUTES), its removal (DELETE), and the totals
// (rules.sessionPrice, as the server computes them), and the pay step: a customer pays the cart with the
// quote page's card form (POST /api/cart/checkout for the intent; the simulated card offline, Stripe's
// Payment Element with a key), then a success screen leading to 'Vos sessions'. The form is a chunk
// loaded when the visitor clicks 'Payer'.
import { useEffect, useRef, useState } from "react";
import type { ComponentType } from "preact";
import type { PaymentFormProps } from "../components/payments/PaymentForm.tsx";
import { confirmUntilSettled, createCartIntent } from "../components/payments/client.ts";
import { CHECKOUT_MESSAGES as C, leftInCartMessage } from "../lib/orders/rules.ts";
import { api, ApiError } from "../components/ui/api.ts";
import { refreshHeaderCart, setHeaderCartCount } from "../components/layout/header_cart.ts";
import { Notice, type NoticeState } from "../components/ui/Notice.tsx";
import { formatEuros } from "../lib/money.ts";
import { type AppliedCartVoucher, CartVoucher } from "../components/vouchers/CartVoucher.tsx";
import { voucherDiscount } from "../lib/vouchers/rules.ts";
import {
  formatCountdown,
  formatDateTime,
  holdSecondsLeft,
  SESSION_MESSAGES as M,
  SNACKBAR_MS,
} from "../lib/sessions/rules.ts";

/** The checkout's answer when the gift voucher paid the whole order (no card payment follows). */
class PaidByVoucher extends Error {}

export interface CartLineProps {
  id: string;
  sessionTitle: string;
  sessionSlug: string;
  city: string;
  dtstart: number;
  quantity: number;
  maxQuantity: number;
  unitPrice: number;
  total: number;
  expiresAt: number;
}

export interface CartLinesProps {
  lines: CartLineProps[];
  /** The server's clock when the page was rendered (unix seconds). */
  now: number;
  /** A signed-in customer may pay; others are asked to sign in first. */
  canPay: boolean;
  /** Back from the bank's page (Stripe's redirect): the intent to confirm on the server. */
  returnedIntent: string | null;
  /** The gift voucher applied to the customer's cart: its remaining cents (lib/vouchers). */
  voucher?: AppliedCartVoucher | null;
  /** The cart is empty because a hold expired (the server's word, for the page as first rendered). */
  holdExpired?: boolean;
}

export default function CartLines(
  { lines: initial, now, canPay, returnedIntent, voucher: initialVoucher = null, holdExpired = false }:
    CartLinesProps,
) {
  // A line the server refused as expired (409 on a change) leaves the list: the cart remembers why.
  const [expiredAway, setExpiredAway] = useState(holdExpired);
  const [lines, setLines] = useState(initial);
  const [voucher, setVoucher] = useState<AppliedCartVoucher | null>(initialVoucher);
  const [Form, setForm] = useState<ComponentType<PaymentFormProps> | null>(null);
  const [paying, setPaying] = useState(false);
  const [done, setDone] = useState<{ message: string; success: boolean } | null>(null);
  const [clock, setClock] = useState(now);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  // Places still held in the cart once paid (added during the payment: not part of the order).
  const [leftInCart, setLeftInCart] = useState(0);
  const say = (type: NoticeState["type"], text: string) => setNotice({ type, text, key: Date.now() });
  const doneRef = useRef<HTMLDivElement>(null);
  const paymentRef = useRef<HTMLElement>(null);

  // The cart collapses into the success block (or the pay panel opens below the lines): on a phone the
  // page keeps its scroll, so the buyer would see only the footer. Bring the block into view and focus it.
  useEffect(() => {
    const block = doneRef.current;
    // A paid cart is empty: the header's link goes (an unpaid one keeps its places).
    if (done?.success) setHeaderCartCount(0);
    if (!done || !block) return;
    block.scrollIntoView({ block: "start", behavior: "smooth" });
    block.focus({ preventScroll: true });
  }, [done]);
  useEffect(() => {
    if (paying) paymentRef.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [paying]);

  useEffect(() => {
    // The countdown follows the server's clock, whatever the visitor's clock says.
    const offset = now - Date.now() / 1000;
    const timer = setInterval(() => setClock(Math.floor(Date.now() / 1000 + offset)), 1000);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    if (!returnedIntent) return;
    confirmUntilSettled(returnedIntent, () => {}).then((result) =>
      setDone({ message: result.message, success: result.paymentStatus === "succeeded" })
    ).catch((error) => say("error", error instanceof Error ? error.message : C.orderChanged));
  }, []);

  useEffect(() => {
    if (!done?.success) return;
    api<{ results: { lines: { quantity: number }[] } }>("GET", "/api/cart")
      .then(({ results }) => setLeftInCart(results.lines.reduce((sum, l) => sum + l.quantity, 0)))
      .catch(() => {});
  }, [done?.success]);

  /** The checkout extends the holds to cover the payment: the countdowns follow. */
  const startIntent = async () => {
    const intent = await createCartIntent();
    try {
      const { results } = await api<{ results: { lines: { id: string; expiresAt: number }[] } }>(
        "GET",
        "/api/cart",
      );
      setLines((list) =>
        list.map((l) => ({
          ...l,
          expiresAt: results.lines.find((r) => r.id === l.id)?.expiresAt ?? l.expiresAt,
        }))
      );
    } catch {
      // The countdown is only shown: the server holds the places whatever it says.
    }
    return intent;
  };

  const openPayment = () => {
    setPaying(true);
    import("../components/payments/PaymentForm.tsx").then((module) => setForm(() => module.default))
      .catch(() => say("error", C.orderChanged));
  };

  if (done) {
    return (
      <div
        ref={doneRef}
        tabIndex={-1}
        class="scroll-mt-4 space-y-4 rounded-xl border border-emerald-200 bg-emerald-50 p-6 outline-none"
        data-testid="checkout-done"
        role="status"
      >
        <h2 class="text-xl font-bold text-emerald-900">{done.success ? C.successTitle : C.payTitle}</h2>
        <p class="text-emerald-900">{done.message}</p>
        {done.success && <p class="text-emerald-900">{C.successText}</p>}
        {done.success && leftInCart > 0 && (
          <p class="text-amber-800" data-testid="checkout-left-in-cart">
            {leftInCartMessage(leftInCart)}{" "}
            <a href="/panier" class="font-semibold underline">Voir mon panier</a>
          </p>
        )}
        <a
          href="/dashboard/client/sessions"
          class="inline-block rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
        >
          {C.toSessions}
        </a>
      </div>
    );
  }

  const live = lines.filter((line) => holdSecondsLeft(line.expiresAt, clock) > 0);
  const total = live.reduce((sum, line) => sum + line.total, 0);
  // What the voucher pays, as the checkout will reserve it (the server's figure is the one charged).
  const discount = voucher ? voucherDiscount(voucher.remaining, total) : 0;
  const toPay = total - discount;
  /** The checkout: a card intent, or the order paid by the voucher alone (no card form then). */
  const startCheckout = async () => {
    const answer = await startIntent() as Awaited<ReturnType<typeof createCartIntent>> & {
      paidByVoucher?: boolean;
      message?: string;
    };
    if (answer.paidByVoucher) {
      setDone({ message: answer.message ?? C.paid, success: true });
      // Stops the card form: the success screen replaces it.
      throw new PaidByVoucher(answer.message ?? C.paid);
    }
    return answer;
  };
  const payWithVoucher = async () => {
    setPaying(true);
    try {
      await startCheckout();
      // Something was left to pay after all (the voucher was used meanwhile): the card form takes over.
      openPayment();
    } catch (error) {
      if (error instanceof PaidByVoucher) return;
      setPaying(false);
      say("error", error instanceof Error && error.message ? error.message : C.orderChanged);
    }
  };

  const change = async (line: CartLineProps, quantity: number) => {
    try {
      const answer = await api<{ results: { quantity: number; expiresAt: number }; message: string }>(
        "PATCH",
        `/api/cart/line/${line.id}`,
        { quantity },
      );
      const q = answer.results.quantity;
      setLines((list) =>
        list.map((l) =>
          l.id === line.id
            ? { ...l, quantity: q, total: l.unitPrice * q, expiresAt: answer.results.expiresAt }
            : l
        )
      );
      say("success", answer.message);
    } catch (error) {
      say("error", error instanceof ApiError ? error.message : M.lineNotFound);
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) {
        setLines((list) => list.filter((l) => l.id !== line.id));
        if (error.message === M.expired) setExpiredAway(true);
      }
    }
    refreshHeaderCart();
  };

  const remove = async (line: CartLineProps) => {
    try {
      const answer = await api<{ message: string }>("DELETE", `/api/cart/line/${line.id}`);
      setLines((list) => list.filter((l) => l.id !== line.id));
      say("success", answer.message);
    } catch (error) {
      say("error", error instanceof ApiError ? error.message : M.lineNotFound);
    }
    refreshHeaderCart();
  };

  return (
    <div class="space-y-4" data-testid="cart">
      {live.length === 0 && (
        // A hold that ran out (on the page's countdown, refused by the server, or before the page loaded)
        // is said as such: the cart is not simply empty.
        expiredAway || lines.length > live.length
          ? (
            <p role="status" class="rounded-lg bg-amber-50 p-3 text-amber-900" data-testid="cart-expired">
              {M.expired}
            </p>
          )
          : <p class="text-slate-600">{M.emptyCart}</p>
      )}
      <ul class="space-y-3">
        {live.map((line) => (
          <li key={line.id} data-testid="cart-line" class="rounded-xl border p-4">
            <div class="flex flex-wrap items-center justify-between gap-3">
              <div>
                <a href={`/session/${line.sessionSlug}`} class="font-semibold underline">
                  {line.sessionTitle}
                </a>
                <p class="text-sm text-slate-600">{line.city} · {formatDateTime(line.dtstart)}</p>
                <p class="text-sm text-amber-700" data-testid="cart-line-hold">
                  Places gardées encore {formatCountdown(holdSecondsLeft(line.expiresAt, clock))}
                </p>
              </div>
              <label class="text-sm">
                Places{" "}
                <select
                  disabled={paying}
                  value={String(line.quantity)}
                  class="ml-1 rounded border px-2 py-1"
                  onChange={(event) => change(line, Number((event.target as HTMLSelectElement).value))}
                >
                  {Array.from({ length: Math.min(line.maxQuantity, 50) }, (_, i) => i + 1).map((n) => (
                    <option key={n} value={String(n)}>{n}</option>
                  ))}
                </select>
              </label>
              <p class="font-semibold" data-testid="cart-line-total">{formatEuros(line.total)}</p>
              <button
                type="button"
                class="rounded border px-3 py-1 text-sm"
                disabled={paying}
                onClick={() => remove(line)}
              >
                Retirer
              </button>
            </div>
          </li>
        ))}
      </ul>
      <p class="flex justify-between border-t pt-3 text-lg font-semibold">
        <span>Total TTC</span>
        <span data-testid="cart-total">{formatEuros(total)}</span>
      </p>
      {discount > 0 && (
        <>
          <p class="flex justify-between text-emerald-800">
            <span>Bon cadeau</span>
            <span data-testid="cart-discount">−{formatEuros(discount)}</span>
          </p>
          <p class="flex justify-between text-lg font-semibold">
            <span>Reste à payer</span>
            <span data-testid="cart-to-pay">{formatEuros(toPay)}</span>
          </p>
        </>
      )}
      {live.length > 0 && canPay && (
        <CartVoucher voucher={voucher} disabled={paying} onChange={setVoucher} say={say} />
      )}
      {live.length > 0 && !canPay && (
        <p role="note" class="rounded-lg bg-sky-50 p-3 text-sky-900">
          {C.loginRequired}{" "}
          <a href="/login?redirect=%2Fpanier" class="font-semibold underline">Se connecter</a>
        </p>
      )}
      {live.length > 0 && canPay && !paying && (
        <button
          type="button"
          class="w-full rounded-lg bg-brand-600 px-4 py-3 text-lg font-semibold text-white hover:bg-brand-700"
          data-testid="cart-pay"
          onClick={toPay === 0 && discount > 0 ? payWithVoucher : openPayment}
        >
          {toPay === 0 && discount > 0 ? "Régler avec mon bon cadeau" : `${C.pay} ${formatEuros(toPay)}`}
        </button>
      )}
      {paying && (
        <section
          ref={paymentRef}
          class="scroll-mt-4 rounded-xl border p-4"
          aria-label={C.payTitle}
          data-testid="cart-payment"
        >
          <h2 class="mb-1 text-lg font-semibold">{C.payTitle}</h2>
          <p class="mb-3 text-sm text-slate-600">{C.holdNote}</p>
          {Form
            ? (
              <Form
                amount={toPay}
                startIntent={startCheckout}
                onSettled={(message, type) => setDone({ message, success: type === "success" })}
              />
            )
            : <p class="text-sm text-slate-600" role="status">Préparation du paiement sécurisé…</p>}
        </section>
      )}
      <Notice notice={notice} onDone={() => setNotice(null)} durationMs={SNACKBAR_MS} />
    </div>
  );
}
