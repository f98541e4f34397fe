// The outbox queues the worker loop drains, by configuration.
import type { Config } from "../config.ts";
import type { Queue } from "./worker.ts";
import { smtpQueue } from "../mail/delivery.ts";
import { dealNotificationsQueue } from "../deals/notifications.ts";

export function outboxQueues(config: Config): Queue[] {
  const queues: Queue[] = [dealNotificationsQueue];
  // Without an SMTP server, emails stay in the outbox, where admins read them.
  if (config.smtpUrl) queues.push(smtpQueue(config));
  return queues;
}
