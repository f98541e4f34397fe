// Delivery of the CRM outbox (crm_outbox rows written by acceptDeal in the admin's transaction) to
// HubSpot, as a queue of the worker loop, registered only when HUBSPOT_TOKEN is set (lib/jobs/queues.ts).
// Like the email outbox (lib/mail/delivery.ts): a batch is claimed in a short transaction (`for update
// skip locked`, the next attempt pushed back as a lease), HubSpot is called outside any transaction,
// then each row is marked:
//   * skipped: its deal has no HubSpot id (nothing to update); the deal's current id counts, or the one
//     the event recorded when the deal has been deleted since;
//   * sent: HubSpot accepted the new stage;
//   * pending at Retry-After: HubSpot (or this instance's own 190 / 10 s budget) asks to slow down; the
//     attempt is not counted, and the rest of the batch waits as long without being sent;
//   * pending with exponential backoff: 5xx, 401/403, network error, timeout; failed after MAX_ATTEMPTS;
//   * failed at once: 400, 404… (the request itself is wrong).
// Every give-up is logged as an error. Delivery is at least once (a crash between the call and the mark
// sends again), which is harmless: setting a deal's stage is idempotent.
import { statementAs, systemActor, transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import { type HubSpot, HubSpotError, toHubSpotError } from "../integrations/hubspot.ts";
import type { Queue } from "../jobs/worker.ts";

const JOB = systemActor("job");
export const CRM_BATCH = 10;
export const CLAIM_SECONDS = 300;
export const MAX_ATTEMPTS = 8;

/** Minutes before the next attempt after `attempts` failures: 1, 2, 4 … capped at 6 hours. */
export function backoffMinutes(attempts: number): number {
  return Math.min(2 ** Math.max(0, attempts - 1), 360);
}

interface Claimed {
  id: number;
  dealId: number | null;
  event: string;
  hubspotId: string | null;
  attempts: number;
}

const claim = (deps: Deps) =>
  transactionAs(deps.db, JOB, (tx) =>
    tx<Claimed>`
      with due as (
        select o.id,
               nullif(btrim(case when d.id is not null then d.hubspot_id else o.payload ->> 'hubspotId' end), '')
                 as hubspot_id
        from public.crm_outbox o
        left join public.deals d on d.id = o.deal_id
        where o.status = 'pending' and o.next_attempt_at <= now()
        order by o.next_attempt_at, o.id
        limit ${CRM_BATCH}
        for update of o skip locked
      )
      update public.crm_outbox o
      set status = case when due.hubspot_id is null then 'skipped' else 'pending' end,
          attempts = case when due.hubspot_id is null then o.attempts else o.attempts + 1 end,
          next_attempt_at = case when due.hubspot_id is null then o.next_attempt_at
                                 else now() + ${`${CLAIM_SECONDS} seconds`}::interval end
      from due
      where o.id = due.id
      returning o.id, o.deal_id as "dealId", o.event, due.hubspot_id as "hubspotId", o.attempts`);

export function crmQueue(hubspot: HubSpot): Queue {
  const send = (row: Claimed & { hubspotId: string }): Promise<void> => {
    switch (row.event) {
      case "deal_accepted":
        return hubspot.markDealAccepted(row.hubspotId);
      default:
        return Promise.reject(new HubSpotError("permanent", `Événement CRM inconnu : ${row.event}`));
    }
  };

  return {
    name: "crm",
    async drain(deps: Deps) {
      const batch = await claim(deps);
      /** Set once HubSpot asked this batch to slow down: the rest waits until then. */
      let pause: HubSpotError | null = null;
      for (const row of batch) {
        if (row.hubspotId === null) continue; // marked skipped by the claim
        if (pause) {
          await release(deps, row.id, pause);
          continue;
        }
        let error: HubSpotError | null = null;
        try {
          await send({ ...row, hubspotId: row.hubspotId });
        } catch (caught) {
          error = toHubSpotError(caught);
        }
        if (!error) {
          await statementAs(
            deps.db,
            JOB,
            "update public.crm_outbox set status = 'sent', sent_at = now(), last_error = null where id = $1",
            [row.id],
          );
        } else if (error.kind === "rate_limited") {
          pause = error;
          await release(deps, row.id, error);
        } else {
          const failed = error.kind === "permanent" || row.attempts >= MAX_ATTEMPTS;
          await statementAs(
            deps.db,
            JOB,
            `update public.crm_outbox set status = $2, last_error = $3,
               next_attempt_at = now() + make_interval(mins => $4) where id = $1`,
            [
              row.id,
              failed ? "failed" : "pending",
              error.message.slice(0, 1000),
              backoffMinutes(row.attempts),
            ],
          );
          if (failed) {
            await deps.logger.error(
              "crm",
              error.kind === "permanent"
                ? "Mise à jour HubSpot refusée : abandonnée"
                : "Mise à jour HubSpot abandonnée après plusieurs échecs",
              {
                outboxId: row.id,
                dealId: row.dealId,
                hubspotId: row.hubspotId,
                event: row.event,
                status: error.status,
                attempts: row.attempts,
                error: error.message,
              },
            );
          }
        }
      }
      return batch.length;
    },
  };
}

/** Puts a claimed row back, due after the wait HubSpot asked for, without counting the attempt. */
async function release(deps: Deps, id: number, error: HubSpotError) {
  await statementAs(
    deps.db,
    JOB,
    `update public.crm_outbox set attempts = greatest(attempts - 1, 0), last_error = $2,
       next_attempt_at = now() + make_interval(secs => $3) where id = $1`,
    [id, error.message.slice(0, 1000), error.retryAfterSeconds ?? 10],
  );
}
