// The admin's part of 'État des paiements': each payment the deal received (kind, card or manual,
// amount, date, what was refunded) with a 'Rembourser' action while something is refundable, and each
// refund with its status ('En attente', 'Remboursé', 'Échec') and, once issued, its credit note
// ('Avoir', GET /quote/invoice/{id}). The refund dialog (500 px) sends POST /api/deal/{id}/refunds —
// the amount typed in euros the French way, checked here against what remains refundable, sent as
// euros as the API reads amounts — and shows the API's French messages. A card refund is settled by
// the refunds job and its credit note by the billing job: while one is on its way, the list is read
// again every few seconds for a minute.
import { useEffect, useRef, useState } from "react";
import { DEAL_MESSAGES } from "../../../lib/deals/rules.ts";
import { eurosToCents } from "../../../lib/money.ts";
import { paidAtFr } from "../../../lib/deals/format.ts";
import { formatEuros } from "../../../lib/money.ts";
import {
  type LedgerPayment,
  ledgerSettling,
  PAYMENT_KIND_LABELS,
  PAYMENT_METHOD_LABELS,
  REFUND_MESSAGES,
  REFUND_STATUS_LABELS,
  refundableOf,
  type RefundStatus,
} from "../../../lib/payments/rules.ts";
import { issuedDocumentPath } from "../../../lib/billing/links.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { useDeal } from "./controller.tsx";
import { dealApi, failureMessage } from "./requests.ts";
import { BUTTON_LINE, BUTTON_MAIN, INPUT } from "./ui.tsx";

/** How often and how long the list is read again while a refund or its credit note is on its way. */
const POLL_MS = 5000;
const POLL_TIMES = 12;

const REFUND_LABELS = {
  title: "Paiements reçus",
  refund: "Rembourser",
  dialog: "Rembourser un paiement",
  amount: "Montant à rembourser",
  reason: "Motif du remboursement",
  confirm: "Confirmer le remboursement",
  amountFormat: "Veuillez saisir un montant valide (deux décimales au plus).",
  creditNote: "Avoir",
  commissionCreditNote: "Avoir de commission",
  creditNotePending: "Avoir en cours d'émission",
  overpayment: "Trop-perçu",
  overpaymentNote:
    "Paiement non dû (payé deux fois, paiement remplacé ou devis refusé) : non compté, remboursé automatiquement.",
  automatic: "Remboursement automatique",
} as const;

const TWO_DECIMALS = new Intl.NumberFormat("fr-FR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Cents as the amount field shows them: "1 234,50". */
export const amountFieldText = (cents: number) => TWO_DECIMALS.format(cents / 100);

const STATUS_CHIP: Record<RefundStatus, string> = {
  pending: "bg-amber-100 text-amber-900",
  succeeded: "bg-emerald-100 text-emerald-900",
  failed: "bg-red-100 text-red-800",
};

/** What the amount field holds, checked: cents, or the French message that says what is wrong. */
export function checkRefundAmount(text: string, refundable: number): { cents: number } | { error: string } {
  if (text.trim() === "") return { error: DEAL_MESSAGES.amountPositive };
  const cents = eurosToCents(text);
  if (cents === null) return { error: REFUND_LABELS.amountFormat };
  if (cents <= 0) return { error: DEAL_MESSAGES.amountPositive };
  if (cents > refundable) return { error: REFUND_MESSAGES.tooMuch };
  return { cents };
}

export function PaymentLedger() {
  const { ledger, reloadLedger } = useDeal();
  const [refunding, setRefunding] = useState<LedgerPayment | null>(null);
  const polls = useRef(0);

  useEffect(() => {
    if (!ledger || !ledgerSettling(ledger) || polls.current >= POLL_TIMES) return;
    const timer = setTimeout(() => {
      polls.current++;
      reloadLedger();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [ledger]);

  if (!ledger || ledger.length === 0) return null;
  return (
    <div class="mt-4 border-t border-slate-100 pt-3" data-testid="payment-ledger">
      <h4 class="text-sm font-semibold text-slate-900">{REFUND_LABELS.title}</h4>
      <ul class="mt-2 space-y-3">
        {ledger.map((payment) => {
          const refundable = refundableOf(payment);
          return (
            <li
              key={payment.id}
              class="rounded-lg border border-slate-200 p-3 text-sm"
              data-payment-id={payment.id}
            >
              <div class="flex items-start justify-between gap-3">
                <div class="min-w-0">
                  <p class="font-semibold text-slate-900">
                    {PAYMENT_KIND_LABELS[payment.kind]}
                    {payment.overpayment && (
                      <span
                        class="ml-2 rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-800"
                        data-testid="payment-overpayment"
                        title={REFUND_LABELS.overpaymentNote}
                      >
                        {REFUND_LABELS.overpayment}
                      </span>
                    )}
                  </p>
                  {payment.overpayment && <p class="text-xs text-red-800">{REFUND_LABELS.overpaymentNote}</p>}
                  <p class="text-xs text-slate-500">
                    {PAYMENT_METHOD_LABELS[payment.method]} ·{" "}
                    <span class="whitespace-nowrap">{paidAtFr(payment.paidAt)}</span>
                  </p>
                </div>
                <p class="shrink-0 whitespace-nowrap font-semibold tabular-nums">
                  {formatEuros(payment.amount)}
                </p>
              </div>
              {(payment.refunded > 0 || payment.pending > 0) && (
                <dl class="mt-2 space-y-0.5 text-xs">
                  {payment.refunded > 0 && (
                    <div class="flex justify-between gap-2" data-testid="payment-refunded">
                      <dt class="text-slate-600">Remboursé</dt>
                      <dd class="whitespace-nowrap tabular-nums">{formatEuros(payment.refunded)}</dd>
                    </div>
                  )}
                  {payment.pending > 0 && (
                    <div class="flex justify-between gap-2">
                      <dt class="text-slate-600">Remboursement en attente</dt>
                      <dd class="whitespace-nowrap tabular-nums">{formatEuros(payment.pending)}</dd>
                    </div>
                  )}
                </dl>
              )}
              {payment.refunds.length > 0 && (
                <ul class="mt-2 space-y-2 border-l-2 border-slate-200 pl-3" data-testid="payment-refunds">
                  {payment.refunds.map((refund) => (
                    <li key={refund.id} class="text-xs" data-refund-status={refund.status}>
                      <div class="flex flex-wrap items-center gap-x-2 gap-y-1">
                        <span class="font-medium text-slate-800">
                          Remboursement de <span class="whitespace-nowrap">{formatEuros(refund.amount)}</span>
                        </span>
                        <span
                          class={`rounded-full px-2 py-0.5 text-[11px] font-semibold ${
                            STATUS_CHIP[refund.status]
                          }`}
                        >
                          {REFUND_STATUS_LABELS[refund.status]}
                        </span>
                      </div>
                      <p class="mt-0.5 text-slate-500">
                        Demandé le {paidAtFr(refund.requestedAt)}
                        {refund.reason && <>· {refund.reason}</>}
                      </p>
                      {refund.status === "succeeded" && (refund.creditNote
                        ? (
                          <a
                            href={issuedDocumentPath(refund.creditNote.id)}
                            target="_blank"
                            rel="noopener"
                            class="mt-1 inline-flex items-center gap-1 font-semibold text-brand-700 underline"
                            data-testid="credit-note"
                          >
                            {REFUND_LABELS.creditNote} {refund.creditNote.number}
                          </a>
                        )
                        : <p class="mt-1 italic text-slate-500">{REFUND_LABELS.creditNotePending}</p>)}
                      {refund.commissionCreditNote && (
                        <a
                          href={issuedDocumentPath(refund.commissionCreditNote.id)}
                          target="_blank"
                          rel="noopener"
                          class="mt-1 ml-3 inline-flex items-center gap-1 font-semibold text-brand-700 underline"
                          data-testid="commission-credit-note"
                        >
                          {REFUND_LABELS.commissionCreditNote} {refund.commissionCreditNote.number}
                        </a>
                      )}
                    </li>
                  ))}
                </ul>
              )}
              {refundable > 0 && (
                <div class="mt-3 flex justify-end">
                  <button
                    type="button"
                    class={`${BUTTON_LINE} px-3 py-1.5 text-xs`}
                    onClick={() => setRefunding(payment)}
                    data-testid="refund-open"
                  >
                    {REFUND_LABELS.refund}
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {refunding && (
        <RefundDialog
          payment={refunding}
          onClose={() => setRefunding(null)}
          onDone={() => {
            polls.current = 0;
          }}
        />
      )}
    </div>
  );
}

function RefundDialog({ payment, onClose, onDone }: {
  payment: LedgerPayment;
  onClose: () => void;
  onDone: () => void;
}) {
  const { deal, notify, reloadLedger } = useDeal();
  const refundable = refundableOf(payment);
  const [amount, setAmount] = useState(() => amountFieldText(refundable));
  const [reason, setReason] = useState("");
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const checked = checkRefundAmount(amount, refundable);
  const problem = "error" in checked && (touched || amount.trim() !== "") ? checked.error : null;

  const confirm = async (event: Event) => {
    event.preventDefault();
    setTouched(true);
    if (!("cents" in checked)) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await dealApi.refund(deal.id, {
        paymentId: payment.id,
        amount: checked.cents / 100,
        reason: reason.trim(),
      });
      notify({
        type: "success",
        text: answer.message ?? REFUND_MESSAGES.requested,
        durationMs: 6000,
        statusLink: false,
      });
      onDone();
      await reloadLedger();
      onClose();
    } catch (failure) {
      setError(failureMessage(failure, REFUND_MESSAGES.error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={() => !busy && onClose()}
      title={REFUND_LABELS.dialog}
      width={500}
      testId="refund-dialog"
    >
      <form onSubmit={confirm} noValidate>
        <p class="text-sm text-slate-700">
          {PAYMENT_KIND_LABELS[payment.kind]} · {PAYMENT_METHOD_LABELS[payment.method]} du{" "}
          {paidAtFr(payment.paidAt)} :{" "}
          <strong class="whitespace-nowrap">{formatEuros(payment.amount)}</strong>
        </p>
        <p class="mt-1 text-sm text-slate-700" data-testid="refundable">
          Montant remboursable : <strong class="whitespace-nowrap">{formatEuros(refundable)}</strong>
        </p>
        <label for="refund-amount" class="mt-4 block text-sm font-medium text-slate-700">
          {REFUND_LABELS.amount}
        </label>
        <div class="mt-1 flex items-center gap-2">
          <input
            id="refund-amount"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            class={`${INPUT} ${problem ? "border-red-500" : ""}`}
            value={amount}
            aria-invalid={problem ? "true" : undefined}
            aria-describedby={problem ? "refund-amount-error" : undefined}
            onInput={(e) => {
              setAmount((e.target as HTMLInputElement).value);
              setError(null);
            }}
            onBlur={() => setTouched(true)}
          />
          <span class="text-sm font-semibold text-slate-600">€</span>
        </div>
        {problem && (
          <p id="refund-amount-error" class="mt-1 text-xs text-red-600" data-error-for="amount">{problem}</p>
        )}
        <label for="refund-reason" class="mt-4 block text-sm font-medium text-slate-700">
          {REFUND_LABELS.reason}
        </label>
        <textarea
          id="refund-reason"
          rows={3}
          maxLength={500}
          class={`${INPUT} mt-1`}
          value={reason}
          onInput={(e) => setReason((e.target as HTMLTextAreaElement).value)}
        />
        <p class="mt-1 text-xs text-slate-500">Le motif figure sur l'avoir.</p>
        <p class="mt-3 rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-600">
          {payment.method === "card"
            ? "Le remboursement est envoyé au prestataire de paiement ; l'avoir est émis dès qu'il est confirmé."
            : "Paiement manuel : le remboursement est enregistré aussitôt, le virement au client reste à faire."}
        </p>
        {error && <p role="alert" class="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">{error}
        </p>}
        <div class="mt-6 flex flex-wrap justify-end gap-2">
          <button type="button" class={BUTTON_LINE} onClick={onClose} disabled={busy}>Annuler</button>
          <button
            type="submit"
            class={BUTTON_MAIN}
            disabled={busy || !("cents" in checked)}
            data-testid="refund-confirm"
          >
            {REFUND_LABELS.confirm}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
