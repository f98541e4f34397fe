// The outbox queues the worker loop drains, by configuration.
import type { Config } from "../config.ts";
import type { Queue } from "./worker.ts";
import { smtpQueue } from "../mail/delivery.ts";
import { dealNotificationsQueue } from "../deals/notifications.ts";
import { scheduledEmailsQueue } from "../mail/scheduled_queue.ts";
import { crmSyncHandler } from "../crm/sync.ts";
import { hubspotFromConfig } from "../integrations/hubspot.ts";
import { billingQueue } from "../billing/queue.ts";
import { cancelIntentHandler, refundsQueue, simulatedSettlementQueue } from "../payments/queues.ts";
import { type OutboxHandler, outboxQueue } from "../outbox/worker.ts";
import { dateCanceledMailHandler, seatOfferMailHandler } from "../sessions/waiting_list.ts";
import { orderSettleHandler } from "../orders/queue.ts";

/** The handler of each queue of the one outbox (lib/outbox/), by queue name. */
// deno-lint-ignore no-explicit-any
export const OUTBOX_HANDLERS: OutboxHandler<any>[] = [
  cancelIntentHandler,
  orderSettleHandler,
  seatOfferMailHandler,
  dateCanceledMailHandler,
];

export function outboxQueues(config: Config): Queue[] {
  // Always: deal emails, invoices and credit notes for recorded payments, refunds to the provider,
  // and (outside production, without Stripe keys) the simulated provider's delayed payments.
  const queues: Queue[] = [dealNotificationsQueue, billingQueue, refundsQueue, simulatedSettlementQueue];
  // The reminder policy's scheduled emails, once marked ready (lib/mail/scheduled_queue.ts).
  queues.push(scheduledEmailsQueue);
  // Without an SMTP server, emails stay in the outbox, where admins read them.
  if (config.smtpUrl) queues.push(smtpQueue(config));
  // Without a HubSpot token no deal queues a 'crm-sync' job (lib/crm/switch.ts, written at start).
  // Calls time out after 10 s: a batch of 10 syncs of 2 calls each stays within the 300 s lease.
  const hubspot = hubspotFromConfig(config, { timeoutMs: 10_000 });
  // The outbox: every job enqueued with lib/outbox/enqueue.ts, run by its queue's handler.
  queues.push(outboxQueue([...OUTBOX_HANDLERS, ...(hubspot ? [crmSyncHandler(hubspot)] : [])]));
  return queues;
}
