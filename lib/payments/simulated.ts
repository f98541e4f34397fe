// The simulated card provider of the offline default (no Stripe keys configured; never in
// production): it keeps its intents in its own table and behaves like Stripe's test mode, with test
// cards that succeed, are declined, or stay 'processing' a few seconds before succeeding (as an
// asynchronous payment would; the worker then reports it like a webhook). Clearly labelled 'Mode démo'.
import { statementAs, systemActor, transactionAs } from "../actor.ts";
import type { Database } from "../db/database.ts";
import { randomHex } from "../auth/crypto.ts";
import { type PaymentProvider, ProviderError, type ProviderIntent, type ProviderRefund } from "./provider.ts";

const PROVIDER = systemActor("payments");

export const TEST_CARDS = {
  succeeds: "4242424242424242",
  declined: "4000000000000002",
  insufficientFunds: "4000000000009995",
  processing: "4000000000000119",
} as const;

const SIMULATED_MESSAGES = {
  declined: "Votre carte a été refusée.",
  insufficientFunds: "Fonds insuffisants sur la carte.",
  invalidNumber: "Le numéro de carte est invalide.",
  notATestCard: "En mode démo, utilisez une carte de test, par exemple 4242 4242 4242 4242.",
  notConfirmable: "Ce paiement ne peut plus être confirmé.",
} as const;

/** Seconds a 'processing' payment waits before it succeeds. */
const PROCESSING_SECONDS = 5;

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return number.length >= 12 && sum % 10 === 0;
}

interface Row {
  id: string;
  amount: number;
  currency: string;
  status: string;
  metadata: Record<string, string>;
  createdAt: Date;
}

const COLUMNS = `id, amount, currency, status, metadata, created_at as "createdAt"`;
const intentOf = (row: Row): ProviderIntent => ({
  id: row.id,
  amount: row.amount,
  currency: row.currency,
  status: row.status,
  metadata: row.metadata,
  created: Math.floor(row.createdAt.getTime() / 1000),
});

export interface SimulatedProvider extends PaymentProvider {
  /** What Stripe.js does in the browser: submits a (test) card for the intent. */
  confirm(id: string, cardNumber: string): Promise<ProviderIntent>;
  /** The bank's side: processing payments older than PROCESSING_SECONDS succeed. Returns them. */
  settleProcessing(): Promise<ProviderIntent[]>;
}

export function simulatedProvider(db: Database): SimulatedProvider {
  const find = async (id: string): Promise<Row> => {
    const [row] = await statementAs<Row>(
      db,
      PROVIDER,
      `select ${COLUMNS} from public.simulated_payment_intents where id = $1`,
      [id],
    );
    if (!row) throw new ProviderError("Paiement introuvable.", 404);
    return row;
  };
  return {
    name: "simulated",
    publishableKey: "",
    async createIntent(input) {
      // Stripe's id shape: letters and digits after the prefix.
      const id = `pi_sim_${randomHex(12)}`;
      const [row] = await statementAs<Row>(
        db,
        PROVIDER,
        `with created as (
           insert into public.simulated_payment_intents (id, amount, currency, metadata, idempotency_key)
           values ($1, $2, $3, $4::jsonb, $5) on conflict (idempotency_key) do nothing returning ${COLUMNS})
         select * from created
         union all select ${COLUMNS} from public.simulated_payment_intents where idempotency_key = $5
         limit 1`,
        [id, input.amount, input.currency, input.metadata, input.idempotencyKey],
      );
      return { ...intentOf(row), clientSecret: `${row.id}_secret_${randomHex(12)}` };
    },
    async cancelIntent(id) {
      // Like Stripe: only an intent waiting for its card can be canceled.
      await statementAs(
        db,
        PROVIDER,
        `update public.simulated_payment_intents set status = 'canceled', updated_at = now()
         where id = $1 and status = 'requires_payment_method'`,
        [id],
      );
      return intentOf(await find(id));
    },
    async retrieveIntent(id) {
      return intentOf(await find(id));
    },
    async listSucceededSince(since) {
      const rows = await statementAs<Row>(
        db,
        PROVIDER,
        `select ${COLUMNS} from public.simulated_payment_intents where status = 'succeeded' and created_at >= $1`,
        [since],
      );
      return rows.map(intentOf);
    },
    async confirm(id, cardNumber) {
      const number = cardNumber.replace(/[\s-]/g, "");
      return await transactionAs(db, PROVIDER, async (tx) => {
        const [row] = await tx<
          Row
        >`select id, status from public.simulated_payment_intents where id = ${id} for update`;
        if (!row) throw new ProviderError("Paiement introuvable.", 404);
        if (row.status !== "requires_payment_method") {
          throw new ProviderError(SIMULATED_MESSAGES.notConfirmable, 409);
        }
        const outcome = !/^\d{12,19}$/.test(number) || !luhn(number)
          ? { status: "requires_payment_method", error: SIMULATED_MESSAGES.invalidNumber }
          : number === TEST_CARDS.succeeds
          ? { status: "succeeded", error: null }
          : number === TEST_CARDS.processing
          ? { status: "processing", error: null }
          : number === TEST_CARDS.declined
          ? { status: "requires_payment_method", error: SIMULATED_MESSAGES.declined }
          : number === TEST_CARDS.insufficientFunds
          ? { status: "requires_payment_method", error: SIMULATED_MESSAGES.insufficientFunds }
          : { status: "requires_payment_method", error: SIMULATED_MESSAGES.notATestCard };
        const [updated] = await tx<Row>`
          update public.simulated_payment_intents set status = ${outcome.status}, last_error = ${outcome.error},
            updated_at = now() where id = ${id}
          returning id, amount, currency, status, metadata, created_at as "createdAt"`;
        if (outcome.error) throw new ProviderError(outcome.error);
        return intentOf(updated);
      });
    },
    async settleProcessing() {
      const rows = await statementAs<Row>(
        db,
        PROVIDER,
        `update public.simulated_payment_intents set status = 'succeeded', updated_at = now()
         where status = 'processing' and updated_at <= now() - make_interval(secs => $1)
         returning ${COLUMNS}`,
        [PROCESSING_SECONDS],
      );
      return rows.map(intentOf);
    },
    async refund(input): Promise<ProviderRefund> {
      const refundId = `re_sim_${input.refundId.replace(/[^a-z0-9]/gi, "").slice(0, 40)}`;
      // Like Stripe, the same idempotency key gives the same refund, never a second one.
      const [row] = await statementAs<{ id: string }>(
        db,
        PROVIDER,
        `update public.simulated_payment_intents
         set refunded_amount = refunded_amount + case when $3 = any(refund_keys) then 0 else $2 end,
             refund_keys = case when $3 = any(refund_keys) then refund_keys else array_append(refund_keys, $3) end,
             updated_at = now()
         where id = $1 and status = 'succeeded' and ($3 = any(refund_keys) or refunded_amount + $2 <= amount)
         returning id`,
        [input.paymentIntentId, input.amount, input.refundId],
      );
      if (!row) throw new ProviderError("Le remboursement dépasse le montant payé.", 422);
      return {
        id: refundId,
        status: "succeeded",
        amount: input.amount,
        paymentIntentId: input.paymentIntentId,
      };
    },
    retrieveRefund(id) {
      return Promise.resolve({ id, status: "succeeded", amount: 0, paymentIntentId: "" });
    },
  };
}
