// The 'crm-sync' outbox queue: keeps one deal in step with HubSpot, both ways, outside any user's
// transaction. A job is queued by the deals trigger (a change here: {dealId}, key deal-<id>) or by the
// HubSpot webhook (a change there: {dealId} for a deal we know, {hubspotId} for one we do not yet).
// Repeats coalesce in the outbox, and one job per key runs at a time, so that a deal is never synced
// by two workers at once.
//
// One run, with S = the values both sides last agreed on (public.crm_deal_sync):
//   1. a deal without HubSpot id is created there (every synchronised property) and gets its id;
//   2. otherwise HubSpot's deal is read (one GET); what changed there since S (name and properties
//      only: see lib/crm/mapping.ts) is written here, unless the same field also changed here, in a
//      transaction marked as coming from HubSpot (the deals trigger then queues nothing: no echo);
//   3. what changed here since S is sent (one PATCH, nothing when nothing changed) and S updated.
// HubSpot's 429 and this instance's 190 / 10 s budget become RetryLater (the attempt is given back);
// 5xx, timeouts and network errors are retried with backoff (logged as warnings); 4xx other than 429
// fail the job at once. Every failure is logged with the service 'hubspot'.
import { systemActor, transactionAs } from "../actor.ts";
import type { Tx } from "../db/database.ts";
import type { Deps } from "../deps.ts";
import { type HubSpot, HubSpotError, toHubSpotError } from "../integrations/hubspot.ts";
import type { OutboxHandler } from "../outbox/worker.ts";
import { PermanentFailure, RetryLater } from "../outbox/rules.ts";
import type { OutboxJob } from "../outbox/store.ts";
import type { DealStatus } from "../deals/rules.ts";
import { insertContact, insertDeal, refreshSearchText } from "../deals/store.ts";
import { loadDeviseurSettings, loadPricing } from "../deals/settings_store.ts";
import { generate, quoteRequestOf, totalsFor } from "../deals/use_cases/quote_lines.ts";
import {
  applyInbound,
  changedSince,
  fromHubSpot,
  INBOUND,
  listColumns,
  OUTBOUND_ONLY,
  READ_PROPERTIES,
  type SyncedDeal,
  toHubSpot,
} from "./mapping.ts";

export const CRM_QUEUE = "crm-sync";
export const CRM_SERVICE = "hubspot";
const JOB = systemActor("job");

export interface CrmSyncPayload {
  dealId?: number;
  hubspotId?: string;
}

/** What one run did (for tests and logs). */
export interface SyncOutcome {
  created?: string;
  pushed: string[];
  pulled: string[];
  imported?: number;
}

interface DealState extends SyncedDeal {
  id: number;
  hubspotId: string | null;
  synced: Record<string, string> | null;
}

async function readDeal(tx: Tx, id: number, lock = false): Promise<DealState | null> {
  const [row] = await tx.query<DealState>(
    `select d.id, d.name, d.status, d.total_ht as "totalHt", d.properties, nullif(btrim(d.hubspot_id), '') as "hubspotId",
            s.synced
     from public.deals d left join public.crm_deal_sync s on s.deal_id = d.id
     where d.id = $1 ${lock ? "for update of d" : ""}`,
    [id],
  );
  return row ?? null;
}

/** Marks the transaction's changes as coming from HubSpot: the deals trigger queues no sync. */
const fromHubSpotOrigin = (tx: Tx) => tx`select set_config('app.crm_origin', 'hubspot', true)`;

async function saveSynced(tx: Tx, dealId: number, values: Record<string, string>): Promise<void> {
  await tx`insert into public.crm_deal_sync (deal_id, synced, synced_at)
           values (${dealId}, ${JSON.stringify(values)}::jsonb, now())
           on conflict (deal_id) do update
             set synced = public.crm_deal_sync.synced || excluded.synced, synced_at = now()`;
}

export function crmSyncHandler(hubspot: HubSpot): OutboxHandler<CrmSyncPayload> {
  return {
    queue: CRM_QUEUE,
    // 30 s, 1, 2, 4 … minutes, at most an hour: eight attempts span about two hours of outage, and a
    // dead letter can be put back from the outbox page.
    backoff: { baseSeconds: 30, capSeconds: 3600 },
    // The lease covers a batch of 10 jobs run one after the other, 2 calls each (10 s timeout, set in
    // lib/jobs/queues.ts): another worker never takes a job while this one may still send it.
    leaseSeconds: 300,
    async run(deps, job) {
      try {
        await runSync(deps, hubspot, job.payload);
      } catch (error) {
        throw await asOutboxError(deps, job, error);
      }
    },
    async onDeadLetter(deps, job, error) {
      await deps.logger.error(CRM_SERVICE, "Synchronisation HubSpot abandonnée", {
        jobId: job.id,
        ...job.payload,
        attempts: job.attempts,
        error: error instanceof Error ? error.message : String(error),
      });
    },
  };
}

/** The failure as the outbox reads it; transient ones are logged here (one warning per attempt). */
async function asOutboxError(deps: Deps, job: OutboxJob<CrmSyncPayload>, caught: unknown): Promise<Error> {
  if (caught instanceof PermanentFailure || caught instanceof RetryLater) return caught;
  const error = toHubSpotError(caught);
  if (error.kind === "rate_limited") {
    // HubSpot's own 429 is worth a line; this instance's budget is ordinary flow control.
    if (error.status === 429) {
      await deps.logger.warning(CRM_SERVICE, "HubSpot demande de ralentir (429)", {
        jobId: job.id,
        retryAfterSeconds: error.retryAfterSeconds,
      });
    }
    return new RetryLater(error.retryAfterSeconds ?? 10, error.message);
  }
  if (error.kind === "permanent") return new PermanentFailure(error.message);
  await deps.logger.warning(CRM_SERVICE, "Synchronisation HubSpot en échec, nouvel essai prévu", {
    jobId: job.id,
    ...job.payload,
    attempt: job.attempts,
    status: error.status,
    error: error.message,
  });
  return error;
}

export async function runSync(deps: Deps, hubspot: HubSpot, payload: CrmSyncPayload): Promise<SyncOutcome> {
  if (typeof payload.dealId === "number") return await syncDeal(deps, hubspot, payload.dealId);
  if (typeof payload.hubspotId === "string" && payload.hubspotId) {
    return await importDeal(deps, hubspot, payload.hubspotId);
  }
  throw new PermanentFailure("Tâche de synchronisation HubSpot sans transaction");
}

const stagesOf = (deps: Deps) => deps.config.hubspotDealStages as Record<DealStatus, string>;

export async function syncDeal(deps: Deps, hubspot: HubSpot, dealId: number): Promise<SyncOutcome> {
  const deal = await transactionAs(deps.db, JOB, (tx) => readDeal(tx, dealId));
  if (!deal) return { pushed: [], pulled: [] }; // deleted since: nothing to keep in step
  const current = toHubSpot(deal, stagesOf(deps), deps.config.hubspotPipeline);

  if (!deal.hubspotId) {
    const id = await hubspot.createDeal(current);
    await transactionAs(deps.db, JOB, async (tx) => {
      await fromHubSpotOrigin(tx);
      await tx`update public.deals set hubspot_id = ${id} where id = ${dealId} and hubspot_id is null`;
      await refreshSearchText(tx, dealId);
      await saveSynced(tx, dealId, current);
    });
    await deps.logger.info(CRM_SERVICE, "Transaction créée dans HubSpot", { dealId, hubspotId: id });
    return { created: id, pushed: Object.keys(current), pulled: [] };
  }

  const remote = await hubspot.getDeal(deal.hubspotId, READ_PROPERTIES);
  if (!remote) {
    throw new PermanentFailure(`HubSpot n'a pas de transaction ${deal.hubspotId} (supprimée ?)`);
  }
  const there = fromHubSpot(remote.properties);
  // Never synced: what HubSpot has counts as agreed, except where our side is empty (HubSpot fills it).
  const synced = deal.synced ?? Object.fromEntries(
    Object.keys(there).map((key) => [key, (current[key] ?? "") === "" ? "" : there[key]]),
  );
  const changedHere = changedSince(current, synced, Object.keys(current));
  const changedThere = changedSince(there, synced, INBOUND);

  // 2. HubSpot's changes, where ours did not change the same field (ours wins a conflict).
  let pulled: string[] = [];
  const incoming = Object.fromEntries(Object.entries(changedThere).filter(([key]) => !(key in changedHere)));
  if (Object.keys(incoming).length > 0 || deal.synced === null) {
    pulled = await transactionAs(deps.db, JOB, async (tx) => {
      await fromHubSpotOrigin(tx);
      const locked = await readDeal(tx, dealId, true);
      if (!locked) return [];
      // A change made here since the read above wins too: its own job is already queued.
      const now = toHubSpot(locked, stagesOf(deps), deps.config.hubspotPipeline);
      const apply = Object.fromEntries(
        Object.entries(incoming).filter(([key]) => (now[key] ?? "") === (current[key] ?? "")),
      );
      if (Object.keys(apply).length > 0) {
        const next = applyInbound(locked, apply);
        const columns = listColumns(next.properties);
        await tx`update public.deals
                 set name = ${next.name}, properties = ${JSON.stringify(next.properties)}::jsonb,
                     service_date = coalesce(${columns.serviceDate}::date, service_date),
                     guests = coalesce(${columns.guests}::integer, guests),
                     event_type = coalesce(${columns.eventType}, event_type)
                 where id = ${dealId}`;
        if ("dealname" in apply) await refreshSearchText(tx, dealId);
      }
      // What both sides now agree on: HubSpot's values of the fields it may change, except those
      // changed here. The fields only we send (stage, amount) keep the value we last sent, so that a
      // salesperson's stage in HubSpot stays until our status changes; a first sync takes HubSpot's.
      const agreed: Record<string, string> = {};
      for (const key of INBOUND) if (!(key in changedHere)) agreed[key] = there[key];
      if (deal.synced === null) {
        for (const key of OUTBOUND_ONLY) if (!(key in changedHere)) agreed[key] = synced[key] ?? "";
      }
      await saveSynced(tx, dealId, agreed);
      return Object.keys(apply);
    });
    if (pulled.length > 0) {
      await deps.logger.info(CRM_SERVICE, "Transaction mise à jour depuis HubSpot", {
        dealId,
        fields: pulled,
      });
    }
  }

  // 3. Ours, sent once.
  if (Object.keys(changedHere).length > 0) {
    await hubspot.updateDeal(deal.hubspotId, changedHere);
    await transactionAs(deps.db, JOB, (tx) => saveSynced(tx, dealId, changedHere));
  }
  return { pushed: Object.keys(changedHere), pulled };
}

/** A deal created in HubSpot (or one we have not linked yet): imported as a new request in 'start',
 * priced with the default grid, once whatever the number of events (a lock per HubSpot id). */
export async function importDeal(deps: Deps, hubspot: HubSpot, hubspotId: string): Promise<SyncOutcome> {
  const known = await transactionAs(deps.db, JOB, (tx) => dealIdOf(tx, hubspotId));
  if (known !== null) return await syncDeal(deps, hubspot, known);
  const remote = await hubspot.getDeal(hubspotId, READ_PROPERTIES);
  if (!remote) return { pushed: [], pulled: [] }; // deleted there before we read it
  const there = fromHubSpot(remote.properties);
  const imported = await transactionAs(deps.db, JOB, async (tx) => {
    await fromHubSpotOrigin(tx);
    await tx`select pg_advisory_xact_lock(hashtext(${`crm-import:${hubspotId}`}))`;
    const existing = await dealIdOf(tx, hubspotId);
    if (existing !== null) return { id: existing, created: false };
    const { name, properties } = applyInbound(
      { name: `Transaction HubSpot ${hubspotId}`, properties: {} },
      Object.fromEntries(INBOUND.map((key) => [key, there[key]])),
    );
    const deviseur = await loadDeviseurSettings(tx);
    const settings = {
      hasDeposit: false,
      depositPercentage: deviseur.depositPercentage,
      cocktailListType: "signature" as const,
      customCocktails: [],
      nbCocktailsAuthorized: deviseur.nbCocktailsAuthorized,
    };
    const priced = generate(await loadPricing(tx, null), quoteRequestOf(properties, settings));
    const parameters = { vat: deviseur.vatRate, commissionRate: deviseur.commissionRate };
    const columns = listColumns(properties);
    const { totals, totalHt } = await totalsFor(
      tx,
      priced.lines,
      parameters,
      columns.guests ?? 0,
      priced.calculations.nbCocktails,
    );
    const deal = await insertDeal(tx, {
      name,
      properties,
      settings,
      lines: priced.lines,
      parameters,
      calculations: priced.calculations,
      totals,
      totalHt,
      serviceDate: columns.serviceDate,
      guests: columns.guests ?? 0,
      eventType: columns.eventType ?? "",
      customerId: null,
    });
    await tx`update public.deals set hubspot_id = ${hubspotId} where id = ${deal.id}`;
    await insertContact(tx, deal.id, {
      firstname: "",
      lastname: "",
      email: "",
      phone: "",
      serviceAddress: "",
    });
    await refreshSearchText(tx, deal.id);
    // Agreed: HubSpot's values, and for the fields only we send, what our new deal would send (its
    // stage and amount go out when our status or price changes, not because it was imported).
    const ours = toHubSpot(
      { name, status: "start", totalHt, properties },
      stagesOf(deps),
      deps.config.hubspotPipeline,
    );
    const agreed = { ...there };
    for (const key of OUTBOUND_ONLY) agreed[key] = ours[key];
    await saveSynced(tx, deal.id, agreed);
    return { id: deal.id, created: true };
  });
  if (!imported.created) return await syncDeal(deps, hubspot, imported.id);
  await deps.logger.info(CRM_SERVICE, "Transaction importée depuis HubSpot", {
    dealId: imported.id,
    hubspotId,
  });
  return { imported: imported.id, pushed: [], pulled: [...INBOUND] };
}

async function dealIdOf(tx: Tx, hubspotId: string): Promise<number | null> {
  const [row] = await tx<{ id: number }>`
    select id from public.deals where hubspot_id = ${hubspotId} order by id limit 1`;
  return row?.id ?? null;
}

export { HubSpotError };
