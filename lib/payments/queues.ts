// The payments' worker queues (lib/jobs/queues.ts): pending card refunds sent to the provider, the
// simulated provider's delayed payments reported as a webhook would report them, and (an outbox
// handler) superseded intents canceled at the provider.
import { statementAs, statementTx, transactionAs } from "../actor.ts";
import type { OutboxHandler } from "../outbox/worker.ts";
import { intentForCancel } from "./store.ts";
import type { Deps } from "../deps.ts";
import { ProviderError } from "./provider.ts";
import type { SimulatedProvider } from "./simulated.ts";
import { PAYMENTS, recordProviderIntent } from "./use_cases/record_card_payment.ts";

const MAX_REFUND_ATTEMPTS = 6;

/** The refunds job: pending card refunds are sent to the provider (its idempotency key is the refund's
 * id, so a retry never refunds twice) and recorded through record_refund. */
export const refundsQueue = {
  name: "refunds",
  async drain(deps: Deps): Promise<number> {
    if (!deps.payments) return 0;
    const provider = deps.payments;
    const due = await transactionAs(
      deps.db,
      PAYMENTS,
      (tx) =>
        tx<{ id: string; amount: number; intent: string; attempts: number }>`
        update public.refunds r set attempts = r.attempts + 1, next_attempt_at = now() + interval '5 minutes'
        from (select r2.id from public.refunds r2 join public.deal_payments p on p.id = r2.payment_id
              where r2.status = 'pending' and r2.next_attempt_at <= now() and p.provider = ${provider.name}
              order by r2.next_attempt_at limit 10 for update of r2 skip locked) d
        where r.id = d.id
        returning r.id, r.amount, r.attempts,
          (select provider_payment_id from public.deal_payments where id = r.payment_id) as intent`,
    );
    for (const refund of due) {
      try {
        const result = await provider.refund({
          paymentIntentId: refund.intent,
          amount: refund.amount,
          refundId: refund.id,
        });
        await statementAs(deps.db, PAYMENTS, "select * from public.record_refund($1, $2, $3, $4, $5, $6)", [
          provider.name,
          result.id,
          refund.intent,
          refund.amount,
          result.status,
          refund.id,
        ]);
      } catch (error) {
        const permanent = error instanceof ProviderError || refund.attempts >= MAX_REFUND_ATTEMPTS;
        await statementAs(
          deps.db,
          PAYMENTS,
          `update public.refunds set last_error = $2, status = case when $3 then 'failed' else status end,
             next_attempt_at = now() + make_interval(mins => $4) where id = $1`,
          [refund.id, String(error).slice(0, 1000), permanent, 2 ** refund.attempts],
        );
        if (permanent) {
          await deps.logger.error("payments", "Remboursement impossible", {
            refundId: refund.id,
            error: String(error),
          });
        }
      }
    }
    return due.length;
  },
};

/** The simulated provider's bank: processing payments succeed after a few seconds and are reported
 * as a webhook would report them. */
export const simulatedSettlementQueue = {
  name: "simulated-settlement",
  async drain(deps: Deps): Promise<number> {
    if (deps.payments?.name !== "simulated") return 0;
    const settled = await (deps.payments as SimulatedProvider).settleProcessing();
    for (const intent of settled) await recordProviderIntent(deps, "simulated", intent);
    return settled.length;
  },
};

/** The outbox job enqueued by supersede_open_intents() (a newer intent for the deal, or its refusal):
 * cancels the intent at the provider, outside any user's transaction. Too late (it succeeded or is
 * processing): what the provider holds is recorded, and the recorder refunds a superseded intent's
 * money. Idempotent: a canceled intent is canceled again without effect. */
export const cancelIntentHandler: OutboxHandler<{ intentId: string; provider: string }> = {
  queue: "payment-intent-cancel",
  async run(deps, job) {
    const provider = deps.payments;
    const { intentId } = job.payload;
    const known = await intentForCancel(statementTx(deps.db, PAYMENTS), intentId);
    // Another deployment's provider (keys changed since): nothing this instance can cancel.
    if (!provider || !known || known.provider !== provider.name || job.payload.provider !== provider.name) {
      return;
    }
    const intent = await provider.cancelIntent(intentId);
    await recordProviderIntent(deps, provider.name, intent);
    if (intent.status !== "canceled") {
      await deps.logger.warning("payments", "Paiement remplacé non annulable chez le prestataire", {
        intent: intentId,
        status: intent.status,
      });
    }
  },
};
