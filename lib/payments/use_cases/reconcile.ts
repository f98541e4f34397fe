// The reconciliation job (every 10 minutes, lib/jobs/registry.ts): succeeded intents of the last days
// that a lost webhook (and a missing confirm call) left unrecorded are recorded now, and intents still
// open here are asked again.
import { statementTx } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { openIntentIds } from "../store.ts";
import { PAYMENTS, recordProviderIntent } from "./record_card_payment.ts";

/** Returns how many payments it recorded. */
export async function reconcilePayments(deps: Deps, days = 3): Promise<number> {
  if (!deps.payments) return 0;
  const since = new Date(Date.now() - days * 24 * 3600 * 1000);
  let recorded = 0;
  for (const intent of await deps.payments.listSucceededSince(since)) {
    if ((await recordProviderIntent(deps, deps.payments.name, intent)).recorded) recorded++;
  }
  // Intents still open here whose state the provider may have changed (processing → succeeded…).
  const open = await openIntentIds(statementTx(deps.db, PAYMENTS), deps.payments.name, since);
  for (const id of open) {
    try {
      if (
        (await recordProviderIntent(deps, deps.payments.name, await deps.payments.retrieveIntent(id)))
          .recorded
      ) {
        recorded++;
      }
    } catch (error) {
      await deps.logger.warning("payments", "Rapprochement impossible pour un paiement", {
        intent: id,
        error: String(error),
      });
    }
  }
  if (recorded) {
    await deps.logger.warning("payments", "Paiements rattrapés par le rapprochement", { recorded });
  }
  return recorded;
}
