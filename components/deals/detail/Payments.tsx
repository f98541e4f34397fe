// 'État des paiements' (spec 001 §2.2, §4, §5): nothing paid, deposit paid with the balance pending,
// or fully paid (with the deposit/balance breakdown when both were paid), and for an admin the manual
// payment buttons and their dialog (500 px; amount in € with step 0.01, 'Le montant doit être
// supérieur à 0', confirm disabled while empty or ≤ 0). The amount is suggested from the quote's
// total TTC and deposit percentage, and stays the admin's to change. Below, for an admin, the payments
// received and their refunds (PaymentLedger.tsx).
import { useState } from "react";
import { DEAL_MESSAGES, type DealAction, transition, wrongStatus } from "../../../lib/deals/rules.ts";
import { centsToEuros, eurosToCents, formatEuros } from "../../../lib/money.ts";
import { depositAmountOf } from "../../../lib/payments/rules.ts";
import { paidAtFr } from "../../../lib/deals/format.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { useDeal } from "./controller.tsx";
import { dealApi } from "./requests.ts";
import { BUTTON_LINE, BUTTON_MAIN, INPUT, Section } from "./ui.tsx";
import { PaymentLedger } from "./PaymentLedger.tsx";
import type { DealPayload } from "./types.ts";

export type PaymentKind = "deposit" | "balance" | "total";

const PAYMENT_BUTTONS: Record<PaymentKind, string> = {
  deposit: "Marquer l'acompte payé",
  balance: "Marquer le solde payé",
  total: "Marquer le paiement intégral",
};
const ACTIONS: Record<PaymentKind, DealAction> = {
  deposit: "pay_deposit",
  balance: "pay_balance",
  total: "pay_total",
};
const AMOUNT_DECIMALS = "Veuillez saisir un montant valide (deux décimales au plus).";

/** The deal's payment amounts in cents. The page's props and the deals API's answers carry the API's
 * euros: they are read back here, once, and everything below computes in cents. */
function paymentCents(deal: DealPayload) {
  const cents = (amount: number | null | undefined) =>
    amount == null ? null : eurosToCents(amount) ?? Math.round(amount * 100);
  const depositAmount = cents(deal.depositAmount);
  const totalAmountPaid = cents(deal.totalAmountPaid);
  return {
    totalTTC: cents(deal.totals.totalTTC) ?? 0,
    depositAmount,
    totalAmountPaid,
    /** What was paid after the deposit. */
    balance: (totalAmountPaid ?? 0) - (depositAmount ?? 0),
  };
}

/** "1 234,50 €", or "—" when unknown. */
const shown = (cents: number | null) => (cents == null ? "—" : formatEuros(cents));

/** The amount the dialog suggests, in cents: the deposit by the payment rule, the rest of the total
 * TTC after a deposit, or the total TTC. */
function suggestedAmount(deal: DealPayload, kind: PaymentKind): number {
  const { totalTTC, depositAmount } = paymentCents(deal);
  if (kind === "deposit") return depositAmountOf({ settings: deal.settings, totalTTC });
  if (kind === "balance") return Math.max(totalTTC - (depositAmount ?? 0), 0);
  return totalTTC;
}

/** The kinds of manual payment the deal's payment state offers (spec 001 §4). */
function paymentKinds(deal: Pick<DealPayload, "depositPaidAt" | "paidAt">): PaymentKind[] {
  if (deal.paidAt) return [];
  if (deal.depositPaidAt) return ["balance"];
  return ["deposit", "total"];
}

export function Payments() {
  const { deal, isAdmin, locked } = useDeal();
  const [kind, setKind] = useState<PaymentKind | null>(null);
  const depositPaid = deal.depositPaidAt !== null;
  const fullyPaid = deal.paidAt !== null;
  const paid = paymentCents(deal);

  return (
    <Section id="deal-payments" title="État des paiements" testId="deal-payments">
      {!depositPaid && !fullyPaid && (
        <p class="text-sm text-slate-600" data-payment-state="none">Aucun paiement reçu pour le moment.</p>
      )}
      {depositPaid && !fullyPaid && (
        <div class="text-sm" data-payment-state="deposit">
          <p class="font-semibold text-amber-800">Acompte payé — solde en attente</p>
          <p class="mt-1 text-slate-700">
            Acompte de {shown(paid.depositAmount)} reçu le {paidAtFr(deal.depositPaidAt)}
          </p>
        </div>
      )}
      {fullyPaid && (
        <div class="text-sm" data-payment-state="total">
          <p class="font-semibold text-emerald-800">Devis payé en totalité</p>
          {depositPaid
            ? (
              <dl class="mt-2 space-y-1" data-testid="payment-breakdown">
                <div class="flex justify-between gap-2">
                  <dt class="text-slate-600">Acompte, le {paidAtFr(deal.depositPaidAt)}</dt>
                  <dd class="tabular-nums">{shown(paid.depositAmount)}</dd>
                </div>
                <div class="flex justify-between gap-2">
                  <dt class="text-slate-600">Solde, le {paidAtFr(deal.paidAt)}</dt>
                  <dd class="tabular-nums">{formatEuros(paid.balance)}</dd>
                </div>
                <div class="flex justify-between gap-2 border-t border-slate-100 pt-1 font-semibold">
                  <dt>Total reçu</dt>
                  <dd class="tabular-nums">{shown(paid.totalAmountPaid)}</dd>
                </div>
              </dl>
            )
            : (
              <p class="mt-1 text-slate-700">
                Paiement intégral de {shown(paid.totalAmountPaid)} reçu le {paidAtFr(deal.paidAt)}
              </p>
            )}
        </div>
      )}
      {isAdmin && paymentKinds(deal).length > 0 && (
        <div class="mt-4 flex flex-wrap gap-2">
          {paymentKinds(deal).map((k) => {
            const allowed = transition(ACTIONS[k], { from: deal.status, role: "Admin", locked });
            return (
              <button
                key={k}
                type="button"
                class={BUTTON_LINE}
                disabled={!allowed.ok}
                aria-describedby={allowed.ok ? undefined : "deal-payments-why"}
                onClick={() => setKind(k)}
                data-testid={`pay-${k}`}
              >
                {PAYMENT_BUTTONS[k]}
              </button>
            );
          })}
          {paymentKinds(deal).some((k) =>
            !transition(ACTIONS[k], { from: deal.status, role: "Admin", locked }).ok
          ) && (
            <p id="deal-payments-why" class="w-full text-xs text-slate-600" data-testid="payments-why">
              {wrongStatus(deal.status)}
            </p>
          )}
        </div>
      )}
      {isAdmin && <PaymentLedger />}
      {isAdmin && kind && <ManualPaymentDialog kind={kind} onClose={() => setKind(null)} />}
    </Section>
  );
}

function ManualPaymentDialog({ kind, onClose }: { kind: PaymentKind; onClose: () => void }) {
  const { deal, run, reloadLedger } = useDeal();
  const [amount, setAmount] = useState(() => (suggestedAmount(deal, kind) / 100).toFixed(2));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const typed = amount.trim() === "" ? null : eurosToCents(amount);
  const numeric = Number(amount.replace(",", "."));
  const positive = amount.trim() !== "" && Number.isFinite(numeric) && numeric > 0;
  const problem = amount.trim() === ""
    ? null
    : !positive
    ? DEAL_MESSAGES.amountPositive
    : typed === null
    ? AMOUNT_DECIMALS
    : null;

  const confirm = async (event: Event) => {
    event.preventDefault();
    if (!positive || typed === null) return;
    setBusy(true);
    const result = await run(() => dealApi.act(deal.id, "payments", { kind, amount: centsToEuros(typed) }), {
      error: DEAL_MESSAGES.saveError,
    });
    setBusy(false);
    if (result.ok) {
      onClose();
      reloadLedger();
    } else setError(result.message);
  };

  return (
    <Dialog open onClose={onClose} title={PAYMENT_BUTTONS[kind]} width={500} testId="manual-payment-dialog">
      <form onSubmit={confirm} noValidate>
        <label for="manual-payment-amount" class="block text-sm font-medium text-slate-700">
          Montant reçu
        </label>
        <div class="mt-1 flex items-center gap-2">
          <input
            id="manual-payment-amount"
            type="number"
            step={0.01}
            min={0.01}
            inputMode="decimal"
            class={`${INPUT} ${problem ? "border-red-500" : ""}`}
            value={amount}
            aria-invalid={problem ? "true" : undefined}
            aria-describedby={problem ? "manual-payment-amount-error" : undefined}
            onInput={(e) => {
              setAmount((e.target as HTMLInputElement).value);
              setError(null);
            }}
          />
          <span class="text-sm font-semibold text-slate-600">€</span>
        </div>
        {problem && (
          <p id="manual-payment-amount-error" class="mt-1 text-xs text-red-600" data-error-for="amount">
            {problem}
          </p>
        )}
        {error && <p role="alert" class="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">{error}
        </p>}
        <div class="mt-6 flex flex-wrap justify-end gap-2">
          <button type="button" class={BUTTON_LINE} onClick={onClose} disabled={busy}>Annuler</button>
          <button
            type="submit"
            class={BUTTON_MAIN}
            disabled={busy || !positive || typed === null}
            data-testid="manual-payment-confirm"
          >
            Confirmer
          </button>
        </div>
      </form>
    </Dialog>
  );
}
