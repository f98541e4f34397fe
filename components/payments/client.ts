// The browser side of card payments (spec 000 §7 'Payment by card', §8): the calls to the payment API
// and the French message of each outcome. Shared by the PaymentSection island (the return from a
// Stripe redirect) and the payment form loaded when its dialog opens. Browser-only, no server code.
import { api, ApiError, submitOnce } from "../ui/api.ts";
import { intentStatusMessage, PAYMENT_MESSAGES, type PaymentType } from "../../lib/payments/rules.ts";

export interface PaymentConfig {
  publicKey: string;
  provider: "stripe" | "simulated" | null;
  demo: boolean;
}

export interface Intent {
  clientSecret: string;
  paymentIntentId: string;
  amount: number;
  amountFormatted: string;
}

export interface Confirmation {
  paymentType: PaymentType;
  paymentStatus: string;
  message: string;
}

/** A failure with the French text to show. */
export class PaymentFailure extends Error {}

/** The server's `error` field, else its `message`, else `fallback` (spec 000 §8). */
function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.body.error || error.body.message || fallback;
  return fallback;
}

export async function loadConfig(): Promise<PaymentConfig> {
  try {
    const { results } = await api<{ results: PaymentConfig }>("GET", "/api/payment/config");
    if (!results.provider) throw new Error("no provider");
    return results;
  } catch {
    throw new PaymentFailure(PAYMENT_MESSAGES.setupError);
  }
}

export async function createIntent(dealToken: string, paymentType: PaymentType): Promise<Intent> {
  try {
    return await api<Intent>("POST", "/api/payment/intent", { dealToken, paymentType });
  } catch (error) {
    throw new PaymentFailure(serverMessage(error, PAYMENT_MESSAGES.intentError));
  }
}

/** The workshop cart's checkout (POST /api/cart/checkout): an intent like a deal's. */
export async function createCartIntent(): Promise<Intent> {
  try {
    return await submitOnce<Intent>("/api/cart/checkout", {});
  } catch (error) {
    throw new PaymentFailure(serverMessage(error, PAYMENT_MESSAGES.intentError));
  }
}

export async function confirmOnServer(paymentIntentId: string): Promise<Confirmation> {
  try {
    return await api<Confirmation>("POST", "/api/payment/confirm", { paymentIntentId });
  } catch (error) {
    throw new PaymentFailure(serverMessage(error, PAYMENT_MESSAGES.confirmError));
  }
}

/** The simulated provider's card form ('Mode démo'): the card's refusal is the provider's message. */
export async function confirmSimulatedCard(paymentIntentId: string, cardNumber: string): Promise<string> {
  try {
    const { results } = await api<{ results: { status: string } }>("POST", "/api/payment/simulated/confirm", {
      paymentIntentId,
      cardNumber,
    });
    return results.status;
  } catch (error) {
    throw new PaymentFailure(serverMessage(error, PAYMENT_MESSAGES.cardError));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** After the provider accepted the card: the server records the payment. A 'processing' payment is
 * asked again every few seconds (about 40 s at most) until it succeeds or fails. */
export async function confirmUntilSettled(
  paymentIntentId: string,
  onProgress: (text: string) => void,
  tries = 16,
): Promise<Confirmation> {
  for (let attempt = 0;; attempt++) {
    const result = await confirmOnServer(paymentIntentId);
    if (result.paymentStatus !== "processing" || attempt >= tries) return result;
    onProgress(PAYMENT_MESSAGES.processing);
    await sleep(2500);
  }
}

/** The text of a confirmation that did not succeed (processing, failed, anything else). */
export function statusText(status: string): string {
  return intentStatusMessage(status);
}

/** The notice shown after the page reloads (the deal is read again from the server). */
const NOTICE_KEY = "deal-payment-notice";

export function keepNoticeForReload(text: string, type: "success" | "info" = "success"): void {
  try {
    sessionStorage.setItem(NOTICE_KEY, JSON.stringify({ text, type }));
  } catch {
    // Private browsing without storage: the page still reloads with the new status.
  }
}

export function takeKeptNotice(): { text: string; type: "success" | "info" } | null {
  try {
    const raw = sessionStorage.getItem(NOTICE_KEY);
    if (!raw) return null;
    sessionStorage.removeItem(NOTICE_KEY);
    const parsed = JSON.parse(raw);
    return typeof parsed?.text === "string"
      ? { text: parsed.text, type: parsed.type === "info" ? "info" : "success" }
      : null;
  } catch {
    return null;
  }
}

/** The event the payment dialog emits on every error (spec 000 §8). */
export const PAYMENT_ERROR_EVENT = "paymentError";

export function emitPaymentError(message: string): void {
  globalThis.dispatchEvent(new CustomEvent(PAYMENT_ERROR_EVENT, { detail: { message } }));
}
