// SQL of the emails capability (each statement takes the use case's transaction): the admin's manual
// sends, the scheduled emails page, one email of the outbox.
import type { Tx } from "../db/database.ts";
import type { CronStats, ManualTemplateName, ScheduledEmailJson } from "./rules.ts";
import { CLEANUP_DAYS } from "./rules.ts";

export interface DealRecipients {
  id: number;
  status: string;
  hasCustomer: boolean;
  hasPartner: boolean;
  /** A payment (not an overpayment) was recorded: its customer invoice exists. */
  anythingPaid: boolean;
}

/** The deal as the actor's RLS shows it, with whether each side has an address (null: not found). */
export async function dealRecipients(tx: Tx, dealId: number): Promise<DealRecipients | null> {
  const [row] = await tx<DealRecipients>`
    select d.id, d.status, coalesce(c.email, '') <> '' as "hasCustomer",
           exists (select from public.users p where p.id = d.company_id and p.anonymized_at is null
                   and coalesce(p.email, '') <> '') as "hasPartner",
           exists (select from public.deal_payments m where m.deal_id = d.id and not m.overpayment)
             as "anythingPaid"
    from public.deals d left join public.deal_contacts c on c.deal_id = d.id
    where d.id = ${dealId}`;
  return row ?? null;
}

/** Queues a manual template for the worker (RLS: admins only for these kinds). */
export async function queueManualEmail(tx: Tx, dealId: number, template: ManualTemplateName): Promise<void> {
  await tx`insert into public.deal_notifications (deal_id, kind) values (${dealId}, ${template})`;
}

export async function cronStats(tx: Tx): Promise<CronStats> {
  const [row] = await tx<CronStats>`
    select count(*) filter (where not is_sent and not is_ready)::int as pending,
           count(*) filter (where not is_sent and is_ready)::int as ready,
           count(*) filter (where is_sent and sent_at >= date_trunc('day', now() at time zone 'Europe/Paris')
                                                        at time zone 'Europe/Paris')::int as "sentToday",
           count(*) filter (where is_sent)::int as "totalSent"
    from public.scheduled_emails`;
  return row;
}

/** What the page lists, by scheduleAt ascending: every email still to send, and those sent in the last
 * 24 hours (older sent ones stay counted in the stats until the cleanup). */
export async function nextCrons(tx: Tx, limit = 500): Promise<ScheduledEmailJson[]> {
  const rows = await tx<{
    id: number;
    template: string;
    entityId: number;
    hubspotId: string | null;
    scheduleAt: number;
    createdAt: number;
    isSent: boolean;
    isReady: boolean;
    timeRemaining: number;
  }>`
    select id, template, entity_id as "entityId", data ->> 'hubspotId' as "hubspotId",
           extract(epoch from schedule_at)::bigint as "scheduleAt",
           extract(epoch from created_at)::bigint as "createdAt",
           is_sent as "isSent", is_ready as "isReady",
           greatest(0, ceil(extract(epoch from schedule_at - now())))::bigint as "timeRemaining"
    from public.scheduled_emails
    where not is_sent or sent_at > now() - interval '24 hours'
    order by schedule_at, id
    limit ${limit}`;
  return rows.map(({ hubspotId, ...row }) => ({ ...row, data: { hubspotId } }));
}

/** Deletes the sent scheduled emails older than 30 days (RLS: admins, sent rows only). */
export async function cleanupScheduled(tx: Tx): Promise<number> {
  const rows = await tx`
    delete from public.scheduled_emails
    where is_sent and sent_at < now() - make_interval(days => ${CLEANUP_DAYS}) returning id`;
  return rows.length;
}

export interface OutboxEmail {
  id: string;
  subject: string;
  html: string | null;
  text: string;
}

/** One email of the outbox as the admin's RLS shows it (null: absent or hidden, like reset links). */
export async function outboxEmail(tx: Tx, id: string): Promise<OutboxEmail | null> {
  const [row] = await tx<OutboxEmail>`
    select id, subject, html_body as html, text_body as text from public.email_outbox where id = ${id}::uuid`;
  return row ?? null;
}
