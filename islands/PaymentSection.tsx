// The payment buttons of the customer deal page ('Régler votre prestation') and of the quote payment
// page (spec 000 §2, §4, §8). Two modes:
// - "pay" (the deal's own customer): one button per payment open now (deposit and total, or the
//   balance), each opening the 'Paiement sécurisé' dialog. The dialog's form — and Stripe.js with it —
//   is a separate chunk loaded only when the dialog opens, so the page's JavaScript stays small.
// - "login" (a visitor): the buttons open the login/register dialog with the message of the payment
//   ('Vous pouvez désormais régler votre acompte'…); after login the page reloads, and the server then
//   links the customer to the deal.
// After a payment the page reloads (the deal is read again). A success's message comes back from the
// server as a flash message (the deal page shows it with the new invoice's link, even when this island
// is gone because nothing is left to pay); a 'processing' one is kept here and shown for 5 s.
import { Icon } from "../components/ui/Icon.tsx";
import { useEffect, useRef, useState } from "react";
import type { ComponentType } from "preact";
import { formatEuros } from "../lib/money.ts";
import { PAYMENT_MESSAGES } from "../lib/payments/rules.ts";
import type { PaymentOption } from "../components/deals/show/view.ts";
import type { PaymentFormProps } from "../components/payments/PaymentForm.tsx";
import type { AuthFormProps } from "./AuthForm.tsx";
import { Notice, type NoticeState } from "../components/ui/Notice.tsx";
import {
  confirmOnServer,
  keepNoticeForReload,
  PAYMENT_ERROR_EVENT,
  PaymentFailure,
  statusText,
  takeKeptNotice,
} from "../components/payments/client.ts";

export interface LoginButton {
  label: string;
  /** Shown above the login form (AuthForm's `message`). */
  message?: string;
}

export interface PaymentSectionProps {
  token: string;
  mode: "pay" | "login";
  /** "pay": the payments open now. */
  options?: PaymentOption[];
  /** "login": the buttons of a visitor. */
  loginButtons?: LoginButton[];
  /** The deal page also shows payment errors as a notice: 'Erreur de paiement: {detail}'. */
  errorNotices?: boolean;
}

/** Deal snackbars last 5000 ms (spec 000 §9). */
const NOTICE_MS = 5000;

const OPTION_BASE =
  "flex w-full flex-wrap items-center justify-between gap-x-3 gap-y-1 rounded-2xl px-5 py-3.5 text-left text-base font-semibold shadow-sm focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500";
const OPTION_PRIMARY = `${OPTION_BASE} bg-brand-500 text-white hover:bg-brand-600`;
const OPTION_SECONDARY_COLORS = "border-2 border-brand-500 bg-white text-brand-700 hover:bg-brand-50";
const LOGIN_BUTTON =
  "w-full rounded-2xl px-5 py-3.5 text-center text-base font-semibold shadow-sm focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500";
const OPTION_SECONDARY = `${OPTION_BASE} ${OPTION_SECONDARY_COLORS}`;

const CLOSE_BUTTON =
  "rounded-full px-2.5 py-0.5 text-2xl leading-none text-slate-500 hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500";

export default function PaymentSection(props: PaymentSectionProps) {
  return props.mode === "login" ? <LoginButtons {...props} /> : <PayButtons {...props} />;
}

function PayButtons({ token, options = [], errorNotices }: PaymentSectionProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [current, setCurrent] = useState<PaymentOption | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [Form, setForm] = useState<ComponentType<PaymentFormProps> | null>(null);
  const [loadError, setLoadError] = useState("");
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const busy = useRef(false);

  useEffect(() => {
    // The message of a payment made before the reload.
    const kept = takeKeptNotice();
    if (kept) setNotice({ type: kept.type, text: kept.text, key: Date.now() });
    // Back from a bank's authentication page: the server records the payment, the deal is read again.
    const query = new URLSearchParams(location.search);
    const intentId = query.get("payment_intent");
    if (intentId && query.get("redirect_status")) {
      history.replaceState(null, "", location.pathname);
      confirmOnServer(intentId).then((result) => {
        if (
          result.paymentStatus === "succeeded" || result.paymentStatus === "processing" ||
          result.paymentStatus === "refunding"
        ) {
          // A success's message is kept by the server for the reloaded page (with its invoice).
          if (result.paymentStatus !== "succeeded") {
            // Nothing payable on this page (paid or refused meanwhile): the reloaded page would have no
            // island to show the notice, so it is shown here.
            if (options.length === 0) {
              setNotice({ type: "info", text: result.message, key: Date.now() });
              return;
            }
            keepNoticeForReload(result.message, "info");
          }
          location.reload();
        } else {
          setNotice({
            type: "error",
            text: `Erreur de paiement: ${statusText(result.paymentStatus)}`,
            key: Date.now(),
          });
        }
      }).catch((error) => {
        const text = error instanceof PaymentFailure ? error.message : PAYMENT_MESSAGES.unexpected;
        setNotice({ type: "error", text: `Erreur de paiement: ${text}`, key: Date.now() });
      });
    }
    if (!errorNotices) return;
    const onError = (event: Event) => {
      const detail = (event as CustomEvent<{ message: string }>).detail;
      setNotice({
        type: "error",
        text: `Erreur de paiement: ${detail?.message ?? PAYMENT_MESSAGES.unexpected}`,
        key: Date.now(),
      });
    };
    globalThis.addEventListener(PAYMENT_ERROR_EVENT, onError);
    return () => globalThis.removeEventListener(PAYMENT_ERROR_EVENT, onError);
  }, []);

  const open = (option: PaymentOption) => {
    setCurrent(option);
    setAttempt(attempt + 1); // a fresh form (and intent request) each time the dialog opens
    setLoadError("");
    dialog.current?.showModal();
    if (!Form) {
      import("../components/payments/PaymentForm.tsx")
        .then((module) => setForm(() => module.default))
        .catch(() => setLoadError(PAYMENT_MESSAGES.setupError));
    }
  };

  const close = () => {
    if (busy.current) return;
    dialog.current?.close();
  };

  return (
    <>
      <div class="grid gap-3" data-testid="payment-options">
        {options.map((option, index) => (
          <button
            key={option.type}
            type="button"
            class={index === 0 ? OPTION_PRIMARY : OPTION_SECONDARY}
            data-payment-type={option.type}
            onClick={() => open(option)}
          >
            <span>{option.label}</span>
            <span class="whitespace-nowrap">{formatEuros(option.amount)}</span>
          </button>
        ))}
      </div>
      <dialog
        ref={dialog}
        aria-labelledby="payment-dialog-title"
        data-testid="payment-dialog"
        class="m-auto max-h-[calc(100dvh-1.5rem)] w-[calc(100vw-1.5rem)] max-w-[600px] overflow-y-auto rounded-2xl bg-white p-0 shadow-xl"
        onCancel={(event) => {
          if (busy.current) event.preventDefault();
        }}
        onClose={() => setCurrent(null)}
      >
        {current && (
          <div class="p-5 sm:p-6">
            <div class="mb-4 flex items-start justify-between gap-4">
              <h2 id="payment-dialog-title" class="flex items-center gap-2 text-lg font-bold">
                <Icon name="lock" class="h-5 w-5 text-emerald-600" />
                {PAYMENT_MESSAGES.secure}
              </h2>
              <button type="button" aria-label="Fermer" class={CLOSE_BUTTON} onClick={close}>×</button>
            </div>
            <p class="mb-4 flex flex-wrap items-baseline justify-between gap-2 rounded-xl bg-slate-50 px-4 py-3">
              <span class="text-sm text-slate-600">{current.label}</span>
              <strong class="text-xl" data-testid="payment-amount">{formatEuros(current.amount)}</strong>
            </p>
            {loadError
              ? (
                <p
                  role="alert"
                  class="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
                >
                  {loadError}
                </p>
              )
              : Form
              ? (
                <Form
                  key={attempt}
                  token={token}
                  paymentType={current.type}
                  amount={current.amount}
                  onBusy={(value) => {
                    busy.current = value;
                  }}
                  onSettled={(message, type) => {
                    busy.current = false;
                    // A success's message is kept by the server for the reloaded page, which shows it
                    // with a link to the new invoice; only 'processing' is remembered here.
                    if (type === "info") keepNoticeForReload(message, type);
                    location.reload();
                  }}
                />
              )
              : <p class="text-sm text-slate-600" role="status">Préparation du paiement sécurisé…</p>}
            <p class="mt-5 flex items-start gap-2 border-t border-slate-100 pt-4 text-xs text-slate-500">
              <Icon name="lock" class="mt-0.5 h-4 w-4 shrink-0" />
              {PAYMENT_MESSAGES.ssl}
            </p>
          </div>
        )}
      </dialog>
      <Notice notice={notice} onDone={() => setNotice(null)} durationMs={NOTICE_MS} />
    </>
  );
}

function LoginButtons({ loginButtons = [] }: PaymentSectionProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [opened, setOpened] = useState(0);
  const [Form, setForm] = useState<ComponentType<AuthFormProps> | null>(null);
  const [loadError, setLoadError] = useState(false);
  // The dialog is as wide as its card (spec: 500 px to log in, 800 px to register): its close button
  // sits on the card.
  const [mode, setMode] = useState<"login" | "register">("login");

  useEffect(() => {
    // Logged in: the page is rendered again for the customer (who is then linked to the deal).
    const reload = () => location.reload();
    globalThis.addEventListener("after-login", reload);
    return () => globalThis.removeEventListener("after-login", reload);
  }, []);

  const open = (button: LoginButton) => {
    setMessage(button.message);
    setMode("login");
    setOpened(opened + 1);
    setLoadError(false);
    dialog.current?.showModal();
    if (!Form) {
      import("./AuthForm.tsx").then((module) => setForm(() => module.default)).catch(() =>
        setLoadError(true)
      );
    }
  };

  return (
    <>
      <div class="grid gap-3" data-testid="login-buttons">
        {loginButtons.map((button, index) => (
          <button
            key={button.label}
            type="button"
            class={`${LOGIN_BUTTON} ${
              index === 0 ? "bg-brand-500 text-white hover:bg-brand-600" : OPTION_SECONDARY_COLORS
            }`}
            onClick={() => open(button)}
          >
            {button.label}
          </button>
        ))}
      </div>
      <dialog
        ref={dialog}
        aria-label="Connexion ou inscription"
        data-testid="login-dialog"
        class={`m-auto max-h-[calc(100dvh-1rem)] overflow-y-auto bg-transparent p-0 ${
          mode === "login" ? "w-[min(500px,calc(100vw-1rem))]" : "w-[min(800px,calc(100vw-1rem))]"
        }`}
      >
        <div class="relative">
          <button
            type="button"
            aria-label="Fermer"
            class={`absolute right-3 top-3 z-10 ${CLOSE_BUTTON}`}
            onClick={() => dialog.current?.close()}
          >
            ×
          </button>
          {loadError
            ? (
              <p role="alert" class="rounded-2xl bg-white p-6 text-sm text-red-700">
                Le formulaire de connexion n'a pas pu être chargé.{" "}
                <a class="underline" href={`/login?redirect=${encodeURIComponent(location.pathname)}`}>
                  Se connecter
                </a>
              </p>
            )
            : Form
            ? <Form key={opened} mode="login" stayOnPage message={message} onModeChange={setMode} />
            : <p class="rounded-2xl bg-white p-6 text-sm text-slate-600" role="status">Chargement…</p>}
        </div>
      </dialog>
    </>
  );
}
