// Pure rules of card payments (spec 000 §4 'Quote payment type', §5, §8, §9): which payment a deal
// offers, the amount the server charges, and every French message of the payment dialog.
import { type DealSettings, type DealStatus, depositOffered, depositPercentage } from "../deals/rules.ts";
import { percentOf, percentToBasisPoints } from "../money.ts";

/** What the customer asks to pay (POST /api/payment/intent paymentType). */
export type PaymentType = "deposit" | "full" | "remaining";
/** What is recorded (deal_payments.kind) and invoiced. */
export type PaymentKind = "deposit" | "balance" | "total";

const MANUAL_KIND_NAMES = { deposit: "Acompte", balance: "Solde", total: "Paiement intégral" } as const;

export const PAYMENT_MESSAGES = {
  moreThanDue: (due: string) => `Le montant dépasse le reste à payer du devis (${due}).`,
  /** A deposit leaves a balance: the whole amount due is recorded as a total or a balance. */
  depositBelowDue: (due: string) =>
    `Un acompte doit être inférieur au reste à payer du devis (${due}). Pour le montant entier, enregistrez un paiement intégral ou le solde.`,

  /** A manual 'total' or 'balance' settles the quote: it is exactly what is due. */
  notTheDue: (due: string) =>
    `Le solde ou le paiement intégral doit être égal au reste à payer du devis (${due}). Pour un montant inférieur, enregistrez un acompte.`,
  notDueAnyMore: "Ce paiement n'est plus dû pour ce devis.",
  /** A manual payment's confirmation names the amount recorded, then the new status. */
  manualRecorded: (kind: "deposit" | "balance" | "total", amount: string, status: string) =>
    `${MANUAL_KIND_NAMES[kind]} de ${amount} enregistré. Statut mis à jour vers : ${status}`,
  depositUnavailable: "Le paiement par acompte n'est pas disponible pour ce devis",
  customersOnly:
    "Les options de paiement ne sont disponibles que pour les clients. Veuillez vous connecter avec un compte client pour effectuer un paiement.",
  setupError: "Erreur lors de l'initialisation du système de paiement",
  intentError: "Erreur lors de la création du paiement",
  notReady: "Système de paiement non initialisé",
  cardError: "Erreur de paiement",
  confirmError: "Erreur lors de la confirmation du paiement",
  unexpected: "Une erreur inattendue s'est produite, veuillez réessayer",
  succeeded: "Succès de paiement",
  processing: "Paiement en cours",
  requiresPaymentMethod: "Paiement échoué, veuillez réessayer",
  depositPaid: "Acompte payé avec succès ! Vous recevrez un email de confirmation.",
  fullPaid: "Paiement intégral effectué avec succès ! Vous recevrez un email de confirmation.",
  nothingToPay: "Ce devis est déjà réglé.",
  /** The confirm answer for money the deal does not owe (paid twice, a superseded payment, a refused
   * quote): never 'success'. */
  refunding:
    "Ce paiement n'était plus dû pour ce devis : il vous est remboursé intégralement sur votre carte, un avoir vous sera adressé.",
  notPayable: "Ce devis ne peut pas être réglé dans son état actuel.",
  loginForDeposit: "Vous pouvez désormais régler votre acompte",
  loginForBalance: "Vous pouvez désormais régler votre solde",
  loginForTotal: "Vous pouvez désormais régler votre devis",
  demoMode: "Mode démo",
  secure: "Paiement sécurisé",
  ssl: "Vos données bancaires sont chiffrées (SSL 256 bits) et ne transitent jamais par nos serveurs.",
} as const;

/** The login dialog of a quote page, before the visitor signs in: what signing in leads to. The spec's
 * 'Vous pouvez désormais régler votre acompte' (…solde, …devis) is true only once signed in, so it is
 * shown after the login, on the reloaded page (AuthForm keeps it for the payment block). */
export function loginInvitation(afterLogin: string): string {
  const what = {
    [PAYMENT_MESSAGES.loginForDeposit]: "régler votre acompte",
    [PAYMENT_MESSAGES.loginForBalance]: "régler votre solde",
    [PAYMENT_MESSAGES.loginForTotal]: "régler votre devis",
  }[afterLogin];
  return what
    ? `Connectez-vous ou créez votre compte client pour ${what}.`
    : "Connectez-vous ou créez votre compte client pour continuer.";
}

/** The dialog's message for a PaymentIntent status reported by the provider (spec 000 §4). */
export function intentStatusMessage(status: string): string {
  if (status === "succeeded") return PAYMENT_MESSAGES.succeeded;
  if (status === "processing") return PAYMENT_MESSAGES.processing;
  if (status === "refunding") return PAYMENT_MESSAGES.refunding;
  if (status === "requires_payment_method") return PAYMENT_MESSAGES.requiresPaymentMethod;
  return PAYMENT_MESSAGES.unexpected;
}

/** Statuses in which a customer may pay: the quote has been sent, or accepted. */
export const PAYABLE_STATUSES: DealStatus[] = ["send", "edited", "accepted", "pay_partial"];

export interface PayableDeal {
  status: DealStatus;
  settings: Partial<DealSettings>;
  /** Total TTC of the quote, cents. */
  totalTTC: number;
  /** Already paid, cents. */
  depositAmount: number | null;
  totalAmountPaid: number | null;
  depositPaidAt: boolean;
  paidAt: boolean;
}

export type PaymentPlan = { ok: true; kind: PaymentKind; amount: number } | { ok: false; error: string };

/** The deposit: total TTC × percentage (35 % when unset), rounded to the cent. */
export function depositAmountOf(deal: Pick<PayableDeal, "settings" | "totalTTC">): number {
  return percentOf(deal.totalTTC, percentToBasisPoints(depositPercentage(deal.settings)));
}

/** What a deal still owes: its total TTC less what it counts as paid (cents, never below zero). The
 * database's deal_amount_due() is the same rule, checked by the recorder in its transaction. */
export function amountDue(totalTTC: number, counted: number): number {
  return Math.max(0, totalTTC - counted);
}

/** Whether a payment of `kind` and `amount` settles what the deal owes, as record_payment() decides
 * (a deposit: less than what is due, before any payment; a balance: exactly the rest after the deposit;
 * a total: exactly the total, nothing paid before). */
export function paymentFits(
  deal: { due: number; depositPaid: boolean; paid: boolean },
  kind: PaymentKind,
  amount: number,
): boolean {
  if (deal.paid || amount <= 0) return false;
  // A deposit leaves something to pay: what settles the whole quote is a total (or a balance).
  if (kind === "deposit") return !deal.depositPaid && amount < deal.due;
  if (kind === "balance") return deal.depositPaid && amount === deal.due;
  return !deal.depositPaid && amount === deal.due;
}

/** What a payment of `type` charges, computed from the deal only (never from the request). When a
 * deposit is already paid, 'full' means the remaining balance (spec 000 §4). */
export function planPayment(deal: PayableDeal, type: PaymentType): PaymentPlan {
  if (deal.paidAt) return { ok: false, error: PAYMENT_MESSAGES.nothingToPay };
  if (!PAYABLE_STATUSES.includes(deal.status) || deal.totalTTC <= 0) {
    return { ok: false, error: PAYMENT_MESSAGES.notPayable };
  }
  const paid = deal.depositAmount ?? 0;
  if (deal.depositPaidAt) {
    if (type === "deposit") return { ok: false, error: PAYMENT_MESSAGES.depositUnavailable };
    const remaining = deal.totalTTC - paid;
    return remaining > 0
      ? { ok: true, kind: "balance", amount: remaining }
      : { ok: false, error: PAYMENT_MESSAGES.nothingToPay };
  }
  if (deal.status === "pay_partial") return { ok: false, error: PAYMENT_MESSAGES.notPayable };
  if (type === "deposit") {
    if (!depositOffered(deal.settings)) return { ok: false, error: PAYMENT_MESSAGES.depositUnavailable };
    const deposit = depositAmountOf(deal);
    // A deposit of the whole quote (100 %, or a rounding on a tiny total) is the full payment.
    if (deposit >= deal.totalTTC) return { ok: true, kind: "total", amount: deal.totalTTC };
    return { ok: true, kind: "deposit", amount: deposit };
  }
  if (type === "remaining") return { ok: false, error: PAYMENT_MESSAGES.notPayable };
  return { ok: true, kind: "total", amount: deal.totalTTC };
}

/** The payment stage of a deal (spec 000 §4 'Deal payment stage'): which documents it has. */
export type PaymentStage = "none" | "deposit" | "paid_after_deposit" | "paid";

export function paymentStage(deal: { depositPaidAt: boolean; paidAt: boolean }): PaymentStage {
  if (deal.depositPaidAt && deal.paidAt) return "paid_after_deposit";
  if (deal.depositPaidAt) return "deposit";
  if (deal.paidAt) return "paid";
  return "none";
}

/** The quote payment page's type (spec 000 §2 and §4): deposit, balance, total or paid. */
export type QuotePaymentType = "deposit" | "balance" | "total" | "paid";

export function quotePaymentType(deal: PayableDeal): QuotePaymentType {
  if (deal.paidAt) return "paid";
  if (deal.depositPaidAt) return "balance";
  return depositOffered(deal.settings) ? "deposit" : "total";
}

/** The idempotency key of an intent: one per (deal, payment kind, amount, customer), so that asking
 * twice gives the same PaymentIntent and a changed amount a new one. Everything sent with the intent
 * must follow from these (Stripe refuses a key reused with other parameters): see intentParameters. */
function intentIdempotencyKey(
  dealId: number,
  kind: PaymentKind,
  amount: number,
  customerId: string,
  generation: number,
): string {
  // `generation`: how many of the deal's intents were superseded; a canceled intent is never replayed.
  return `deal-${dealId}-${kind}-${amount}-${customerId}${generation > 0 ? `-${generation}` : ""}`;
}

const KIND_WORDS: Record<PaymentKind, string> = { deposit: "acompte", balance: "solde", total: "règlement" };

/** What an intent is created with, from its key's parts only (never the deal's name, which an admin
 * may change between two asks). */
export function intentParameters(
  dealId: number,
  kind: PaymentKind,
  amount: number,
  customerId: string,
  generation = 0,
) {
  return {
    amount,
    currency: "eur" as const,
    description: `Devis n° ${dealId} — ${KIND_WORDS[kind]}`,
    metadata: { dealId: String(dealId), kind, customerId },
    idempotencyKey: intentIdempotencyKey(dealId, kind, amount, customerId, generation),
  };
}

// ---------------------------------------------------------------------------------------------------
// The admin's view of a deal's payments and refunds ('État des paiements', the refund dialog).

/** The line 'Gestion de projet' explains itself on the quote payment page and in its lines. */
export const PROJECT_MANAGEMENT_DESCRIPTION = "Suivi de votre événement par notre équipe";

export const REFUND_MESSAGES = {
  tooMuch: "Le remboursement dépasse le montant encore remboursable de ce paiement.",
  requested: "Le remboursement est demandé : l'avoir sera émis dès qu'il sera confirmé.",
  recorded: "Le remboursement est enregistré et l'avoir émis.",
  error: "Erreur lors du remboursement.",
  loadError: "Erreur lors du chargement des paiements.",
} as const;

export const PAYMENT_KIND_LABELS: Record<PaymentKind, string> = {
  deposit: "Acompte",
  balance: "Solde",
  total: "Paiement intégral",
};

export type PaymentMethod = "card" | "manual";
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: "Carte bancaire",
  manual: "Paiement manuel",
};

export type RefundStatus = "pending" | "succeeded" | "failed";
export const REFUND_STATUS_LABELS: Record<RefundStatus, string> = {
  pending: "En attente",
  succeeded: "Remboursé",
  failed: "Échec",
};

/** A refund of a payment: cents, unix seconds. */
export interface LedgerRefund {
  id: string;
  amount: number;
  status: RefundStatus;
  reason: string;
  requestedAt: number;
  succeededAt: number | null;
  /** Asked by the system for an overpayment (money the deal did not owe), not by an admin. */
  automatic?: boolean;
  /** Its credit note (AV), once the billing job issued it. */
  creditNote: { id: string; number: string } | null;
  /** The platform's commission credit note to the partner (CA) issued with it, when the refund gives
   * back any commission. */
  commissionCreditNote?: { id: string; number: string } | null;
}

/** A payment the deal received: cents, unix seconds. */
export interface LedgerPayment {
  id: string;
  kind: PaymentKind;
  method: PaymentMethod;
  amount: number;
  /** Refunded for good (succeeded refunds). */
  refunded: number;
  /** Asked for and not settled yet (pending refunds). */
  pending: number;
  paidAt: number;
  /** Money the deal did not owe (paid twice, a superseded intent, a refused quote): not counted,
   * refunded automatically. */
  overpayment?: boolean;
  refunds: LedgerRefund[];
}

/** What can still be refunded of a payment: the server's rule (lib/payments/use_cases/refund.ts). */
export function refundableOf(payment: Pick<LedgerPayment, "amount" | "refunded" | "pending">): number {
  return Math.max(0, payment.amount - payment.refunded - payment.pending);
}

/** A refund still waiting for the provider, or a succeeded one whose credit note is not issued yet. */
export function ledgerSettling(payments: LedgerPayment[]): boolean {
  return payments.some((p) =>
    p.refunds.some((r) => r.status === "pending" || (r.status === "succeeded" && r.creditNote === null))
  );
}
